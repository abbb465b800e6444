/**
 * Reading rate-limit signals: the three HTTP-date forms of RFC 9110, Retry-After
 * as delay-seconds or a date measured against the server's Date, and the
 * judgment of X-RateLimit-Reset (Unix seconds, not milliseconds, not relative).
 */
import { describe, expect, test } from 'vitest';
import { judgeReset, parseHttpDate, parseRetryAfter, readRateLimit, retryAfterDelayMs } from '../../src/core/ratelimit.ts';

const T = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('HTTP-date', () => {
  test.each([
    ['Sun, 22 Nov 2026 10:00:00 GMT', T],
    ['Sunday, 22-Nov-26 10:00:00 GMT', T],
    ['Sun Nov 22 10:00:00 2026', T],
    ['Thu, 05 Dec 2030 00:00:00 GMT', Date.UTC(2030, 11, 5)],
  ])('%s parses.', (text, ms) => {
    expect(parseHttpDate(text)).toBe(ms);
  });

  test.each(['2026-11-22T10:00:00Z', 'Sun, 31 Feb 2026 10:00:00 GMT', 'Sun, 22 Nov 2026 10:00:00 UTC', 'yesterday', ''])(
    '%j is not an HTTP-date.',
    (text) => {
      expect(parseHttpDate(text)).toBeUndefined();
    },
  );
});

describe('Retry-After', () => {
  test('Delay-seconds and an HTTP-date give the same wait, the date measured against the server Date.', () => {
    expect(retryAfterDelayMs(parseRetryAfter('30'), T)).toBe(30_000);
    const serverDate = T - 3_600_000; // server clock an hour behind ours
    expect(retryAfterDelayMs(parseRetryAfter(new Date(serverDate + 30_000).toUTCString()), T, serverDate)).toBe(30_000);
  });

  test.each([['-1'], ['1.5'], ['soon'], ['']])('%j is invalid.', (v) => {
    expect(parseRetryAfter(v).kind).toBe('invalid');
  });

  test('A missing header is absent, not invalid.', () => {
    expect(parseRetryAfter(undefined).kind).toBe('absent');
  });
});

describe('X-RateLimit-Reset', () => {
  const s = Math.floor(T / 1000);
  test.each([
    [String(s + 30), true, undefined],
    [String(s), true, undefined],
    [String(s - 1), true, undefined],
    [String(s + 61), true, undefined],
    [String(s + 70), false, 'too-far'],
    [String(s - 10), false, 'past'],
    [String(T + 30_000), false, 'milliseconds'],
    ['30', false, 'relative'],
    ['soon', false, 'malformed'],
  ])('Reset %s → ok %s (%s).', (raw, ok, reason) => {
    const v = judgeReset(raw, T, 60, 2);
    expect(v.ok).toBe(ok);
    if (!v.ok) expect(v.reason).toBe(reason);
  });

  test('Header names are case-insensitive and values must be plain integers.', () => {
    expect(readRateLimit({ 'X-RateLimit-Limit': '60', 'x-ratelimit-remaining': ' 59 ', 'X-RATELIMIT-RESET': '1.5' })).toMatchObject({
      limit: 60,
      remaining: 59,
      reset: undefined,
      resetRaw: '1.5',
    });
  });
});
