/**
 * No false alarms: the correct reference server, and servers that are unusual
 * but valid (Retry-After as an HTTP-date, a sliding window, clamping an
 * out-of-range limit, no default status, slow responses, ids next to the
 * suite's unknown id, undocumented extra fields), pass with no failure
 * and no warning. A Free-plan key (60 per window) completes a full run with no 429.
 */
import { describe, expect, test } from 'vitest';
import type { AppOptions } from '../../reference/options.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { requirement } from '../../src/catalogue/requirements.ts';

const VALID_SERVERS: { name: string; options: AppOptions }[] = [
  { name: 'the reference server', options: {} },
  { name: 'a server sending Retry-After as an HTTP-date', options: { variants: { retryAfter: 'http-date' } } },
  { name: 'a server with a sliding-window limiter', options: { variants: { limiter: 'sliding' } } },
  { name: 'a server that clamps an out-of-range limit', options: { variants: { outOfRangeLimit: 'clamp' } } },
  { name: 'a server that gives no default status', options: { variants: { defaultStatus: 'none' } } },
  { name: 'a server that answers slowly', options: { variants: { latencyMs: 40 } } },
  { name: 'a server that issues small ids', options: { firstId: 1n } },
  { name: 'a server that issues ids next to the ones the suite probes as unknown', options: { firstId: 9223372036854770000n } },
  { name: 'a server whose rate-limit headers count the day, not the minute', options: { variants: { rateLimitHeaders: 'day' } } },
  { name: 'a server adding undocumented fields that differ between responses', options: { variants: { extraFields: true } } },
];

describe('valid servers pass', () => {
  test.each(VALID_SERVERS)('The suite certifies $name with no failure and no warning.', async ({ options }) => {
    const run = await runSuiteAgainst(options);
    expect(run.problems()).toEqual([]);
    expect(run.results.filter((r) => r.level === 'MUST' && requirement(r.id).by !== 'load' && r.status === 'skip').map((r) => r.id)).toEqual([]);
  });
});

test('A Free-plan key completes a full run without a single 429 by pacing itself on X-RateLimit-Remaining.', async () => {
  const run = await runSuiteAgainst({ windowMs: 2000 }, { plan: 'free' });
  expect(run.problems()).toEqual([]);
  expect(run.requests).toBeGreaterThan(60);
  expect(run.findings.filter((f) => f.requirement === 'RL-429-RETRY-AFTER')).toEqual([]);
}, 60_000);

test('A read-only run (writes off) passes with no failure, and the specs that would write are skipped, not failed.', async () => {
  const run = await runSuiteAgainst({}, { env: { ANIMAL_STORE_ALLOW_WRITES: 'false' } });
  expect(run.problems()).toEqual([]);
  expect(run.status('CREATE-201-PET')).toBe('skip');
  expect(run.status('AUTH-MISSING-401')).toBe('pass');
  expect(run.status('GET-ROUND-TRIP')).toBe('pass');
});
