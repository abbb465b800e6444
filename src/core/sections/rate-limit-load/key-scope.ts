/**
 * The limiter's scope under load: the ceiling's way to the limit interleaves the operations (load/lib/operations.ts),
 * so the rule the header checks apply to their interleaved burst — X-RateLimit-Remaining falls across operations as
 * within one (../rate-limit-headers/scope.ts) — is applied to the ceiling's successes too, one check for one concern.
 * Only steps between requests sent one after the other count (a request sent while the one before it was still out
 * may have been counted first). Pure (bundled for k6).
 */
import type { Judgement } from '../define.ts';
import type { Sample } from '../../sample.ts';
import { judgeKeyScope, pairs, type ScopedStep } from '../rate-limit-headers/scope.ts';
import { bySeq, isSuccess, signals } from './signals.ts';

/** The ceiling's successes as the scope rule reads them: operation, Remaining, Reset, and whether each overlapped the one before. */
export function scopedSteps(seq: readonly Sample[]): ScopedStep[] {
  const ok = bySeq(seq.filter((s) => isSuccess(s) && signals(s).remaining !== undefined));
  return ok.map((s, i) => {
    const sig = signals(s);
    const step: ScopedStep = { operation: s.op ?? 'listPets', remaining: sig.remaining as number };
    if (sig.reset !== undefined) step.reset = sig.reset;
    if (i > 0 && s.sentAt < ok[i - 1].t) step.overlaps = true;
    return step;
  });
}

/**
 * Under load a limiter that refills (a token bucket, a sliding log) leaves many steps flat, within an operation and
 * across: the rule's majorities alone could read a refill in step with the operations as two counts. Counted per
 * operation, Remaining also *rises* where the operation changes — to another bucket's count, the further from this
 * one the more one operation was sent than the other — by more than it rises anywhere within one operation: at least
 * twice, by two more than any step within an operation rose (a refill rises the same within an operation as across).
 */
export function risesApart(steps: readonly ScopedStep[]): boolean {
  const ps = pairs(steps);
  const within = Math.max(0, ...ps.filter((p) => !p.cross).map((p) => -p.drop));
  return ps.filter((p) => p.cross && -p.drop >= within + 2).length >= 2;
}

/**
 * RL-REMAINING-DECREMENTS failed by a limiter counted per operation, when the ceiling's successes show it; undefined
 * otherwise (one operation only, too few steps, or counted per key: the decrement verdict stands).
 */
export function perOperation(seq: readonly Sample[]): Judgement | undefined {
  const steps = scopedSteps(seq);
  if (!steps.some((s) => s.operation !== steps[0].operation)) return undefined;
  const j = judgeKeyScope(steps);
  return j.outcome === 'fail' && risesApart(steps) ? j : undefined;
}
