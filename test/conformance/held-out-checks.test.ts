/**
 * The checks that catch held-out faults of issue 39, each run alone (its spec only): it fails the fault and passes the
 * correct server and the valid variants its rule must not fail.
 * - remaining-decrements.spec.ts (simulated time): a server counting one operation's requests twice (the held-out fault
 *   create-counted-twice) or each route apart fails; a sliding window, a token bucket and headers counting the day
 *   pass, with writes on and off. Its rules: test/core/sections/rate-limit-headers/scope.test.ts.
 * - limit-honoured.spec.ts (real sockets): a page asked without a query right after one with limit 100 on the same
 *   connection is a default page; a server that keeps a connection's query (query-kept-per-connection) fails, one that
 *   closes every connection after one request passes.
 */
import { afterAll, expect, test } from 'vitest';
import type { AppOptions } from '../../reference/options.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { runSuiteAgainst } from '../support/suite.ts';

afterAll(() => closeTransport());

interface Row {
  what: string;
  app: AppOptions;
  spec: 'remaining-decrements' | 'limit-honoured';
  requirement: string;
  status: 'fail' | 'pass';
  writes?: boolean;
}

const CASES: Row[] = [
  {
    what: 'every createPet counted twice',
    app: { faults: ['create-counted-twice'] },
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'fail',
  },
  {
    what: 'a countdown per route',
    app: { faults: ['limit-per-route'] },
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'fail',
  },
  { what: 'the reference server', app: {}, spec: 'remaining-decrements', requirement: 'RL-REMAINING-DECREMENTS', status: 'pass' },
  {
    what: 'the reference server, writes off',
    app: {},
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'pass',
    writes: false,
  },
  {
    what: 'a sliding-window limiter',
    app: { variants: { limiter: 'sliding' } },
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'pass',
  },
  {
    what: 'a token-bucket limiter',
    app: { variants: { limiter: 'token-bucket' } },
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'pass',
  },
  {
    what: 'headers counting the day',
    app: { variants: { rateLimitHeaders: 'day' } },
    spec: 'remaining-decrements',
    requirement: 'RL-REMAINING-DECREMENTS',
    status: 'pass',
  },
  {
    what: "a connection's query kept for its next request",
    app: { faults: ['query-kept-per-connection'] },
    spec: 'limit-honoured',
    requirement: 'LIST-DEFAULT-LIMIT',
    status: 'fail',
  },
  { what: 'the reference server', app: {}, spec: 'limit-honoured', requirement: 'LIST-DEFAULT-LIMIT', status: 'pass' },
  {
    what: 'a server closing every connection after one request',
    app: { variants: { wire: { maxRequestsPerConnection: 1 } } },
    spec: 'limit-honoured',
    requirement: 'LIST-DEFAULT-LIMIT',
    status: 'pass',
  },
];

test.each(CASES)('$spec, $what: $requirement is $status', async ({ app, spec, requirement, status, writes = true }) => {
  const real = spec === 'limit-honoured';
  const run = await runSuiteAgainst(app, {
    specs: (f) => f.behaviour === spec,
    env: { ANIMAL_STORE_ALLOW_WRITES: String(writes) },
    ...(real ? { real } : {}),
  });
  if (real) await closeTransport();
  expect(run.status(requirement), run.problems().join('\n')).toBe(status);
  if (status === 'pass') expect(run.problems()).toEqual([]);
});
