/**
 * The embedded server's world re-sized during a run (src/target/target.ts resize and widen): to this machine's rate,
 * measured before the rate-limit scenarios once the conformance specs ran in the world it started with, then doubled
 * before a second attempt of a scenario whose client fell short of its rate. The server's counts restart on the new
 * window and day (reference/limiter.ts), and the reports say which world the specs and the scenarios ran in.
 */
import { describe, expect, test } from 'vitest';
import { RateLimiter } from '../../reference/limiter.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { embeddedNote, openTarget } from '../../src/target/target.ts';
import { DAY_SPANS, dayNeededMs } from '../../src/target/world.ts';

const BUSY = { perS: 70, ms: 1000, inFlight: 32 };

describe("the reference server's limiter re-sized", () => {
  test('Its counts restart, and its window and day are the new ones from then on.', () => {
    const limiter = new RateLimiter({ windowMs: 1000, dayMs: 20_000, mode: 'fixed', has: () => false });
    const limits = { perMinute: 2, perDay: 3 };
    const at = 8_000_000 * 120_000; // a whole number of every window and day below
    const allowed = (now: number) => limiter.take('k', limits, now).allowed;
    expect([allowed(at), allowed(at + 1), allowed(at + 2)]).toEqual([true, true, false]);
    limiter.resize(6000, 120_000);
    const d = limiter.take('k', limits, at + 3);
    // A fresh window of 6 s (and a fresh day: a third request in it passes the window's 2, and is the day's third).
    expect([d.allowed, d.remaining, d.resetAt]).toEqual([true, 1, at + 6000]);
    expect(d.day.resetAt).toBe(at + 120_000);
    expect([allowed(at + 4), allowed(at + 6000)]).toEqual([true, true]);
    expect(allowed(at + 6001)).toBe(false); // the new day's quota of 3 used up: the old day's 2 were not counted in it
  });
});

describe('the embedded target re-sized', () => {
  test('To a busy machine: a longer window and day, the world the specs ran in, and the measurement in the report.', async () => {
    const t = await openTarget(readConfig({}, { plan: 'pro' }, 'start'));
    try {
      expect([t.windowMs, t.dayMs]).toEqual([1000, 20_000]);
      t.resize?.(BUSY);
      expect(t.windowMs).toBe(6000);
      expect(t.dayMs).toBe(DAY_SPANS * dayNeededMs(300, 600, 6000));
      expect(t.dailyKeys?.pro?.dayNeededMs).toBe(dayNeededMs(300, 600, 6000));
      expect(t.config.maxWaitMs).toBeGreaterThanOrEqual(t.dayMs);
      expect(t.info.world).toMatchObject({
        windowMs: 6000,
        dayMs: t.dayMs,
        specs: { windowMs: 1000, dayMs: 20_000 },
        machine: { measuredPerS: 70, windowRatePerS: 52 },
      });
      expect(embeddedNote(t)).toMatch(
        /a 6 s window .* it sustained 70 responses a second .* The conformance specs ran before it in a 1 s window and a quota day of 20 s\./,
      );
    } finally {
      await t.close();
    }
  });

  test('Made longer before second attempts: the window doubles, the day follows, up to a minute and no further.', async () => {
    const t = await openTarget(readConfig({}, { plan: 'pro' }, 'start'));
    try {
      t.resize?.(BUSY);
      expect(t.widen?.()).toBe(true);
      expect([t.windowMs, t.dayMs, t.info.world?.widened]).toEqual([12_000, DAY_SPANS * dayNeededMs(300, 600, 12_000), 1]);
      expect(t.info.world?.specs).toEqual({ windowMs: 1000, dayMs: 20_000 });
      expect(embeddedNote(t)).toMatch(/The window was then doubled once before a second attempt/);
      expect([t.widen?.(), t.widen?.(), t.windowMs]).toEqual([true, true, 48_000]);
      expect([t.widen?.(), t.windowMs, t.info.world?.widened]).toEqual([false, 48_000, 3]);
    } finally {
      await t.close();
    }
  });

  test('A world given (--window-ms) and a real target are never re-sized.', async () => {
    const given = await openTarget(readConfig({}, { plan: 'pro', 'window-ms': '5000' }, 'start'));
    await given.close();
    const remote = await openTarget(
      readConfig({ ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:9/v1', ANIMAL_STORE_API_KEY: 'k' }, { plan: 'pro' }, 'start'),
    );
    expect([given, remote].map((t) => ['resize' in t, 'widen' in t])).toEqual([
      [false, false],
      [false, false],
    ]);
  });
});
