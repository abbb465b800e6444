/**
 * The core's ceiling judgements of slow servers, on hand-made samples: requests
 * in flight together, counted and answered out of order, are no failure; a
 * ceiling not reached because the run held too few requests in flight for the
 * latency is said in one line (Little's law); headers counting the day, or no
 * Remaining, are failed only for more than twice the limit within one window's
 * span (where a window began cannot be told); and a
 * Retry-After written a slow round trip before its response arrived (no Date)
 * is not taken for one beyond Reset.
 */
import { describe, expect, it } from 'vitest';
import { concurrencyOf, neededInFlight } from '../../src/core/sections/rate-limit-load/in-flight.ts';
import type { Sample } from '../../load/lib/types.ts';
import { W, L, T0, judgeCeiling, s, rl, errorBody, find } from '../support/samples.ts';

const problems = (seq: Sample[]) => judgeCeiling(seq).filter((v) => v.outcome === 'fail' || v.outcome === 'warn');
/** A success sent at `sentAt`, answered at `t`. */
const at = (seq: number, sentAt: number, t: number, h: Record<string, string | number | undefined>): Sample => ({
  ...s(seq, t, 200, h),
  sentAt,
});

describe('requests in flight together', () => {
  it('passes a window counted in another order than sent and answered in yet another', () => {
    // One alone, then the other nine at once, counted in the order 9 5 1 7 3 8 4 2 6 and answered in reverse.
    const seq = [at(0, T0, T0 + 1500, rl(L - 1))];
    const counted = [9, 5, 1, 7, 3, 8, 4, 2, 6];
    counted.forEach((n, i) => seq.push(at(n, T0 + 1500, T0 + 4000 - 100 * i, rl(L - 2 - i))));
    seq.push({ ...s(L, T0 + 5500, 429, { ...rl(0), 'retry-after': 55 }), body: errorBody, sentAt: T0 + 4000 });
    expect(problems(seq)).toEqual([]);
    expect(find(judgeCeiling(seq), 'RL-CEILING-429')).toEqual(['pass']);
  });

  it('measures the latency and the requests held in flight: on average (Little’s law) and at most', () => {
    const seq = [at(0, T0, T0 + 1000, rl(9)), at(1, T0 + 1000, T0 + 3000, rl(8)), at(2, T0 + 1000, T0 + 3000, rl(7))];
    expect(concurrencyOf(seq)).toEqual({ answered: 3, meanLatencyMs: 5000 / 3, heldAvg: 5000 / 3000, heldMax: 2, spanMs: 3000 });
    expect(neededInFlight({ limit: 1000, windowMs: W }, 1500)).toBe(25);
    expect(neededInFlight({ limit: 60, windowMs: W }, 20)).toBe(1);
  });
});

describe('a ceiling not reached', () => {
  /** One request at a time, each taking 15 s, over `n` requests: windows roll over before the limit of 10 is used. */
  const slow = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const sentAt = T0 + 15_000 * i;
      const window = Math.floor(sentAt / W);
      return at(i, sentAt, sentAt + 15_000, rl(L - 1 - (i % 4), (window + 1) * (W / 1000)));
    });

  it('says in one line the latency measured and the requests in flight the limit needs, when a whole window passed', () => {
    const v = judgeCeiling(slow(9)).find((x) => x.requirement === 'RL-CEILING-429')!;
    expect(v).toMatchObject({ outcome: 'skip', title: 'Limit not reached at this latency' });
    expect(v.message).toBe(
      "responses took 15 s on average (9 of them): reaching 10 in one 60 s window needs 3 in flight (Little's law); this run held 1.0 on average, 1 at most",
    );
    expect(v.remedy).toBe('responses within 6 s on average (at the 1 in flight this run held at most)');
  });

  it('says only "not reached" for a run stopped before a whole window passed', () => {
    expect(judgeCeiling(slow(3)).find((x) => x.requirement === 'RL-CEILING-429')).toMatchObject({
      outcome: 'skip',
      title: 'Ceiling not reached',
    });
  });
});

describe('headers counting the day', () => {
  const day = Math.ceil((T0 + 86_400_000) / 1000);
  const successes = (n: number, every: number, latency = 5) =>
    Array.from({ length: n }, (_, i) => at(i, T0 + every * i, T0 + every * i + latency, rl(45 - i, day, 50)));

  it('fails more than twice the limit served within one window’s span', () => {
    expect(find(judgeCeiling(successes(2 * L + 1, 100)), 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('does not fail a slow server that never reached the limit: one at a time, it is told the latency and what it needs', () => {
    const v = judgeCeiling(successes(12, 15_000, 15_000)).find((x) => x.requirement === 'RL-CEILING-429')!;
    expect(v).toMatchObject({ outcome: 'skip', title: 'Limit not reached at this latency' });
    expect(v.message).toMatch(/held 1\.0 on average, 1 at most \(one at a time: Remaining counts the day\)$/);
  });
});

describe('no X-RateLimit-Remaining', () => {
  const bare = (n: number, every: number, latency: number) =>
    Array.from({ length: n }, (_, i) => at(i, T0 + every * i, T0 + every * i + latency, {}));

  it('does not fail a slow server never throttled: one at a time, windows cannot be told apart', () => {
    const v = judgeCeiling(bare(3 * L, 15_000, 15_000)).find((x) => x.requirement === 'RL-CEILING-429')!;
    expect(v).toMatchObject({ outcome: 'skip', title: 'Limit not reached at this latency' });
    expect(v.message).toMatch(/\(one at a time: no X-RateLimit-Remaining\)$/);
  });

  it('fails more than twice the limit served within one window’s span', () => {
    expect(find(judgeCeiling(bare(2 * L + 1, 100, 5)), 'RL-CEILING-429')).toEqual(['fail']);
  });
});

describe('Retry-After against Reset on a slow response', () => {
  /** A 429 answered `rttMs` after it was sent, its Retry-After 3 s beyond the Reset counted from its arrival. */
  const refused = (date: boolean, rttMs: number) => {
    const t = T0 + 10_000;
    const reset = Math.ceil((T0 + W) / 1000);
    const x = {
      ...s(L, t, 429, { ...rl(0, reset), 'retry-after': Math.round(reset - t / 1000 + 3) }),
      body: errorBody,
      sentAt: t - rttMs,
    };
    if (!date) delete x.headers.date;
    return x;
  };
  const consistency = (x: Sample) =>
    find(judgeCeiling(Array.from({ length: L }, (_, i) => s(i, T0 + 10 * i, 200, rl(L - 1 - i))).concat(x)), 'RL-RETRY-AFTER-CONSISTENT');

  it('is not beyond Reset when, without a Date, the server may have written it at any moment of a 2.5 s round trip', () => {
    expect(consistency(refused(false, 2500))).toEqual(['pass']);
  });

  it('is not beyond Reset when the Date was stamped as the response left, up to a 2.5 s round trip after the limiter decided', () => {
    expect(consistency(refused(true, 2500))).toEqual(['pass']);
  });

  it('is beyond Reset when the round trip was short, with or without a Date', () => {
    expect(consistency(refused(true, 5))).toEqual(['warn']);
    expect(consistency(refused(false, 5))).toEqual(['warn']);
  });
});
