/**
 * How long the key rests before the daily scenario on the embedded server (load/node/key-rest.ts): on its own daily key,
 * unused, it starts at once when the current quota day still leaves what it needs of one (src/target/world.ts
 * dayNeededMs), else it waits for the next day — as a used key, a second attempt and a lane's key always do. And the
 * orchestrator runs it at the first step its day is open (dailyBroughtForward), so it need not wait at all.
 */
import { describe, expect, test } from 'vitest';
import type { LoadJob } from '../../load/node/engine.ts';
import { dailyBroughtForward, restBefore } from '../../load/node/key-rest.ts';
import { job } from './helpers.ts';

const DAY = 20_000;
const NEED = 10_000;
const nextDayAt = (now: number) => Math.ceil(now / DAY) * DAY;
/** The daily scenario on its own key, in a 1 s window and a 20 s day; 50 ms of jitter (5% of the window, at least 50). */
const daily = (over: Partial<LoadJob> = {}): LoadJob =>
  job('daily', { windowMs: 1000, dayMs: DAY, nextDayAt, ownKey: true, dayNeededMs: NEED, ...over });
const dayStart = 1_700_000_000_000;

describe('the daily scenario on its own key', () => {
  test('Unused, early in a day that leaves more than it needs, it starts at once.', () => {
    expect(restBefore(daily(), {}, dayStart + 4_000).ms).toBe(0);
  });

  test('Unused, with exactly what it needs and the jitter left of the day, it starts at once.', () => {
    expect(restBefore(daily(), {}, dayStart + DAY - NEED - 50).ms).toBe(0);
  });

  test('Unused, late in a day that leaves less than it needs, it waits for the next day (and the jitter).', () => {
    const r = restBefore(daily(), {}, dayStart + DAY - NEED + 1);
    expect(r.ms).toBe(NEED - 1 + 50);
    expect(r.why).toBe('a fresh quota day (the scenario spends a whole one)');
  });

  test('Once used (a response or a 429 came on it), it waits for a fresh day whatever is left of this one.', () => {
    expect(restBefore(daily(), { lastResponseAt: dayStart + 1_000 }, dayStart + 2_000).ms).toBe(DAY - 2_000 + 50);
    expect(restBefore(daily(), { blockedUntil: dayStart + 1_000 }, dayStart + 2_000).ms).toBe(DAY - 2_000 + 50);
  });

  test('A second attempt, or the daily scenario on the lane’s key or without a need known, waits for a fresh day.', () => {
    for (const over of [{ freshDay: true }, { ownKey: false }, { dayNeededMs: undefined }])
      expect(restBefore(daily(over), {}, dayStart + 4_000).ms, JSON.stringify(over)).toBe(DAY - 4_000 + 50);
  });
});

describe('the daily scenario brought forward', () => {
  const lane = () => ['ceiling', 'recovery', 'sustained', 'overload'].map((s) => job(s as LoadJob['scenario'])).concat(daily());
  const order = (jobs: readonly LoadJob[] | undefined) => jobs?.map((j) => j.scenario);
  const unused = () => ({});

  test('When its day is open at a step, it runs at that step and the others keep their order after it.', () => {
    expect(order(dailyBroughtForward(lane(), 2, unused, dayStart + 1_000))).toEqual([
      'ceiling',
      'recovery',
      'daily',
      'sustained',
      'overload',
    ]);
    expect(order(dailyBroughtForward(lane(), 0, unused, dayStart + 1_000))).toEqual([
      'daily',
      'ceiling',
      'recovery',
      'sustained',
      'overload',
    ]);
  });

  test('When its day is closed (less left than it needs), or its key was used, the order stays.', () => {
    expect(dailyBroughtForward(lane(), 2, unused, dayStart + DAY - 5_000)).toBeUndefined();
    expect(dailyBroughtForward(lane(), 2, () => ({ lastResponseAt: dayStart }), dayStart + 1_000)).toBeUndefined();
  });

  test('It never comes between a ceiling and the recovery that reads its POST back, nor moves when it is next or absent.', () => {
    expect(dailyBroughtForward(lane(), 1, unused, dayStart + 1_000)).toBeUndefined();
    expect(dailyBroughtForward(lane(), 4, unused, dayStart + 1_000)).toBeUndefined();
    expect(dailyBroughtForward(lane().slice(0, 4), 2, unused, dayStart + 1_000)).toBeUndefined();
  });
});
