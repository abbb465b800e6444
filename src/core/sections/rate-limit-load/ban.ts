/**
 * RL-BAN-EARNED: a ban the client never earned. The spec lets a server ban a key "that keeps sending requests after a
 * 429"; the suite knows whether it did. On the first 429 of a run's key, in a window whose limit was exactly reached
 * (a success said Remaining 0 before it, no other client's requests counted), a Retry-After beyond a window while
 * X-RateLimit-Reset announces a moment sooner is a ban nothing earned: a failure. Wherever a ban could have been
 * earned (an earlier 429 on the key, a bundle run alone, another client on the key, a key refused at once), it is not
 * judged here and RL-RETRY-AFTER-CONSISTENT warns. Pure.
 */
import type { Judgement } from '../../sections/define.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import { sampleEvidence } from './samples.ts';
import { fmtMs, resetInMs, signals } from './signals.ts';

/** What the ceiling phase knows of the first 429: could the client have earned a ban by then, and why. */
export interface BanContext {
  /** Nothing was sent after a 429 on the key before this one, and the window's limit was exactly reached. */
  unearned: boolean;
  /** Why a ban may have been earned (when `unearned` is false). */
  why?: string;
}

/** Does this 429 ask for a ban: a wait beyond a window, while X-RateLimit-Reset announces a moment sooner? */
export function asksForBan(s: Sample, o: Pick<JudgeOptions, 'windowMs' | 'toleranceMs'>): boolean {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  return wait !== undefined && reset !== undefined && wait > o.windowMs + o.toleranceMs && wait - reset > o.toleranceMs;
}

export function judgeBan(s: Sample, o: JudgeOptions, ctx: BanContext, startedAt?: number): Judgement {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  const at = `request #${s.seq + 1}`;
  if (wait === undefined || reset === undefined)
    return RATE_LIMIT_LOAD.judge('RL-BAN-EARNED', {
      outcome: 'skip',
      title: 'incomparable',
      message: `${at}: ${wait === undefined ? 'no usable Retry-After' : 'no X-RateLimit-Reset'}`,
    });
  const both = `Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date`;
  if (!asksForBan(s, o))
    return RATE_LIMIT_LOAD.judge('RL-BAN-EARNED', { ok: true, message: `${at}, the key's first 429: ${both}, no ban` });
  if (!ctx.unearned)
    return RATE_LIMIT_LOAD.judge('RL-BAN-EARNED', {
      outcome: 'skip',
      title: 'earnable',
      message: `${at}: ${both}; a ban may have been earned (${ctx.why || 'the key may have been sent on after a 429'})`,
    });
  return RATE_LIMIT_LOAD.judge('RL-BAN-EARNED', {
    ok: false,
    message: `${at}, the key's first 429 in this run (nothing had been sent after a 429), came right after Remaining 0 said the window's limit was reached: ${both}. The two headers disagree, and the spec's ban is for "a client that keeps sending requests after a 429"`,
    evidence: {
      ...sampleEvidence(s, o, startedAt),
      expected: `a wait until X-RateLimit-Reset (${fmtMs(reset)})`,
      actual: `Retry-After ${fmtMs(wait)}`,
    },
  });
}
