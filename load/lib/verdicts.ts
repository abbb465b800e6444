/**
 * Verdicts shared by the scenarios (what a 429 must carry, transport) and of the
 * recovery probe (the ceiling's own: verdicts-ceiling.ts): pure functions of the recorded
 * samples ({ t, status, headers } and when each was sent). A MUST violation
 * fails; a SHOULD violation warns (RL-RETRY-AFTER-CONSISTENT, RL-429-*-ZERO,
 * RL-429-ERROR-BODY), as the catalogue's levels say.
 */
import { header, judgeReset, readRateLimit } from '../../src/core/ratelimit.ts';
import { bySeq, describeRetryAfter, fmtMs, isSuccess, isThrottled, resetInMs, refTime, signals } from './signals.ts';
import type { Sample, ScenarioOptions, Verdict } from './types.ts';

/** Levels of the catalogue entries the load scenarios report on (checked against src/catalogue by a test). */
export const LOAD_LEVELS: Readonly<Record<string, 'MUST' | 'SHOULD'>> = {
  'RL-CEILING-429': 'MUST',
  'RL-NOT-EARLY': 'MUST',
  'RL-LIMIT-PLAN': 'MUST',
  'RL-REMAINING-DECREMENTS': 'MUST',
  'RL-RESET-UNIX-SECONDS': 'MUST',
  'RL-HEADERS-PRESENT': 'MUST',
  'RL-HEADERS-INTEGER': 'MUST',
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
  return [
    verdict(
      'TRANSPORT-COMPLETE-RESPONSE',
      false,
      'Requests without a complete response',
      `${bad.length} of ${samples.length} requests got no complete response; first: ${n(bad[0])}: ${bad[0].error || 'no response'}`,
    ),
  ];
}

/** What one 429 must carry: Retry-After, Remaining 0, the rate-limit headers, an Error body, a consistent Reset. */
export function judge429(s: Sample, o: ScenarioOptions, how: { countsTheDay?: boolean; freesEarly?: boolean } = {}): Verdict[] {
  const sig = signals(s);
  const day = how.countsTheDay === true;
  const out: Verdict[] = [];
  const ra = sig.retryAfter;
  out.push(
    ra.kind === 'seconds' || ra.kind === 'date'
      ? verdict(
          'RL-429-RETRY-AFTER',
          true,
          '429 carries Retry-After',
          `${n(s)}: ${describeRetryAfter(ra)} (${ra.kind === 'seconds' ? 'delay-seconds' : 'HTTP-date'}, a wait of ${fmtMs(sig.waitMs || 0)})`,
        )
      : verdict(
          'RL-429-RETRY-AFTER',
          false,
          ra.kind === 'absent' ? '429 without Retry-After' : 'Invalid Retry-After',
          `${n(s)} was answered 429 with ${describeRetryAfter(ra)}; RFC 9110 §10.2.3 allows delay-seconds or an HTTP-date`,
        ),
  );
  if (day)
    out.push(skipped('RL-429-REMAINING-ZERO', 'Not judged', `${n(s)}: the rate-limit headers count the day, whose quota is not used up`));
  else
    out.push(
      sig.remaining === 0
        ? verdict('RL-429-REMAINING-ZERO', true, '429 says Remaining 0', `${n(s)}: X-RateLimit-Remaining: 0`)
        : verdict(
            'RL-429-REMAINING-ZERO',
            false,
            '429 with Remaining above 0',
            `${n(s)} was answered 429 with X-RateLimit-Remaining ${sig.remaining === undefined ? 'absent' : sig.remaining}`,
          ),
    );
  const missing = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].filter((h) => header(s.headers, h) === undefined);
  out.push(
    verdict(
      'RL-HEADERS-PRESENT',
      missing.length === 0,
      missing.length ? 'Rate-limit headers missing on a 429' : 'Rate-limit headers on the 429',
      missing.length ? `${n(s)} (429) lacks ${missing.join(', ')}` : `${n(s)} (429) carries X-RateLimit-Limit, -Remaining and -Reset`,
    ),
  );
  const integers = judgeIntegers(s);
  if (integers) out.push(integers);
  out.push(judgeErrorBody(s));
  const period = day ? 'day' : 'window';
  const reset = judgeReset(sig.resetRaw, refTime(s), Math.ceil((day ? o.dayMs : o.windowMs) / 1000), 2);
  // With the server's own Date (no clock skew): a Reset at or before the 429's Date while Retry-After asks to wait is not when the limit resets.
  const stale =
    reset.ok && !day && sig.reset !== undefined && sig.date !== undefined && sig.reset * 1000 <= sig.date && (sig.waitMs ?? 0) >= 1000;
  if (stale)
    out.push(
      verdict(
        'RL-RESET-UNIX-SECONDS',
        false,
        'Reset is not when the limit resets',
        `${n(s)}: X-RateLimit-Reset ${sig.resetRaw} is the response's own Date while ${describeRetryAfter(sig.retryAfter)} asks to wait ${fmtMs(sig.waitMs as number)}`,
      ),
    );
  else if (sig.resetRaw !== undefined)
    out.push(
      reset.ok
        ? verdict(
            'RL-RESET-UNIX-SECONDS',
            true,
            'Reset is Unix seconds',
            `${n(s)}: X-RateLimit-Reset ${sig.resetRaw} is within one ${period} of the response`,
          )
        : verdict('RL-RESET-UNIX-SECONDS', false, `Reset is not Unix seconds within a ${period}`, `${n(s)}: ${reset.detail}`),
    );
  out.push(
    day
      ? skipped(
          'RL-RETRY-AFTER-CONSISTENT',
          'Not comparable',
          `${n(s)}: X-RateLimit-Reset announces the end of the day, Retry-After the end of the window`,
        )
      : judgeConsistency(s, o, how.freesEarly),
  );
  return out;
}

