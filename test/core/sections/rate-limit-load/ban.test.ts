/**
 * RL-BAN-EARNED: the key's first 429 in a run, right after Remaining 0 said the window was used up, asking an hour
 * (Retry-After 3600) while X-RateLimit-Reset is 13 s away, is a ban nothing earned: a failure. Wherever a ban could
 * have been earned, it is not judged, and RL-RETRY-AFTER-CONSISTENT warns that the two headers disagree.
 */
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../../load/lib/types.ts';
import { L, T0, ceilingRun, errorBody, find, judgeCeiling, o, rl, s } from '../../../support/samples.ts';

/** A fresh window used up (Remaining 0), then the 429 at T0 + 10 L with Reset 13 s away and `retryAfter`. */
function firstBan(retryAfter: number, remainings = Array.from({ length: L }, (_, i) => L - 1 - i)): Sample[] {
  const at = T0 + 10 * L;
  const reset = Math.ceil(at / 1000) + 13;
  const seq = remainings.map((r, i) => s(i, T0 + 10 * i, 200, rl(r, reset)));
  seq.push({ ...s(remainings.length, at, 429, { ...rl(0, reset), 'retry-after': retryAfter }), body: errorBody });
  return seq;
}
const fresh = { ...o, noEarlier429: true };

describe('RL-BAN-EARNED and RL-RETRY-AFTER-CONSISTENT on a ban-sized Retry-After', () => {
  it.each<[string, Sample[], typeof o, string[], string[]]>([
    ['a ban on the first 429 of a run, nothing sent after a 429', firstBan(3600), fresh, ['fail'], ['warn']],
    ['the same where the key got a 429 earlier in the run', firstBan(3600), o, ['skip'], ['warn']],
    ['the same where another client was counted in the window', firstBan(3600, [9, 8, 6, 5, 4, 2, 0]), fresh, ['skip'], ['warn']],
    ['a Retry-After that agrees with Reset', firstBan(13), fresh, ['pass'], ['pass']],
    ['the ordinary fresh window of the reference server', ceilingRun(), fresh, ['pass'], ['pass']],
  ])('%s', (...[, seq, opts, ban, consistent]) => {
    const vs = judgeCeiling(seq, opts);
    expect(find(vs, 'RL-BAN-EARNED')).toEqual(ban);
    expect(find(vs, 'RL-RETRY-AFTER-CONSISTENT')).toEqual(consistent);
  });

  it('says why it fails: the headers disagree on the first 429, and the spec bans only a client that kept sending', () => {
    const j = judgeCeiling(firstBan(3600), fresh).find((v) => v.requirement === 'RL-BAN-EARNED')!;
    expect(j.title).toBe('Banned on the first 429');
    expect(j.message).toMatch(/first 429 .*Retry-After asks to wait 3600 s, X-RateLimit-Reset is 1\d(\.\d)? s/);
    expect(j.evidence?.response?.status).toBe(429);
  });

  it('is not judged without a 429 (the ceiling was not reached)', () => {
    const vs = judgeCeiling(ceilingRun().slice(0, 5), fresh);
    expect(vs.find((v) => v.requirement === 'RL-BAN-EARNED')?.title).toBe('No 429 to judge');
  });
});
