/**
 * The embedded server's short world (src/target/world.ts): a window that grows
 * with the largest limit under test, quotas the per-minute scenarios cannot use
 * up, a short quota on the daily scenario's own key, and a day the daily
 * scenario's whole pace on that key fits in — the same pace, slack and
 * tolerance the load scenarios use (load/lib), so the two cannot drift apart.
 */
import { describe, expect, test } from 'vitest';
import { scenarioOptions } from '../../load/lib/scenario-options.ts';
import { SCENARIOS } from '../../load/lib/load-shapes.ts';
import { isDailyThrottle } from '../../src/core/sections/rate-limit-load/spans.ts';
import type { Sample } from '../../src/core/sample.ts';
import { DAY_SPANS, dayNeededMs, embeddedWorld, windowRatePerS, worldWindowMs } from '../../src/target/world.ts';

const pro = { perMinute: 300, perDay: 10_000 };
const free = { perMinute: 60, perDay: 1_000 };
const business = { perMinute: 1_000, perDay: 100_000 };

describe('the window', () => {
  test.each([
    [[60], 1000],
    [[300], 1000],
    [[60, 300], 1000],
    [[1000], 4000],
    [[300, 1000], 4000],
    [[5000], 17000],
  ])('Limits %o get a window of %i ms (a second per 300 requests of the largest, whole seconds).', (limits, ms) => {
    expect(worldWindowMs(limits)).toBe(ms);
  });
});

describe('the window sized to this machine', () => {
  test.each([
    ['not measured', undefined, 300, 1000],
    ['a quiet machine (2,000 a second)', 2000, 300, 1000],
    ['just enough for a 1 s window (400 a second)', 400, 300, 1000],
    ['a busy machine (300 a second)', 300, 225, 2000],
    ['a very busy machine (70 a second)', 70, 52, 6000],
    ['a machine that answered nothing', 0, 300, 1000],
  ] as const)('On %s the Pro window asks %i a second at most: a window of %i ms.', (_name, measured, rate, ms) => {
    expect(windowRatePerS(measured)).toBe(rate);
    expect(worldWindowMs([300], windowRatePerS(measured))).toBe(ms);
    // The day follows the window: the daily scenario's whole pace still fits in it, twice.
    const w = embeddedWorld({ underTest: [pro], conformance: 500, measuredPerS: measured });
    expect(w.windowMs).toBe(ms);
    expect(w.dailyNeedMs).toEqual([dayNeededMs(pro.perMinute, w.dailyQuotas[0], ms)]);
    expect(w.dayMs).toBe(DAY_SPANS * w.dailyNeedMs[0]);
  });

  test('A window given (--window-ms) is kept whatever the machine.', () => {
    expect(embeddedWorld({ underTest: [pro], conformance: 500, windowMs: 5000, measuredPerS: 70 }).windowMs).toBe(5000);
  });
});

describe('the quotas and the day', () => {
  test.each([
    ['pro', pro, 500, 3200],
    ['free', free, 500, 1000],
    ['business', business, 500, 9500],
  ] as const)(
    'The %s quota is just above what a run sends before the daily scenario (%i conformance requests and 9 windows), or the published one.',
    (_name, plan, conformance, quota) => {
      expect(embeddedWorld({ underTest: [plan], conformance }).quotas).toEqual([quota]);
    },
  );

  test.each([
    ['pro', pro, 600],
    ['free', free, 120],
    ['business', business, 2000],
    ['a small published quota', { perMinute: 300, perDay: 450 }, 450],
  ] as const)(
    'The %s daily key (the daily scenario’s own) gets 2 windows’ worth, more than a window allows, or the published quota when less.',
    (_name, plan, quota) => {
      expect(embeddedWorld({ underTest: [plan], conformance: 500 }).dailyQuotas).toEqual([quota]);
    },
  );

  test('A quota asked for (--rpd) is the server’s as asked, on both keys; the plans not under test get quotas too.', () => {
    const w = embeddedWorld({ underTest: [{ perMinute: 20, perDay: 400, asked: true }], others: [pro], conformance: 600 });
    expect([w.quotas, w.otherQuotas, w.dailyQuotas, w.otherDailyQuotas]).toEqual([[400], [3300], [400], [600]]);
  });

  test('The day is sized for the daily key’s short quota, not for the run’s key: twice 10 windows for Pro rather than 20.', () => {
    const w = embeddedWorld({ underTest: [pro], conformance: 500 });
    expect([w.quotas, w.dailyQuotas, w.dailyNeedMs, w.dayMs]).toEqual([[3200], [600], [10_000], 20_000]);
    expect(dayNeededMs(300, 3200, 1000)).toBe(20_000);
  });

  test.each([pro, free, business])(
    'The daily scenario, paced as load/lib paces it from as late in a day as it may start, spends the quota of %o with its last 429 told from a window’s.',
    (plan) => {
      const w = embeddedWorld({ underTest: [plan], conformance: 600 });
      const o = scenarioOptions({ plan: 'pro', perMinute: plan.perMinute, perDay: w.dailyQuotas[0], windowMs: w.windowMs, dayMs: w.dayMs });
      const pace = SCENARIOS.daily.pace!(o);
      // Pace from the latest start load/node/key-rest.ts allows (the day leaves the need and the jitter; a fresh day's
      // start plus the jitter is earlier) and the preflight: every slot lies a window plus the tolerance before the day's
      // end, so the 429 that refuses the day asks to wait longer than that.
      const lastSlot = w.dayMs - w.dailyNeedMs[0] + 1 + pace.windows * w.windowMs;
      const refused: Sample = {
        seq: 1,
        phase: 'paced',
        sentAt: lastSlot,
        t: lastSlot,
        status: 429,
        headers: { 'retry-after': String(Math.ceil((w.dayMs - lastSlot) / 1000)) },
      };
      expect(isDailyThrottle(refused, o), `day ${w.dayMs}, last slot ${lastSlot}`).toBe(true);
      expect(w.dayMs % w.windowMs).toBe(0);
    },
  );

  test('Several plans share one server: the largest window, and a day long enough for each plan’s daily scenario.', () => {
    const w = embeddedWorld({ underTest: [free, pro], conformance: 600 });
    expect(w.windowMs).toBe(1000);
    expect(w.dailyNeedMs).toEqual([dayNeededMs(60, 120, 1000), dayNeededMs(300, 600, 1000)]);
    expect(w.dayMs).toBe(DAY_SPANS * Math.max(...w.dailyNeedMs));
  });

  test('A window and a day given are kept, and the quotas fit that day.', () => {
    const w = embeddedWorld({ underTest: [pro], conformance: 600, windowMs: 2000, dayMs: 30_000 });
    expect([w.windowMs, w.dayMs]).toEqual([2000, 30_000]);
    expect(dayNeededMs(300, w.quotas[0], 2000)).toBeLessThanOrEqual(30_000);
    expect(dayNeededMs(300, w.dailyQuotas[0], 2000)).toBeLessThanOrEqual(30_000);
  });
});
