/**
 * A throttle answered with another status than 429 (nginx's limit_req: 503) fails RL-CEILING-429 by name, in the
 * ceiling (and so recovery) and the overload scenario, instead of "limit not reached"; another error is no throttle.
 */
import { describe, expect, it } from 'vitest';
import { firstOtherThrottle, isOtherThrottle } from '../../../../src/core/sections/rate-limit-load/other-throttle.ts';
import type { Sample } from '../../../../load/lib/types.ts';
import { L, T0, W, ceilingRun, find, judgeCeiling, judgeWindow, rl, s } from '../../../support/samples.ts';

const error503 = JSON.stringify({ code: 'unavailable', message: 'later', status: 503 });

describe('isOtherThrottle', () => {
  it.each<[string, number, Record<string, string | number | undefined>, boolean, boolean]>([
    ['a 503 with Retry-After', 503, { ...rl(0), 'retry-after': 30 }, false, true],
    ['a 503 with Remaining 0 and no Retry-After', 503, rl(0), false, true],
    ['a 403 sent once Remaining 0 was known', 403, rl(undefined), true, true],
    ['a 500 mid-window, Remaining 4, no Retry-After', 500, rl(4), false, false],
    ['a 429 (the spec’s status)', 429, { ...rl(0), 'retry-after': 30 }, true, false],
    ['a 200', 200, rl(0), true, false],
  ])('%s', (...[, status, headers, predicted, expected]) => {
    expect(isOtherThrottle(s(0, T0, status, headers), predicted)).toBe(expected);
  });

  it('finds the first error sent once a success said Remaining 0, even without a Retry-After', () => {
    const seq = ceilingRun().slice(0, L);
    seq.push(s(L, T0 + 10 * L, 503, {}));
    expect(firstOtherThrottle(seq)?.seq).toBe(L);
    expect(firstOtherThrottle(seq.slice(0, L - 1).concat(s(L - 1, T0 + 10 * L, 500, {})))).toBeUndefined();
  });
});

describe('RL-CEILING-429 on a throttle of another status', () => {
  const with503 = (): Sample[] =>
    ceilingRun().map((x) => (x.status === 429 ? { ...s(x.seq, x.t, 503, { ...rl(0), 'retry-after': 60 }), body: error503 } : x));

  it('fails the ceiling by name, "throttled with 503, the spec says 429", instead of "limit not reached"', () => {
    const vs = judgeCeiling(with503());
    const j = vs.find((v) => v.requirement === 'RL-CEILING-429');
    expect([j?.outcome, j?.title]).toEqual(['fail', 'Throttled with 503, the spec says 429']);
    expect(j?.message).toMatch(/throttled with 503 .*the spec says 429/);
    expect(j?.evidence?.response?.status).toBe(503);
  });

  it('fails a key refused with 503 on its very first request too', () => {
    const vs = judgeCeiling([s(0, T0, 503, { ...rl(0), 'retry-after': 60 })]);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
  });

  it('still passes a 429 at the limit, and leaves a 500 mid-window unjudged (not a throttle)', () => {
    expect(find(judgeCeiling(ceilingRun()), 'RL-CEILING-429')).toEqual(['pass']);
    const mid = ceilingRun()
      .slice(0, 4)
      .concat(s(4, T0 + 40, 500, rl(5)));
    expect(judgeCeiling(mid).find((v) => v.requirement === 'RL-CEILING-429')?.outcome).toBe('skip');
  });

  it('fails the overload scenario by name, and judges its window by the successes (no "no 429" failure)', () => {
    const seq: Sample[] = [];
    // 3 × L offered in one window: L served, the rest refused with 503 and Retry-After.
    for (let i = 0; i < 3 * L; i++) {
      const t = T0 + i * (W / (3 * L));
      const h = i < L ? rl(L - 1 - i) : { ...rl(0), 'retry-after': 30 };
      seq.push({ ...s(i, t, i < L ? 200 : 503, h), phase: 'paced' });
    }
    const vs = judgeWindow(seq);
    expect(find(vs, 'RL-CEILING-429')).toEqual(['fail']);
    expect(vs.find((v) => v.requirement === 'RL-WINDOW-PER-MINUTE')?.message).not.toMatch(/no 429/);
  });
});
