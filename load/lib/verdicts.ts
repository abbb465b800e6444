/**
 * Verdicts of the ceiling and recovery scenarios: pure functions of the recorded
 * samples ({ t, status, headers } and when each was sent). A MUST violation
 * fails; a SHOULD violation warns (RL-RETRY-AFTER-CONSISTENT, RL-429-*-ZERO,
 * RL-429-ERROR-BODY), as the catalogue's levels say.
 */
import { header, judgeReset } from '../../src/core/ratelimit.ts';
import { bySeq, describeRetryAfter, fmtMs, isRollover, isSuccess, isThrottled, resetInMs, refTime, signals } from './signals.ts';
import type { Sample, ScenarioOptions, Verdict } from './types.ts';

/** Levels of the catalogue entries the load scenarios report on (checked against src/catalogue by a test). */
export const LOAD_LEVELS: Readonly<Record<string, 'MUST' | 'SHOULD'>> = {
  'RL-CEILING-429': 'MUST',
  'RL-NOT-EARLY': 'MUST',
  'RL-LIMIT-PLAN': 'MUST',
  'RL-REMAINING-DECREMENTS': 'MUST',
  'RL-RESET-UNIX-SECONDS': 'MUST',
  'RL-HEADERS-PRESENT': 'MUST',
  'RL-429-RETRY-AFTER': 'MUST',
  'RL-429-REMAINING-ZERO': 'SHOULD',
  'RL-429-ERROR-BODY': 'SHOULD',
  'RL-RETRY-AFTER-CONSISTENT': 'SHOULD',
  'RL-RECOVERY': 'MUST',
  'RL-SUSTAINED-BELOW-CEILING': 'MUST',
  'RL-WINDOW-PER-MINUTE': 'MUST',
  'RL-DAILY-QUOTA': 'MUST',
  'TRANSPORT-COMPLETE-RESPONSE': 'MUST',
};

/** A verdict: pass when `ok`, else fail (MUST) or warn (SHOULD). */
export function verdict(requirement: string, ok: boolean, title: string, message: string): Verdict {
  const outcome = ok ? 'pass' : LOAD_LEVELS[requirement] === 'SHOULD' ? 'warn' : 'fail';
  return { requirement, outcome, title, message };
}

export function skipped(requirement: string, title: string, message: string): Verdict {
  return { requirement, outcome: 'skip', title, message };
}

const n = (s: Sample) => `request #${s.seq + 1}`;
const rem = (s: Sample) => signals(s).remaining;

/** Transport failures (no response within the timeout, reset, refused…). */
export function judgeTransport(samples: readonly Sample[]): Verdict[] {
  const bad = samples.filter((s) => s.status === 0);
  if (!bad.length) return [];
  return [verdict('TRANSPORT-COMPLETE-RESPONSE', false, 'Requests without a complete response', `${bad.length} of ${samples.length} requests got no complete response; first: ${n(bad[0])}: ${bad[0].error || 'no response'}`)];
}

/** What one 429 must carry: Retry-After, Remaining 0, the rate-limit headers, an Error body, a consistent Reset. */
export function judge429(s: Sample, o: ScenarioOptions): Verdict[] {
  const sig = signals(s);
  const out: Verdict[] = [];
  const ra = sig.retryAfter;
  out.push(
    ra.kind === 'seconds' || ra.kind === 'date'
      ? verdict('RL-429-RETRY-AFTER', true, '429 carries Retry-After', `${n(s)}: ${describeRetryAfter(ra)} (${ra.kind === 'seconds' ? 'delay-seconds' : 'HTTP-date'}, a wait of ${fmtMs(sig.waitMs || 0)})`)
      : verdict('RL-429-RETRY-AFTER', false, ra.kind === 'absent' ? '429 without Retry-After' : 'Invalid Retry-After', `${n(s)} was answered 429 with ${describeRetryAfter(ra)}; RFC 9110 §10.2.3 allows delay-seconds or an HTTP-date`),
  );
  out.push(
    sig.remaining === 0
      ? verdict('RL-429-REMAINING-ZERO', true, '429 says Remaining 0', `${n(s)}: X-RateLimit-Remaining: 0`)
      : verdict('RL-429-REMAINING-ZERO', false, '429 with Remaining above 0', `${n(s)} was answered 429 with X-RateLimit-Remaining ${sig.remaining === undefined ? 'absent' : sig.remaining}`),
  );
  const missing = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].filter((h) => header(s.headers, h) === undefined);
  out.push(verdict('RL-HEADERS-PRESENT', missing.length === 0, missing.length ? 'Rate-limit headers missing on a 429' : 'Rate-limit headers on the 429', missing.length ? `${n(s)} (429) lacks ${missing.join(', ')}` : `${n(s)} (429) carries X-RateLimit-Limit, -Remaining and -Reset`));
  out.push(judgeErrorBody(s));
  const reset = judgeReset(sig.resetRaw, refTime(s), Math.ceil(o.windowMs / 1000), 2);
  if (sig.resetRaw !== undefined)
    out.push(reset.ok ? verdict('RL-RESET-UNIX-SECONDS', true, 'Reset is Unix seconds', `${n(s)}: X-RateLimit-Reset ${sig.resetRaw} is within one window of the response`) : verdict('RL-RESET-UNIX-SECONDS', false, 'Reset is not Unix seconds within a window', `${n(s)}: ${reset.detail}`));
  out.push(judgeConsistency(s, o));
  return out;
}

