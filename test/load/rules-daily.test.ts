/**
 * RL-DAILY-QUOTA on hand-made sample sequences: a refusal for the day after S
 * successes is consistent with the quota Q when Q − E − T ≤ S ≤ Q + T, E being
 * the run's earlier requests on the key (0 when the scenario started on a known
 * fresh quota day) and T the requests in flight with the refused one. Above is a
 * failure; below is a failure on a known fresh day, else a warning that asks
 * whether the key was used earlier that day.
 */
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../load/lib/types.ts';
import { errorBody, judgeDaily, o, rl, s, T0 } from '../support/samples.ts';

const Q = 50; // the per-day quota of `o`

/** `n` sequential successes 7 s apart, then a refusal for the day (Retry-After beyond a window); `inFlight` more sent with it. */
function day(n: number, inFlight = 0): Sample[] {
  const seq = [...Array(n).keys()].map((i) => ({ ...s(i, T0 + i * 7000, 200, rl(0)), phase: 'paced' as const }));
  const at = T0 + n * 7000;
  const refused = { ...s(n, at, 429, { ...rl(0), 'retry-after': 80000 }), phase: 'paced' as const, body: errorBody, sentAt: at - 50 };
  const others = [...Array(inFlight).keys()].map((i) => ({
    ...s(n + 1 + i, at + 1, 429, { ...rl(0), 'retry-after': 80000 }),
    phase: 'paced' as const,
    body: errorBody,
    sentAt: at - 40,
  }));
  return [...seq, refused, ...others];
}

const quota = (samples: Sample[], over: Partial<typeof o> = {}) => {
  const j = judgeDaily(samples, { ...o, ...over }).find((v) => v.requirement === 'RL-DAILY-QUOTA')!;
  return [j.outcome, j.title];
};

describe('the daily quota judged with what the run knows of the key', () => {
  it.for<[string, number, Partial<typeof o>, string, string]>([
    ['exactly the quota, nothing sent before', Q, {}, 'pass', 'Daily quota enforced'],
    ['one more than the quota', Q + 1, {}, 'fail', 'Daily quota exceeded'],
    ['one more than the quota, even with earlier requests', Q + 1, { earlierRequests: 30 }, 'fail', 'Daily quota exceeded'],
    ['10 fewer, the key unused before by this run', Q - 10, {}, 'warn', 'Daily quota hit early'],
    [
      '10 fewer, after 10 earlier requests on the key',
      Q - 10,
      { earlierRequests: 10 },
      'pass',
      "Daily quota enforced, counting this run's earlier requests",
    ],
    [
      '10 fewer, after 30 earlier requests on the key',
      Q - 10,
      { earlierRequests: 30 },
      'pass',
      "Daily quota enforced, counting this run's earlier requests",
    ],
    ['30 fewer, after only 10 earlier requests', Q - 30, { earlierRequests: 10 }, 'warn', 'Daily quota hit early'],
    [
      '10 fewer on a known fresh day (the earlier requests fell in an earlier day)',
      Q - 10,
      { earlierRequests: 30, freshQuotaDay: true },
      'fail',
      'Daily quota below the plan’s',
    ],
    ['exactly the quota on a known fresh day', Q, { earlierRequests: 30, freshQuotaDay: true }, 'pass', 'Daily quota enforced'],
  ])('%s: %i successes → %s.', ([, n, over, outcome, title]) => {
    expect(quota(day(n), over)).toEqual([outcome, title]);
  });

  it('Requests in flight with the refused one widen the range by their number, both ways: the order the server counted them in cannot be seen.', () => {
    expect(quota(day(Q + 2, 2))).toEqual(['pass', 'Daily quota enforced']);
    expect(quota(day(Q + 3, 2))).toEqual(['fail', 'Daily quota exceeded']);
    expect(quota(day(Q - 2, 2))).toEqual(['pass', 'Daily quota enforced']);
    expect(quota(day(Q - 3, 2))).toEqual(['warn', 'Daily quota hit early']);
  });

  it("The evidence says the range and the message names the run's earlier requests, and keeps the question for what they cannot explain.", () => {
    const consistent = judgeDaily(day(Q - 10), { ...o, earlierRequests: 30 }).find((v) => v.requirement === 'RL-DAILY-QUOTA')!;
    expect(consistent.evidence).toEqual({ expected: 'between 20 and 50 successes before the first refusal for the day', actual: '40' });
    expect(consistent.message).toMatch(
      /after 40 successes \(quota 50;.*this run sent up to 30 requests on the key before the daily scenario/,
    );
    const unexplained = judgeDaily(day(Q - 30), { ...o, earlierRequests: 10 }).find((v) => v.requirement === 'RL-DAILY-QUOTA')!;
    expect(unexplained.message).toMatch(/even counting this run's earlier requests — was the key used earlier today\?/);
    const fresh = judgeDaily(day(Q - 10), { ...o, earlierRequests: 30, freshQuotaDay: true }).find(
      (v) => v.requirement === 'RL-DAILY-QUOTA',
    )!;
    expect(fresh.message).toMatch(/started on a fresh quota day, after this run's 30 earlier requests on the key.*10 fewer than the quota/);
    expect(fresh.evidence?.expected).toBe('50 successes before the first refusal for the day');
  });
});
