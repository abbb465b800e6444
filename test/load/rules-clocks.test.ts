/**
 * Every rule that compares the server's clocks (Date, X-RateLimit-Reset, Retry-After) with one another allows for the
 * time the exchange took, as measured on that exchange: a server stamps Date when the response leaves, its limiter
 * decided up to a round trip earlier. Slow but correct servers pass; a Reset that is not the reset still fails.
 */
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../load/lib/types.ts';
import { T0, errorBody, find, judgeCeiling, o, rl, s } from '../support/samples.ts';

const SECOND = 1000;
/** A 429 the limiter decided at `decided`, stamped (Date) and received `tookMs` later, sent 10 ms before the decision. */
function slow429(decided: number, tookMs: number, headers: Record<string, string | number | undefined>): Sample {
  const at = decided + tookMs;
  return { ...s(0, at, 429, headers, 'ceiling', errorBody), sentAt: decided - 10 };
}
const verdicts = (x: Sample, requirement: string) => find(judgeCeiling([x], o), requirement);

describe('RL-RESET-UNIX-SECONDS on a slow exchange', () => {
  // The window ends 0.9 s after the decision: Retry-After 1 (rounded up), Reset rounded down to that second.
  const decided = T0 + 200;
  const ends = decided + 900;
  const headers = { ...rl(0, Math.floor(ends / SECOND)), 'retry-after': 1 };

  it('passes a 429 whose Reset is before its own Date only because the response took 1.5 s to arrive', () => {
    expect(verdicts(slow429(decided, 1500, headers), 'RL-RESET-UNIX-SECONDS')).toEqual(['pass']);
  });

  it('passes the same 429 answered at once: a Reset rounded down is within the second of the reset', () => {
    expect(verdicts(slow429(decided, 0, headers), 'RL-RESET-UNIX-SECONDS')).toEqual(['pass']);
  });

  it('still fails a 429 whose Reset is its own Date while Retry-After asks to wait 30 s, however long the exchange took', () => {
    for (const took of [0, 1500]) {
      const now = Math.floor((decided + took) / SECOND);
      expect(verdicts(slow429(decided, took, { ...rl(0, now), 'retry-after': 30 }), 'RL-RESET-UNIX-SECONDS'), `${took} ms`).toEqual([
        'fail',
      ]);
    }
  });

  it('allows a Reset as far before Date as the exchange took, and no further', () => {
    const past = { ...rl(0, Math.floor(decided / SECOND) - 1), 'retry-after': 1 };
    expect(verdicts(slow429(decided, 4500, past), 'RL-RESET-UNIX-SECONDS')).toEqual(['pass']);
    const older = { ...rl(0, Math.floor(decided / SECOND) - 8), 'retry-after': 1 };
    expect(verdicts(slow429(decided, 4500, older), 'RL-RESET-UNIX-SECONDS')).toEqual(['fail']);
  });
});

describe('RL-RETRY-AFTER-CONSISTENT on a slow exchange', () => {
  const decided = T0 + 100;
  const resets = Math.ceil((decided + 5 * SECOND) / SECOND);

  it('passes Retry-After in seconds that reads longer than Reset only by the 4.5 s the response took to arrive', () => {
    const x = slow429(decided, 4500, { ...rl(0, resets), 'retry-after': 5 });
    expect(verdicts(x, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['pass']);
  });

  it('still warns about a Retry-After well beyond Reset', () => {
    const x = slow429(decided, 4500, { ...rl(0, resets), 'retry-after': 20 });
    expect(verdicts(x, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(['warn']);
  });
});
