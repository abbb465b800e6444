/**
 * RL-RECOVERY: after the ceiling's 429, the wait it asked for, then one probe
 * that must succeed. Without a usable Retry-After the requirement cannot be
 * judged ("after waiting Retry-After"): the probe then waits for
 * X-RateLimit-Reset (or one whole window) and what it got is reported, never
 * failed. A probe sent before the announced wait is a defect of the suite. Pure.
 */
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { about, label, startOf } from './samples.ts';
import { bySeq, describeRetryAfter, fmtMs, isSuccess, isThrottled, signals } from './signals.ts';

export const MAX_WAIT_REMEDY = 'let the run wait longer: --max-wait-ms N (or ANIMAL_STORE_MAX_WAIT_MS)';

export function judgeRecovery(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const seq = bySeq(samples);
  // The ceiling's last 429 (a first request refused before an idle window is not the one recovered from).
  const first = seq.filter((s) => s.phase === 'ceiling' && isThrottled(s)).pop();
  if (!first)
    return [
      RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
        outcome: 'skip',
        title: 'no-429',
        message: 'the ceiling phase got no 429, so recovery could not be tried',
      }),
    ];
  const probes = seq.filter((s) => s.phase === 'probe');
  const out = earlyProbes(first, probes);
  const ra = signals(first).retryAfter;
  const usable = signals(first).waitMs !== undefined;
  if (!probes.length)
    return out.concat(
      RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
        outcome: 'skip',
        title: 'not-tried',
        message: `no probe was sent after ${label(first)}'s 429 (${describeRetryAfter(ra)}): ${stopped || 'stopped'}`,
        remedy: usable ? MAX_WAIT_REMEDY : undefined,
      }),
    );
  return out.concat(usable ? afterRetryAfter(first, probes[0], o, startOf(samples)) : withoutRetryAfter(first, probes));
}

/** The suite's own promise: no request on the key before the announced wait elapsed (else a suite error). */
function earlyProbes(first: Sample, probes: readonly Sample[]): Judgement[] {
  const out: Judgement[] = [];
  let last429: Sample = first;
  for (const p of probes) {
    const wait = signals(last429).waitMs;
    if (wait !== undefined && p.sentAt < last429.t + wait)
      out.push(
        RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
          outcome: 'error',
          title: 'early-probe',
          message: `${label(p)} was sent ${fmtMs(last429.t + wait - p.sentAt)} before Retry-After elapsed`,
        }),
      );
    if (isThrottled(p)) last429 = p;
  }
  return out;
}

/** The probe sent once the 429's whole Retry-After had passed must be served. */
function afterRetryAfter(first: Sample, p: Sample, o: JudgeOptions, startedAt?: number): Judgement {
  const ra = describeRetryAfter(signals(first).retryAfter);
  const waited = fmtMs(p.sentAt - first.t);
  if (isSuccess(p))
    return RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
      ok: true,
      message: `waited ${waited} after the 429 (${ra}); the probe was answered ${p.status}`,
    });
  const message = `waited ${waited} after the 429 (${ra}) and the probe was still answered ${p.status}: the wait announced was too short`;
  return about(RATE_LIMIT_LOAD.judge('RL-RECOVERY', { ok: false, message }), p, o, startedAt);
}

/** Without a usable Retry-After, "after waiting Retry-After" cannot be judged: what the probes got is reported. */
function withoutRetryAfter(first: Sample, probes: readonly Sample[]): Judgement {
  const back = probes.find(isSuccess);
  const waited = fmtMs(probes[0].sentAt - first.t);
  return RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
    outcome: 'skip',
    title: 'no-retry-after',
    message:
      `the 429 had ${describeRetryAfter(signals(first).retryAfter)} (RL-429-RETRY-AFTER judges it), so recovery "after waiting Retry-After" cannot be judged; ` +
      (back
        ? `the key was served again ${fmtMs(back.sentAt - first.t)} after the 429, once X-RateLimit-Reset (or a whole window) had passed`
        : `${probes.length} probe(s), the first ${waited} after the 429 at X-RateLimit-Reset (or after a whole window), were refused`),
  });
}

/** A request retried after waiting out a 429's whole Retry-After, as RL-RECOVERY reads it. */
export interface RetriedAfterWait {
  operation: string;
  status: number;
  /** The retry's X-RateLimit-Remaining said 0. */
  spent: boolean;
  /** Sent with the run's key (or the key spelled another way), not without one or with another. */
  runsKey: boolean;
  waited: { retryAfter: string; waitedMs: number };
}

/**
 * RL-RECOVERY on any phase's retry: served after the wait its 429 asked for. Without the run's key the limit is the
 * client address's, shared with whoever else is behind it: a 429 that says the limit is spent (Remaining 0) is not the
 * run's to judge; one that says requests remain is no rate limit at all.
 */
export function judgeRetriedAfterWait(r: RetriedAfterWait): Judgement {
  const { operation, waited } = r;
  if (r.status === 429 && r.spent && !r.runsKey)
    return RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
      outcome: 'skip',
      title: 'limit-shared-by-address',
      message: `${operation} without the run's key was answered 429 again after Retry-After (${waited.retryAfter}): a limit per client address counts every client behind it, so the wait announced need not free it for this one`,
    });
  const served = r.status !== 429;
  return RATE_LIMIT_LOAD.judge('RL-RECOVERY', {
    ok: served,
    pass: 'served-after-retry-after',
    fail: 'still-429-after-retry-after',
    message: served
      ? `${operation} answered ${r.status} after waiting ${waited.waitedMs} ms (Retry-After: ${waited.retryAfter})`
      : `${operation} was answered 429 again after the suite waited ${waited.waitedMs} ms, the whole Retry-After (${waited.retryAfter}) of the previous 429`,
    evidence: served ? undefined : { expected: 'a response other than 429', actual: '429' },
  });
}
