/**
 * The per-response rules applied to the samples of a load scenario (the same
 * rules the conformance checks apply to every exchange), the transport rule,
 * the Retry-After / Reset consistency, and the evidence of a sample. Pure.
 */
import { foldJudgements } from '../../fold-judgements.ts';
import type { Evidence, Judgement } from '../../sections/define.ts';
import { TRANSPORT } from '../transport/requirements.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { responseRules, type ResponseFacts, type RuleContext } from '../rate-limit-headers/rules.ts';
import { fmtMs, resetInMs, signals } from './signals.ts';

export const label = (s: Sample): string => `request #${s.seq + 1}`;

/** When the first request of these samples was sent (the origin of the evidence's `at.ms` and of the timeline). */
export function startOf(samples: readonly Sample[]): number | undefined {
  let m = Infinity;
  for (const s of samples) if (s.sentAt < m) m = s.sentAt;
  return m === Infinity ? undefined : m;
}

/** Where a sample's request went: its own path after the base address, when it is not the scenario's usual `/pets?limit=1`. */
function urlOf(s: Sample, requestUrl: string | undefined): string | undefined {
  const usual = '/pets?limit=1';
  return s.path === undefined || requestUrl === undefined || !requestUrl.endsWith(usual)
    ? requestUrl
    : `${requestUrl.slice(0, requestUrl.length - usual.length)}${s.path}`;
}

