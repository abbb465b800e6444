import { afterEach, describe, expect, test } from 'vitest';
import { PLANS } from '../../src/core/plans.ts';
import { parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate } from '../../src/core/ratelimit.ts';
import { validateSchema } from '../../src/schemas/ajv.ts';
import { BAN_WINDOWS } from '../../reference/app.ts';
import type { AppOptions } from '../../reference/options.ts';
import { obj, repeat, start, T0, type Srv } from './helpers.ts';

const open: Srv[] = [];
async function server(o: AppOptions = {}): Promise<Srv> {
  const s = await start(o);
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const remaining = (r: { headers: Record<string, string> }) => Number(r.headers['x-ratelimit-remaining']);
/** Enterprise limits small enough to reach in a few requests. */
const small = (perMinute: number, perDay = 1000): AppOptions => ({ enterprise: { perMinute, perDay } });

describe('Fixed-window rate limiting of the reference server', () => {
  test('The free plan allows 60 requests a minute with Remaining counting down, then answers 429 with Retry-After and Remaining 0.', async () => {
    const s = await server();
    s.clock.advance(15_500); // 44.5 s left in the window
    const ok = await repeat(s, 60, '/pets?limit=1', { plan: 'free' });
    expect(ok.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect(ok.map(remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    const r = await s.send('/pets', { plan: 'free' });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('45');
    expect(readRateLimit(r.headers)).toMatchObject({ limit: 60, remaining: 0, reset: (T0 + 60_000) / 1000 });
    expect(validateSchema('Error', r.json).valid).toBe(true);
    expect(obj(r)).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  test('After waiting Retry-After the key is served again with a fresh window.', async () => {
    const s = await server(small(3));
    await repeat(s, 3, '/pets');
    s.clock.advance(59_999);
    const limited = await s.send('/pets');
    expect(limited.headers['retry-after']).toBe('1'); // 1 ms left, rounded up to at least 1 s
    s.clock.advance(Number(limited.headers['retry-after']) * 1000);
    const again = await s.send('/pets');
    expect(again.status).toBe(200);
    expect(remaining(again)).toBe(2);
    expect(Number(again.headers['x-ratelimit-reset'])).toBe((T0 + 120_000) / 1000);
  });

  test.each(Object.entries(PLANS))('The %s plan advertises its per-minute limit.', async (plan, limits) => {
    const s = await server();
    const r = await s.send('/pets', { plan: plan as keyof typeof PLANS });
    expect(readRateLimit(r.headers).limit).toBe(limits.perMinute);
  });

  test('The enterprise limits are configurable.', async () => {
    const s = await server(small(7, 70));
    expect(readRateLimit((await s.send('/pets')).headers).limit).toBe(7);
  });

  test('Refused requests do not consume the quota.', async () => {
    const s = await server(small(2));
    await repeat(s, 5, '/pets');
    s.clock.advance(60_000);
    expect((await repeat(s, 3, '/pets')).map((r) => r.status)).toEqual([200, 200, 429]);
  });

  test('The per-day quota is enforced across windows, with Retry-After and Reset pointing at the end of the day.', async () => {
    const s = await server({ ...small(5, 8), dayMs: 600_000 });
    expect((await repeat(s, 6, '/pets')).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    s.clock.advance(60_000);
    const second = await repeat(s, 4, '/pets');
    expect(second.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(second.map(remaining)).toEqual([2, 1, 0, 0]);
    const dayEnd = Math.ceil((T0 + 600_000) / 1000);
    expect(Number(second[3].headers['x-ratelimit-reset'])).toBe(dayEnd);
    expect(Number(second[3].headers['retry-after'])).toBe(dayEnd - (T0 + 60_000) / 1000);
  });
});

describe('Rate-limit variants of the reference server', () => {
  test('The sliding variant frees each slot one window after it was used.', async () => {
    const s = await server({ ...small(4), variants: { limiter: 'sliding' } });
    s.clock.advance(10_000);
    await repeat(s, 2, '/pets');
    s.clock.advance(30_000);
    const later = await repeat(s, 3, '/pets');
    expect(later.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(later[2].headers['retry-after']).toBe('30');
    expect(Number(later[1].headers['x-ratelimit-reset'])).toBe((T0 + 70_000) / 1000);
    s.clock.advance(30_000);
    expect((await repeat(s, 3, '/pets')).map((r) => r.status)).toEqual([200, 200, 429]);
  });

  test('The http-date variant sends Retry-After as an IMF-fixdate at the end of the window.', async () => {
    const s = await server({ ...small(1), variants: { retryAfter: 'http-date' } });
    s.clock.advance(12_345);
    await s.send('/pets');
    const r = await s.send('/pets');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe(new Date(T0 + 60_000).toUTCString());
    const ra = parseRetryAfter(r.headers['retry-after']);
    expect(ra.kind).toBe('date');
    expect(retryAfterDelayMs(ra, 0, serverDate(r.headers))).toBe(48_000);
  });

  test('The latency variant delays every response.', async () => {
    const s = await server({ variants: { latencyMs: 120 } });
    const t = performance.now();
    expect((await s.send('/pets')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(110);
  });

  describe('The ban variant', () => {
    const ban = (): AppOptions => ({ ...small(2), variants: { banOnEarlyRetry: true } });

    test('A key that retries while Retry-After runs is banned with 429 and a long Retry-After for 10 windows.', async () => {
      const s = await server(ban());
      await repeat(s, 2, '/pets');
      expect((await s.send('/pets')).headers['retry-after']).toBe('60');
      s.clock.advance(5_000);
      const banned = await s.send('/pets');
      expect(banned.status).toBe(429);
      expect(obj(banned)).toMatchObject({ code: 'key_banned', status: 429 });
      expect(Number(banned.headers['retry-after'])).toBe(BAN_WINDOWS * 60);
      s.clock.advance(120_000); // past the window, still banned
      expect(obj(await s.send('/pets')).code).toBe('key_banned');
      s.clock.advance(BAN_WINDOWS * 60_000);
      expect((await s.send('/pets')).status).toBe(200);
    });

    test('A key that waits out Retry-After is never banned, and other keys are unaffected.', async () => {
      const s = await server(ban());
      await repeat(s, 2, '/pets');
      const limited = await s.send('/pets');
      expect((await s.send('/pets', { plan: 'free' })).status).toBe(200);
      s.clock.advance(Number(limited.headers['retry-after']) * 1000);
      expect((await repeat(s, 3, '/pets')).map((r) => r.status)).toEqual([200, 200, 429]);
    });

    test('Requests already in flight when the 429 was sent do not ban the key.', async () => {
      const s = await server(ban());
      expect((await repeat(s, 4, '/pets')).map((r) => obj(r).code ?? r.status)).toEqual([200, 200, 'rate_limited', 'rate_limited']);
    });
  });
});