function judgeErrorBody(s: Sample): Verdict {
  let v: unknown;
  try {
    v = JSON.parse(s.body || '');
  } catch (e) {
    return verdict('RL-429-ERROR-BODY', false, '429 body is not an Error', `${n(s)}: the 429 body is not JSON: ${JSON.stringify((s.body || '').slice(0, 80))}`);
  }
  const o = v as { code?: unknown; message?: unknown; status?: unknown };
  const problems: string[] = [];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) problems.push('not a JSON object');
  else {
    if (typeof o.code !== 'string') problems.push('no string code');
    if (typeof o.message !== 'string') problems.push('no string message');
    if (o.status !== 429) problems.push(`status is ${JSON.stringify(o.status)}, not 429`);
  }
  return problems.length
    ? verdict('RL-429-ERROR-BODY', false, '429 body is not an Error', `${n(s)}: the 429 body is ${problems.join(', ')}`)
    : verdict('RL-429-ERROR-BODY', true, '429 body is an Error', `${n(s)}: Error code ${JSON.stringify(o.code)}, status 429`);
}

/** Retry-After and X-RateLimit-Reset announce the same moment (within the tolerance). */
export function judgeConsistency(s: Sample, o: ScenarioOptions): Verdict {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  if (wait === undefined || reset === undefined)
    return skipped('RL-RETRY-AFTER-CONSISTENT', 'Retry-After vs Reset not comparable', `${n(s)}: ${wait === undefined ? 'no usable Retry-After' : 'no X-RateLimit-Reset'}`);
  const diff = reset - wait;
  const ok = Math.abs(diff) <= o.toleranceMs;
  return verdict(
    'RL-RETRY-AFTER-CONSISTENT',
    ok,
    ok ? 'Retry-After agrees with Reset' : 'Retry-After disagrees with Reset',
    `${n(s)}: Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date (difference ${fmtMs(Math.abs(diff))}, tolerance ${fmtMs(o.toleranceMs)})`,
  );
}

/** What the ceiling phase showed, per window (split where Remaining went back up with a later Reset). */
export interface CeilingFacts {
  seq: Sample[];
  first429?: Sample;
  /** Successes in the window of the first 429 (or the last window). */
  inWindow: number;
  /** Did that window start fresh (highest Remaining = Limit - 1)? */
  fresh: boolean;
  /** The success that said Remaining 0 in that window (the prediction). */
  zero?: Sample;
  /** Lowest Remaining seen in that window. */
  minRemaining?: number;
  /** Pairs of Remaining values (sorted, per window) that are not one apart: Remaining did not fall by one per request. */
  badSteps: Array<[Sample, Sample]>;
  /** Pairs checked. */
  steps: number;
  /** A success sent after a response had said Remaining 0. */
  unpredicted?: Sample;
  other?: Sample;
}

function windowFacts(win: Sample[], f: CeilingFacts, o: ScenarioOptions): void {
  const zero = win.filter((x) => rem(x) === 0).sort((a, b) => a.t - b.t)[0];
  const after = (x: Sample) => zero !== undefined && x.seq > zero.seq && x.sentAt >= zero.t; // sent once Remaining 0 was known
  if (!f.unpredicted) f.unpredicted = win.find(after);
  const counted = win.filter((x) => !after(x) && rem(x) !== undefined).sort((a, b) => (rem(b) as number) - (rem(a) as number));
  for (let i = 1; i < counted.length; i++) {
    f.steps++;
    if ((rem(counted[i - 1]) as number) - (rem(counted[i]) as number) !== 1) f.badSteps.push([counted[i - 1], counted[i]]);
  }
  f.zero = zero;
  f.inWindow = win.length;
  f.minRemaining = counted.length ? rem(counted[counted.length - 1]) : undefined;
  const head = counted[0];
  const cap = head && signals(head).limit !== undefined ? (signals(head).limit as number) : o.limit;
  f.fresh = !!head && rem(head) === cap - 1;
}