/** X-RateLimit-Limit (> 0) and -Remaining, when sent, are non-negative integers — on a 429 too, which the conformance run rarely sees. */
function judgeIntegers(s: Sample): Verdict | undefined {
  const rl = readRateLimit(s.headers);
  if (rl.limitRaw === undefined && rl.remainingRaw === undefined) return undefined;
  const bad: string[] = [];
  if (rl.limitRaw !== undefined && (rl.limit === undefined || rl.limit === 0)) bad.push(`X-RateLimit-Limit ${JSON.stringify(rl.limitRaw)}`);
  if (rl.remainingRaw !== undefined && rl.remaining === undefined) bad.push(`X-RateLimit-Remaining ${JSON.stringify(rl.remainingRaw)}`);
  return bad.length
    ? verdict('RL-HEADERS-INTEGER', false, 'Rate-limit header is not a non-negative integer', `${n(s)} (429): ${bad.join(', ')}`)
    : verdict(
        'RL-HEADERS-INTEGER',
        true,
        'Integer rate-limit headers on the 429',
        `${n(s)} (429): Limit ${rl.limitRaw ?? '-'}, Remaining ${rl.remainingRaw ?? '-'}`,
      );
}

function judgeErrorBody(s: Sample): Verdict {
  let v: unknown;
  try {
    v = JSON.parse(s.body || '');
  } catch (e) {
    return verdict(
      'RL-429-ERROR-BODY',
      false,
      '429 body is not an Error',
      `${n(s)}: the 429 body is not JSON: ${JSON.stringify((s.body || '').slice(0, 80))}`,
    );
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

/**
 * Retry-After and X-RateLimit-Reset announce the same moment (within the tolerance).
 * `freesEarly`: the run showed the limiter freeing slots before its Reset (a
 * token bucket whose Reset is when it is full again): a Retry-After shorter than
 * Reset then names the next free slot, which is consistent — whether it was long
 * enough is RL-RECOVERY's verdict. A Retry-After well beyond Reset is not.
 */
export function judgeConsistency(s: Sample, o: ScenarioOptions, freesEarly = false): Verdict {
  const wait = signals(s).waitMs;
  const reset = resetInMs(s);
  if (wait === undefined || reset === undefined)
    return skipped(
      'RL-RETRY-AFTER-CONSISTENT',
      'Retry-After vs Reset not comparable',
      `${n(s)}: ${wait === undefined ? 'no usable Retry-After' : 'no X-RateLimit-Reset'}`,
    );
  const diff = reset - wait;
  if (freesEarly && diff > o.toleranceMs)
    return verdict(
      'RL-RETRY-AFTER-CONSISTENT',
      true,
      'Retry-After names the next free slot',
      `${n(s)}: Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date; the limiter was seen freeing slots before its Reset (a refilling limiter), so a shorter Retry-After is consistent`,
    );
  const ok = Math.abs(diff) <= o.toleranceMs;
  return verdict(
    'RL-RETRY-AFTER-CONSISTENT',
    ok,
    ok ? 'Retry-After agrees with Reset' : 'Retry-After disagrees with Reset',
    `${n(s)}: Retry-After asks to wait ${fmtMs(wait)}, X-RateLimit-Reset is ${fmtMs(reset)} after the response's Date (difference ${fmtMs(Math.abs(diff))}, tolerance ${fmtMs(o.toleranceMs)})`,
  );
}

/** RL-RECOVERY: after the first 429, the wait it asked for, then one probe that succeeds. */
export function judgeRecovery(samples: readonly Sample[], o: ScenarioOptions, stopped?: string): Verdict[] {
  const seq = bySeq(samples);
  // The ceiling's last 429 (a first request refused before an idle window is not the one recovered from).
  const first = seq.filter((s) => s.phase === 'ceiling' && isThrottled(s)).pop();
  if (!first) return [skipped('RL-RECOVERY', 'No 429 to recover from', 'the ceiling phase got no 429, so recovery could not be tried')];
  const probes = seq.filter((s) => s.phase === 'probe');
  const out: Verdict[] = [];
  // The suite's own promise: no request on the key before the announced wait elapsed.
  let last429: Sample = first;
  for (const p of probes) {
    const wait = signals(last429).waitMs;
    if (wait !== undefined && p.sentAt < last429.t + wait)
      out.push(
        verdict(
          'RL-RECOVERY',
          false,
          'Probe sent before Retry-After',
          `${n(p)} was sent ${fmtMs(last429.t + wait - p.sentAt)} before Retry-After elapsed (suite defect)`,
        ),
      );
    if (isThrottled(p)) last429 = p;
  }
  if (!probes.length)
    return out.concat(
      verdict('RL-RECOVERY', false, 'Recovery not tried', `no probe was sent after ${n(first)}'s 429: ${stopped || 'stopped'}`),
    );
  const ok = probes.find(isSuccess);
  const waited = fmtMs(probes[0].sentAt - first.t);
  const ra = signals(first).retryAfter;
  if (ra.kind === 'seconds' || ra.kind === 'date') {
    const p = probes[0];
    out.push(
      isSuccess(p)
        ? verdict(
            'RL-RECOVERY',
            true,
            'Recovered after Retry-After',
            `waited ${waited} after the 429 (${describeRetryAfter(ra)}); the probe was answered ${p.status} with Remaining ${rem(p)}`,
          )
        : verdict(
            'RL-RECOVERY',
            false,
            'Still throttled after Retry-After',
            `waited ${waited} after the 429 (${describeRetryAfter(ra)}) and the probe was still answered ${p.status}: the wait announced was too short`,
          ),
    );
  } else {
    out.push(
      ok
        ? verdict(
            'RL-RECOVERY',
            true,
            'Recovered after backoff',
            `the 429 had ${describeRetryAfter(ra)}; exponential backoff with full jitter recovered after ${probes.indexOf(ok) + 1} probe(s), ${fmtMs(ok.sentAt - first.t)} after the 429`,
          )
        : verdict(
            'RL-RECOVERY',
            false,
            'Not recovered after backoff',
            `the 429 had ${describeRetryAfter(ra)}; ${probes.length} backoff probes over ${fmtMs(probes[probes.length - 1].sentAt - first.t)} were all refused`,
          ),
    );
  }
  return out;
}
