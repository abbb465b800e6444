/**
 * No false alarms: the correct reference server, and servers that are unusual
 * but valid (Retry-After as an HTTP-date, a sliding window, clamping an
 * out-of-range limit, no default status, slow responses, ids next to the
 * suite's unknown id, undocumented extra fields, a token bucket, +json and
 * charset media types, WWW-Authenticate, no Date, Connection: close with chunked
 * bodies, odd-case and extra headers, spaced JSON, a non-integer limit ignored,
 * a padded Retry-After), pass with no failure
 * and no warning. A Free-plan key (60 per window) completes a full run with no 429.
 */
import { describe, expect, test } from 'vitest';
import type { AppOptions } from '../../reference/options.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { requirement } from '../../src/core/catalogue.ts';

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
  { name: 'a server with a token-bucket limiter', options: { variants: { limiter: 'token-bucket' } } },
  { name: 'a server labelling JSON with charset=utf-8', options: { variants: { wire: { contentType: 'charset' } } } },
  {
    name: 'a server sending WWW-Authenticate on 401s, no Date header, Connection: close and chunked bodies',
    options: { variants: { wire: { wwwAuthenticate: true, noDate: true, chunkedClose: true } } },
  },
  {
    name: 'a server with odd-case header names, ETag, Cache-Control, RateLimit-* and spaced JSON',
    options: { variants: { wire: { oddHeaders: true, prettyJson: true } } },
  },
  { name: 'a server rejecting names over 255 characters with 422', options: { variants: { longNames: 'reject-422' } } },
  {
    name: 'a server ignoring a non-integer limit and padding Retry-After',
    options: { variants: { nonIntegerLimit: 'default', retryAfterPaddingS: 1 } },
  },
];

describe('valid servers pass', () => {
  test.each(VALID_SERVERS)('The suite certifies $name with no failure and no warning.', async ({ options }) => {
    // Wire variants are about framing and headers on a real socket; the rest run on simulated time.
    const run = await runSuiteAgainst(options, { real: !!options.variants?.wire });
    expect(run.problems()).toEqual([]);
    expect(
      run.results.filter((r) => r.level === 'MUST' && requirement(r.id).by !== 'load' && r.status === 'skip').map((r) => r.id),
    ).toEqual([]);
  });
});

test.each(['fixed', 'token-bucket'] as const)(
  'A Free-plan key completes a full run without a single 429 by pacing itself on X-RateLimit-Remaining (%s limiter).',
  async (limiter) => {
    const run = await runSuiteAgainst({ variants: { limiter } }, { plan: 'free' });
    expect(run.problems()).toEqual([]);
    expect(run.requests).toBeGreaterThan(60);
    expect(run.findings.filter((f) => f.requirement === 'RL-429-RETRY-AFTER')).toEqual([]);
  },
  60_000,
);

test('Errors labelled application/problem+json (JSON, but not the application/json the spec names) are a warning, not a failure.', async () => {
  const run = await runSuiteAgainst({ variants: { wire: { contentType: 'problem' } } });
  expect(run.status('RESP-CONTENT-TYPE-JSON')).toBe('warn');
  expect(run.problems().filter((p) => !p.startsWith('RESP-CONTENT-TYPE-JSON'))).toEqual([]);
});

test('A read-only run (writes off) passes with no failure, and the specs that would write are skipped, not failed.', async () => {
  const run = await runSuiteAgainst({}, { env: { ANIMAL_STORE_ALLOW_WRITES: 'false' } });
  expect(run.problems()).toEqual([]);
  expect(run.status('CREATE-201-PET')).toBe('skip');
  expect(run.status('AUTH-MISSING-401')).toBe('pass');
  expect(run.status('GET-ROUND-TRIP')).toBe('pass');
});
