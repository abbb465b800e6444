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
  return { ...s(0, at, 429, headers), body: errorBody, sentAt: decided - 10 };
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

  it('passes a Reset at the 429’s own second however long Retry-After asks to wait — the window may end within that second — and warns that Retry-After contradicts it', () => {
    for (const took of [0, 1500]) {
      const now = Math.floor((decided + took) / SECOND);
      const x = slow429(decided, took, { ...rl(0, now), 'retry-after': 30 });
      expect(verdicts(x, 'RL-RESET-UNIX-SECONDS'), `${took} ms`).toEqual(['pass']);
      expect(verdicts(x, 'RL-RETRY-AFTER-CONSISTENT'), `${took} ms`).toEqual(['warn']);
    }
  });

  it('fails a 429 whose Reset had passed a whole second before its limiter decided, whether the exchange took 0 or 1.5 s', () => {
    const stale = { ...rl(0, Math.floor(decided / SECOND) - 2), 'retry-after': 1 };
    for (const took of [0, 1500]) expect(verdicts(slow429(decided, took, stale), 'RL-RESET-UNIX-SECONDS'), `${took} ms`).toEqual(['fail']);
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

describe('RL-RESET-UNIX-SECONDS with a stale Date', () => {
  // A short quota day (a test server's): a Reset more than a day after the response's time is too far.
  const shortDay = { ...o, dayMs: 60_000 };
  it('passes a Reset that holds against the time the response arrived when its Date is a minute and more off (a Date reused per connection)', () => {
    const arrived = T0 + 120_000;
    const x = { ...s(0, arrived, 200, { ...rl(59, Math.floor(arrived / SECOND) + 55) }), sentAt: arrived - 10 };
    x.headers.date = new Date(T0).toUTCString();
    expect(find(judgeCeiling([x], shortDay), 'RL-RESET-UNIX-SECONDS')).toEqual(['pass']);
  });

  it('still fails a Reset in milliseconds whatever the Date', () => {
    const arrived = T0 + 120_000;
    const x = { ...s(0, arrived, 200, { ...rl(59, arrived + 55_000) }), sentAt: arrived - 10 };
    x.headers.date = new Date(T0).toUTCString();
    expect(verdicts(x, 'RL-RESET-UNIX-SECONDS')).toEqual(['fail']);
  });
});