/** The request and response of a sample, for a judgement's evidence (redacted when the report is built). */
export function sampleEvidence(s: Sample, o: Pick<JudgeOptions, 'requestUrl'>, startedAt?: number): Evidence {
  const headers: Record<string, string> = {};
  for (const k of Object.keys(s.headers)) {
    const v = s.headers[k];
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  const ev: Evidence = {
    request: {
      method: s.op === 'createPet' ? 'POST' : 'GET',
      url: urlOf(s, o.requestUrl),
      headers: {
        authorization: 'Bearer [REDACTED]',
        accept: 'application/json',
        ...(s.requestBody !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(s.requestBody !== undefined ? { body: s.requestBody } : {}),
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
  // The limits the run was given (the embedded server's reachable day quota included), never the published table again.
  return { limits: { plan: o.plan, perMinute: o.limit, perDay: o.perDay }, dayMs: o.dayMs, windowMs: o.windowMs };
}

export function facts(s: Sample): ResponseFacts {
  return { status: s.status, headers: s.headers, body: s.body, t: s.t, sentAt: s.sentAt, withKey: true, label: label(s) };
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

/**
 * A timeout the client's own lateness explains: while the request was out, the client ran behind its timers by more than
 * the tolerance (its process off the CPU, its event loop busy — a busy machine; on the embedded reference server, which
 * runs in the client's process, the server's answers were that late too). The timeout then measured the client's
 * machine, not the server: not judged, and said so. A reset or a refused connection is the server's whatever the client.
 */
export const lateTimeout = (s: Sample, o?: Pick<JudgeOptions, 'toleranceMs'>): boolean =>
  s.status === 0 && /^timeout\b/.test(s.error ?? '') && (s.lateMs ?? 0) > (o?.toleranceMs ?? DEFAULT_TOLERANCE_MS);
const DEFAULT_TOLERANCE_MS = 2000;

/** Transport failures (no response within the timeout, reset, refused…), except timeouts the client's lateness explains. */
export function judgeTransport(samples: readonly Sample[], o?: JudgeOptions): Judgement[] {
  const failed = samples.filter((s) => s.status === 0);
  if (!failed.length) return [];
  const late = failed.filter((s) => lateTimeout(s, o));
  const bad = failed.filter((s) => !lateTimeout(s, o));
  const excused = late.length
    ? `${late.length} more timed out while this client ran up to ${fmtMs(Math.max(...late.map((s) => s.lateMs ?? 0)))} behind its own timers (not judged)`
    : '';
  if (!bad.length)
    return [
      TRANSPORT.judge('TRANSPORT-COMPLETE-RESPONSE', {
        outcome: 'skip',
        title: 'client-late',
        message: `${late.length} of ${samples.length} requests got no complete response before the timeout, while this client itself ran behind its own timers — up to ${fmtMs(Math.max(...late.map((s) => s.lateMs ?? 0)))} of the wait (its process off the CPU: a busy machine; the embedded server runs in the same process). The timeout measured this machine, not the server: not judged`,
        remedy: 'run it on a machine with a CPU to spare (the timeout is --timeout-ms)',
      }),
    ];
  const j = TRANSPORT.judge('TRANSPORT-COMPLETE-RESPONSE', {
    ok: false,
    fail: 'load-samples',
    message: `${bad.length} of ${samples.length} requests got no complete response; first: ${label(bad[0])}: ${bad[0].error || 'no response'}${excused ? `; ${excused}` : ''}`,
  });
  return [o ? about(j, bad[0], o, startOf(samples)) : j];
}

/**
 * RL-RETRY-AFTER-CONSISTENT: Retry-After does not ask to wait beyond the moment
 * X-RateLimit-Reset announces (within the tolerance). A Retry-After shorter than
 * Reset is consistent: it names the next free slot (a token bucket, a sliding
 * window: Reset is when the limit is whole again) — whether that slot was real
 * is RL-RECOVERY's question. A Retry-After well beyond Reset contradicts it —
 * a wait beyond a window too, a ban (RL-BAN-EARNED says whether one was earned).
 * `freesEarly` only words the message.
 */
export function judgeConsistency(s: Sample, o: JudgeOptions, freesEarly = false, startedAt?: number): Judgement {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  if (wait === undefined || reset === undefined)
    return RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
      outcome: 'skip',
      title: 'incomparable',
      message: `${label(s)}: ${wait === undefined ? 'no usable Retry-After' : 'no X-RateLimit-Reset'}`,
    });
  const both = `Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date`;
  // Reset is measured from the response's Date (else its arrival), stamped up to the whole round trip after the limiter
  // decided; a Retry-After in seconds counts from the decision. A wait beyond Reset is judged from the most favourable
  // moment, when the request was sent. An HTTP-date Retry-After measured from the same Date needs no slack.
  const sig = signals(s);
  const slack = sig.retryAfter.kind === 'seconds' || sig.date === undefined ? Math.max(0, s.t - s.sentAt) : 0;
  if (wait > o.windowMs + o.toleranceMs && wait - reset > o.toleranceMs)
    // A ban: the spec allows one for a client that kept sending after a 429 (RL-BAN-EARNED fails one nothing earned);
    // the headers disagree all the same.
    return about(
      RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
        ok: false,
        fail: 'ban',
        message: `${label(s)}: ${both}; a wait beyond a window is a temporary ban, which the spec allows a server to impose on a client that keeps sending after a 429, while X-RateLimit-Reset announces the limit's reset`,
      }),
      s,
      o,
      startedAt,
    );
  if (wait - reset - slack > o.toleranceMs)
    return about(
      RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
        ok: false,
        message: `${label(s)}: ${both} (${fmtMs(wait - reset)} beyond it, tolerance ${fmtMs(o.toleranceMs)}${slack ? ` plus the ${fmtMs(slack)} the exchange took` : ''})`,
      }),
      s,
      o,
      startedAt,
    );
  if (reset - wait > o.toleranceMs)
    return RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
      ok: true,
      pass: 'earlier-slot',
      message: `${label(s)}: ${both}; a shorter Retry-After names the next free slot${freesEarly ? ' (the limiter was seen freeing slots before its Reset)' : ''} — RL-RECOVERY checks it was real`,
    });
  return RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
    ok: true,
    message: `${label(s)}: ${both} (difference ${fmtMs(Math.abs(reset - wait))}, tolerance ${fmtMs(o.toleranceMs)})`,
  });
}
