/**
 * The burst of conformance/rate-limit-headers/remaining-decrements.spec.ts, run alone on simulated time: it fails a
 * server counting one operation's requests twice (the held-out fault create-counted-twice) or each route apart, and
 * passes the correct server and the valid limiters (a sliding window, a token bucket, headers counting the day), with
 * writes on and off. The rules themselves: test/core/sections/rate-limit-headers/scope.test.ts.
 */
import { expect, test } from 'vitest';
import type { AppOptions } from '../../reference/options.ts';
import { runSuiteAgainst } from '../support/suite.ts';

const CASES: { what: string; app: AppOptions; writes: boolean; status: string }[] = [
  { what: 'every createPet counted twice', app: { faults: ['create-counted-twice'] }, writes: true, status: 'fail' },
  { what: 'a countdown per route', app: { faults: ['limit-per-route'] }, writes: true, status: 'fail' },
  { what: 'the reference server', app: {}, writes: true, status: 'pass' },
  { what: 'the reference server, writes off', app: {}, writes: false, status: 'pass' },
  { what: 'a sliding-window limiter', app: { variants: { limiter: 'sliding' } }, writes: true, status: 'pass' },
  { what: 'a token-bucket limiter', app: { variants: { limiter: 'token-bucket' } }, writes: true, status: 'pass' },
  { what: 'headers counting the day', app: { variants: { rateLimitHeaders: 'day' } }, writes: true, status: 'pass' },
];

test.each(CASES)('RL-REMAINING-DECREMENTS over the interleaved burst: $what ($status).', async ({ app, writes, status }) => {
  const run = await runSuiteAgainst(app, {
    specs: (f) => f.behaviour === 'remaining-decrements',
    env: { ANIMAL_STORE_ALLOW_WRITES: String(writes) },
  });
  expect(run.status('RL-REMAINING-DECREMENTS'), run.problems().join('\n')).toBe(status);
  if (status === 'pass') expect(run.problems()).toEqual([]);
});
