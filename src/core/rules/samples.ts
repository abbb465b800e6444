/**
 * The per-response rules applied to the samples of a load scenario (the same
 * rules the conformance checks apply to every exchange), the transport rule,
 * the Retry-After / Reset consistency, and the evidence of a sample. Pure.
 */
import { foldJudgements, judge, skip, type Evidence, type Judgement } from '../judgement.ts';
import { planLimits } from '../plans.ts';
import type { JudgeOptions, Sample } from '../sample.ts';
import { responseRules, type ResponseFacts, type RuleContext } from './response.ts';
import { fmtMs, resetInMs, signals } from './signals.ts';

export const label = (s: Sample): string => `request #${s.seq + 1}`;

/** The request and response of a sample, for a judgement's evidence (redacted when the report is built). */
export function sampleEvidence(s: Sample, o: Pick<JudgeOptions, 'requestUrl'>, startedAt?: number): Evidence {
  const headers: Record<string, string> = {};
  for (const k of Object.keys(s.headers)) {
    const v = s.headers[k];
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  const ev: Evidence = {
    request: {
      method: 'GET',
      url: o.requestUrl,
      headers: { authorization: 'Bearer [REDACTED]', accept: 'application/json' },
      credential: 'key',
    },
  };
  if (s.status !== 0) ev.response = { status: s.status, headers, body: s.body, bodyTruncated: false };
  if (s.error) ev.error = s.error;
  ev.at = { request: s.seq + 1, ms: startedAt !== undefined ? Math.max(0, s.t - startedAt) : 0 };
  return ev;
}

/** A judgement with the sample as its evidence. */
export function about(j: Judgement, s: Sample, o: JudgeOptions, startedAt?: number): Judgement {
  return j.evidence ? j : { ...j, evidence: sampleEvidence(s, o, startedAt) };
}

export function ruleContext(o: JudgeOptions): RuleContext {
  return { limits: planLimits(o.plan, { perMinute: o.limit, perDay: o.perDay }), dayMs: o.dayMs };
}

export function facts(s: Sample): ResponseFacts {
  return { status: s.status, headers: s.headers, body: s.body, t: s.t, withKey: true, label: label(s) };
}

/** Every per-response rule on every answered sample, folded to one judgement per requirement (evidence on failures). */
export function judgeResponses(samples: readonly Sample[], o: JudgeOptions): Judgement[] {
  const ctx = ruleContext(o);
  const start = samples.reduce((m, s) => Math.min(m, s.sentAt), Infinity);
  const all: Judgement[] = [];
  for (const s of samples) {
    if (s.status === 0) continue;
    for (const j of responseRules(facts(s), ctx)) all.push(j.outcome === 'fail' || j.outcome === 'warn' ? about(j, s, o, start) : j);
  }
  return foldJudgements(all);
}

/** Transport failures (no response within the timeout, reset, refused…). */
export function judgeTransport(samples: readonly Sample[], o?: JudgeOptions): Judgement[] {
  const bad = samples.filter((s) => s.status === 0);
  if (!bad.length) return [];
  const j = judge(
    'TRANSPORT-COMPLETE-RESPONSE',
    false,
    'Requests without a complete response',
    `${bad.length} of ${samples.length} requests got no complete response; first: ${label(bad[0])}: ${bad[0].error || 'no response'}`,
  );
  return [o ? about(j, bad[0], o) : j];
}

/**
 * Retry-After and X-RateLimit-Reset announce the same moment (within the tolerance).
 * `freesEarly`: the run showed the limiter freeing slots before its Reset (a
 * token bucket whose Reset is when it is full again): a Retry-After shorter than
 * Reset then names the next free slot, which is consistent — whether it was long
 * enough is RL-RECOVERY's verdict. A Retry-After well beyond Reset is not.
 */
export function judgeConsistency(s: Sample, o: JudgeOptions, freesEarly = false): Judgement {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  if (wait === undefined || reset === undefined)
    return skip(
      'RL-RETRY-AFTER-CONSISTENT',
      'Retry-After vs Reset not comparable',
      `${label(s)}: ${wait === undefined ? 'no usable Retry-After' : 'no X-RateLimit-Reset'}`,
    );
  const diff = reset - wait;
  if (freesEarly && diff > o.toleranceMs)
    return judge(
      'RL-RETRY-AFTER-CONSISTENT',
      true,
      'Retry-After names the next free slot',
      `${label(s)}: Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date; the limiter was seen freeing slots before its Reset (a refilling limiter), so a shorter Retry-After is consistent`,
    );
  const ok = Math.abs(diff) <= o.toleranceMs;
  const j = judge(
    'RL-RETRY-AFTER-CONSISTENT',
    ok,
    ok ? 'Retry-After agrees with Reset' : 'Retry-After disagrees with Reset',
    `${label(s)}: Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date (difference ${fmtMs(Math.abs(diff))}, tolerance ${fmtMs(o.toleranceMs)})`,
  );
  return ok ? j : about(j, s, o);
}