/**
 * Successes in the order the server most likely counted them: by Reset, then by
 * falling Remaining. Requests in flight together may reach the server out of
 * send order — across a window boundary too. Without Reset on every response,
 * the send order.
 */
export function serverOrder(successes: readonly Sample[]): Sample[] {
  if (successes.some((x) => signals(x).reset === undefined || rem(x) === undefined)) return bySeq(successes);
  return successes.slice().sort((a, b) => (signals(a).reset as number) - (signals(b).reset as number) || (rem(b) as number) - (rem(a) as number) || a.seq - b.seq);
}

export function ceilingFacts(samples: readonly Sample[], o: ScenarioOptions): CeilingFacts {
  const seq = bySeq(samples.filter((s) => s.phase === 'ceiling'));
  const f: CeilingFacts = { seq, inWindow: 0, fresh: false, badSteps: [], steps: 0 };
  const before: Sample[] = [];
  for (const s of seq) {
    if (isThrottled(s)) {
      f.first429 = s;
      break;
    }
    if (isSuccess(s)) before.push(s);
    else if (s.status !== 0 && !f.other) f.other = s;
  }
  let last: Sample | undefined;
  let win: Sample[] = [];
  for (const s of serverOrder(before)) {
    if (last && isRollover(last, s)) {
      windowFacts(win, f, o);
      win = [];
    }
    win.push(s);
    last = s;
  }
  windowFacts(win, f, o);
  return f;
}

export function judgeCeiling(samples: readonly Sample[], o: ScenarioOptions, stopped?: string): Verdict[] {
  const f = ceilingFacts(samples, o);
  const out: Verdict[] = judgeTransport(f.seq);
  const successes = f.seq.filter(isSuccess);
  if (!successes.length && !f.first429)
    return out.concat(verdict('RL-CEILING-429', false, 'Ceiling not measured', f.other ? `${n(f.other)} was answered ${f.other.status}; the ceiling could not be measured` : `no response to measure the ceiling (${stopped || 'no request'})`));
  const limits = successes.map((s) => signals(s).limit).filter((x): x is number => x !== undefined);
  const wrong = limits.filter((l) => l !== o.limit);
  if (limits.length)
    out.push(wrong.length ? verdict('RL-LIMIT-PLAN', false, 'Limit differs from the plan', `X-RateLimit-Limit said ${wrong[0]} on ${wrong.length} of ${limits.length} responses; plan ${o.plan} allows ${o.limit}`) : verdict('RL-LIMIT-PLAN', true, 'Limit equals the plan', `X-RateLimit-Limit ${o.limit} on every response, as plan ${o.plan} says`));
  if (f.steps > 0) {
    const b = f.badSteps[0];
    out.push(
      b
        ? verdict('RL-REMAINING-DECREMENTS', false, 'Remaining does not fall by one', `${f.badSteps.length} of ${f.steps} steps of X-RateLimit-Remaining were not one request apart; e.g. ${n(b[0])} said ${rem(b[0])}, ${n(b[1])} said ${rem(b[1])}`)
        : verdict('RL-REMAINING-DECREMENTS', true, 'Remaining falls by one per request', `X-RateLimit-Remaining fell by one per request over ${f.steps + 1} requests`),
    );
  }
  const s429 = f.first429;
  const predicted = !!s429 && !!f.zero && s429.seq > f.zero.seq && s429.sentAt >= f.zero.t;
  const planShort = f.fresh && f.inWindow < o.limit;
  const said = f.minRemaining === undefined ? '(absent)' : String(f.minRemaining);
  // RL-NOT-EARLY: no 429 while Remaining > 0 (when Remaining is trustworthy) nor before the plan's limit.
  if (!s429) out.push(verdict('RL-NOT-EARLY', true, 'No early 429', `none of ${f.seq.length} requests was throttled`));
  else if (!successes.length) out.push(skipped('RL-NOT-EARLY', 'Key already throttled', `${n(s429)}, the first request, was answered 429: the key was already at its limit`));
  else {
    const byRemaining = !predicted && f.badSteps.length === 0 && f.minRemaining !== undefined && f.minRemaining > 0;
    out.push(
      byRemaining || planShort
        ? verdict('RL-NOT-EARLY', false, 'Throttled before the limit', `${n(s429)} was answered 429 after ${f.inWindow} successes in the window${byRemaining ? ` while Remaining still said ${said}` : ''}${planShort ? `; plan ${o.plan} allows ${o.limit}` : ''}`)
        : verdict('RL-NOT-EARLY', true, 'No early 429', `no 429 while Remaining was above 0 (${f.inWindow} successes in the window before the first 429)`),
    );
  }
  // RL-CEILING-429: the first 429 comes exactly when Remaining said.
  if (!s429) {
    const why = f.unpredicted
      ? `${n(f.unpredicted)} succeeded although an earlier response said Remaining 0`
      : f.inWindow > o.limit
        ? `${f.inWindow} requests in one window succeeded, more than plan ${o.plan}'s ${o.limit}`
        : f.other
          ? `${n(f.other)} was answered ${f.other.status}`
          : `no 429 within ${f.seq.length} requests${stopped ? ` (${stopped})` : ''}`;
    out.push(verdict('RL-CEILING-429', false, 'No 429 at the limit', `${why}; a request beyond the limit must be answered 429`));
  } else if (predicted && !planShort) {
    out.push(verdict('RL-CEILING-429', true, '429 exactly when predicted', `${n(s429)} was answered 429 right after Remaining reached 0, as predicted (${f.inWindow} successes in the window${f.fresh ? `, plan ${o.plan} allows ${o.limit}` : ''})`));
  } else if (successes.length) {
    out.push(verdict('RL-CEILING-429', false, '429 not when predicted', `${n(s429)} was answered 429 after ${f.inWindow} successes${planShort ? ` (plan ${o.plan} allows ${o.limit})` : ''} while Remaining said ${said}`));
  }
  if (s429) out.push(...judge429(s429, o));
  return out;
}

/** RL-RECOVERY: after the first 429, the wait it asked for, then one probe that succeeds. */
export function judgeRecovery(samples: readonly Sample[], o: ScenarioOptions, stopped?: string): Verdict[] {
  const seq = bySeq(samples);
  const first = seq.find((s) => s.phase === 'ceiling' && isThrottled(s));
  if (!first) return [skipped('RL-RECOVERY', 'No 429 to recover from', 'the ceiling phase got no 429, so recovery could not be tried')];
  const probes = seq.filter((s) => s.phase === 'probe');
  const out: Verdict[] = [];
  // The suite's own promise: no request on the key before the announced wait elapsed.
  let last429: Sample = first;
  for (const p of probes) {
    const wait = signals(last429).waitMs;
    if (wait !== undefined && p.sentAt < last429.t + wait) out.push(verdict('RL-RECOVERY', false, 'Probe sent before Retry-After', `${n(p)} was sent ${fmtMs(last429.t + wait - p.sentAt)} before Retry-After elapsed (suite defect)`));
    if (isThrottled(p)) last429 = p;
  }
  if (!probes.length) return out.concat(verdict('RL-RECOVERY', false, 'Recovery not tried', `no probe was sent after ${n(first)}'s 429: ${stopped || 'stopped'}`));
  const ok = probes.find(isSuccess);
  const waited = fmtMs(probes[0].sentAt - first.t);
  const ra = signals(first).retryAfter;
  if (ra.kind === 'seconds' || ra.kind === 'date') {
    const p = probes[0];
    out.push(
      isSuccess(p)
        ? verdict('RL-RECOVERY', true, 'Recovered after Retry-After', `waited ${waited} after the 429 (${describeRetryAfter(ra)}); the probe was answered ${p.status} with Remaining ${rem(p)}`)
        : verdict('RL-RECOVERY', false, 'Still throttled after Retry-After', `waited ${waited} after the 429 (${describeRetryAfter(ra)}) and the probe was still answered ${p.status}: the wait announced was too short`),
    );
  } else {
    out.push(
      ok
        ? verdict('RL-RECOVERY', true, 'Recovered after backoff', `the 429 had ${describeRetryAfter(ra)}; exponential backoff with full jitter recovered after ${probes.indexOf(ok) + 1} probe(s), ${fmtMs(ok.sentAt - first.t)} after the 429`)
        : verdict('RL-RECOVERY', false, 'Not recovered after backoff', `the 429 had ${describeRetryAfter(ra)}; ${probes.length} backoff probes over ${fmtMs(probes[probes.length - 1].sentAt - first.t)} were all refused`),
    );
  }
  return out;
}
