/**
 * Judgements of the ceiling phase (scenarios ceiling and recovery): Remaining
 * falls by one per request, no 429 before the limit, the first 429 exactly when
 * Remaining said (what every response and every 429 must carry is judged by the
 * per-response rules of ../rate-limit-headers/rules.ts, on every sample). Pure functions of the recorded samples.
 *
 * Tolerated, because the spec allows it or a shared key causes it:
 * - windows that roll over during the phase (fixed or sliding);
 * - another client spending the same key: Remaining falls by more than one at
 *   some steps — credited to that client as long as other steps fall by exactly
 *   one (a server counting each request twice has no such step);
 * - headers that count the per-day quota ("the request limit in force"): Limit is
 *   the plan's per-day number, Remaining cannot predict the per-minute 429, so
 *   the 429 is judged by the successes before it.
 */
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_HEADERS } from '../rate-limit-headers/requirements.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { judgeDecrements, type DecrementVerdict } from '../rate-limit-headers/decrements.ts';
import { about, judgeConsistency, judgeTransport, startOf } from './samples.ts';
import { countsTheDay, fmtMs, freesBeforeReset, isSuccess, signals, unorderable } from './signals.ts';
import { ceilingFacts, type CeilingFacts } from './ceiling-facts.ts';
import { tooSlowForLimit } from './in-flight.ts';
import { maxInSpan } from './spans.ts';
import { isDailyThrottle } from './window.ts';
import { isOtherThrottle, judgeOtherThrottle } from './other-throttle.ts';
import { judgeBan, type BanContext } from './ban.ts';
import { perOperation } from './key-scope.ts';

const n = (s: Sample) => `request #${s.seq + 1}`;
const rem = (s: Sample) => signals(s).remaining;

export function judgeCeiling(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const f = ceilingFacts(samples, o);
  const out: Judgement[] = judgeTransport(f.seq, o);
  const successes = f.seq.filter(isSuccess);
  const throttled = otherThrottle(f);
  if (!successes.length && !f.first429)
    return out.concat(
      throttled
        ? judgeOtherThrottle(throttled, o, startOf(samples))
        : RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
            outcome: 'skip',
            title: 'not-measured',
            message: f.other
              ? `${n(f.other)} was answered ${f.other.status}; the ceiling could not be measured`
              : `no response to measure the ceiling (${stopped || 'no request'})`,
          }),
    );
  const c = ceilingView(f, successes.length, o);
  const decrements = decrementsJudgement(c);
  if (decrements) out.push(decrements);
  const byStatus = throttled && !f.first429 ? judgeOtherThrottle(throttled, o, startOf(samples)) : undefined;
  if (countsTheDay(successes, o))
    return out.concat(
      judgeByCount(f, successes.length, o, stopped).map((j) => (byStatus && j.requirement === 'RL-CEILING-429' ? byStatus : j)),
      dailyConsistency(f),
      f.first429 ? [judgeBan(f.first429, o, banContext(c), startOf(samples))] : [],
    );
  out.push(notEarlyJudgement(c));
  const ceiling = byStatus || ceilingJudgement(c, stopped);
  if (ceiling) out.push(ceiling);
  if (f.first429)
    out.push(
      judgeConsistency(f.first429, o, f.refilled > 0 || freesBeforeReset(samples, o.toleranceMs), startOf(samples)),
      judgeBan(f.first429, o, banContext(c), startOf(samples)),
    );
  else out.push(...noThrottle(f.seq.length));
  // A failure shows the request that settled it: the unpredicted success, else the 429.
  const culprit = f.unpredicted || f.first429;
  const start = f.seq.length ? f.seq[0].sentAt : undefined;
  return out.map((j) => (j.outcome === 'fail' && !j.evidence && culprit ? about(j, culprit, o, start) : j));
}

/** The response that refused the key with another status than 429 (its first error, if a throttle: other-throttle.ts). */
function otherThrottle(f: CeilingFacts): Sample | undefined {
  const x = f.other;
  if (!x || (f.first429 && f.first429.seq < x.seq)) return undefined;
  return isOtherThrottle(x, !!f.zero && x.seq > f.zero.seq && x.sentAt >= f.zero.t) ? x : undefined;
}

/** The facts of the ceiling phase with what the judgements below share: how Remaining fell, and whether it predicted the 429. */
interface CeilingView {
  f: CeilingFacts;
  o: JudgeOptions;
  /** Successes in the whole phase. */
  successes: number;
  dec: DecrementVerdict;
  /** What the message adds when another client's requests were counted in the window. */
  shared: string;
  /** The first 429 came right after a success said Remaining 0. */
  predicted: boolean;
  /** A fresh window ended before the plan's limit was used. */
  planShort: boolean;
  /** The lowest Remaining, as said. */
  said: string;
}

function ceilingView(f: CeilingFacts, successes: number, o: JudgeOptions): CeilingView {
  const dec = judgeDecrements(f.steps);
  const s429 = f.first429;
  return {
    f,
    o,
    successes,
    dec,
    shared:
      dec.ok && f.extra > 0
        ? `; ${f.extra} request(s) counted in the window were not this scenario's (another client may be using this key)`
        : '',
    predicted: !!s429 && !!f.zero && s429.seq > f.zero.seq && s429.sentAt >= f.zero.t,
    planShort: f.fresh && f.inWindow + (dec.ok ? f.extra : 0) < o.limit,
    said: f.minRemaining === undefined ? '(absent)' : String(f.minRemaining),
  };
}

/**
 * Whether the client could have earned a ban by the first 429 (RL-BAN-EARNED): not when the run's orchestrator says no
 * 429 came on the key before, and the 429 came right after Remaining 0 in a window only this scenario was counted in.
 */
function banContext({ f, o, predicted }: CeilingView): BanContext {
  const why = !o.noEarlier429
    ? 'the key got a 429 earlier in the run, or this scenario ran alone and cannot tell'
    : f.refusedFirst
      ? 'the key was refused on its first request'
      : !predicted
        ? 'the 429 did not come right after Remaining 0, so the window was not shown used up by this client'
        : f.extra > 0
          ? "another client's requests were counted in the window"
          : undefined;
  return why ? { unearned: false, why } : { unearned: true };
}

/** RL-REMAINING-DECREMENTS: Remaining falls by one per request (another key's requests counted on a dedicated key fail it). */
function decrementsJudgement({ f, o, dec }: CeilingView): Judgement | undefined {
  if (!f.steps.length) return undefined;
  const apart = perOperation(f.seq); // each operation counted apart (key-scope.ts)
  if (apart) return apart;
  if (o.dedicatedKey && dec.ok && f.extra > 0) {
    // A key nothing else uses: what Remaining counted beyond this scenario's requests came from another key (plan).
    const b = f.badSteps.find(([x, y]) => (rem(x) as number) - (rem(y) as number) > 1) || f.badSteps[0];
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      ok: false,
      fail: 'foreign',
      message: `${f.extra} request(s) were counted in the window that this scenario did not send, on a key used by nothing else: the server counts another key's (plan's) requests in this key's bucket; e.g. ${n(b[0])} said ${rem(b[0])}, ${n(b[1])} said ${rem(b[1])}`,
    });
  }
  if (!dec.ok && f.refilling && f.steps.every((st) => st.from === st.to))
    // Remaining held still while the Reset moved on: the limiter refilled as fast as the requests came, nothing to judge.
    return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
      outcome: 'skip',
      title: 'refilling',
      message: `X-RateLimit-Remaining stayed at ${rem(f.seq[0]) ?? '?'} over ${f.steps.length + 1} requests while X-RateLimit-Reset moved on: a limiter that refills (token bucket, sliding log) freed a slot for each request, so whether each request is counted could not be seen`,
    });
  const b = f.badSteps[0];
  return RATE_LIMIT_HEADERS.judge('RL-REMAINING-DECREMENTS', {
    ok: dec.ok,
    message: dec.ok
      ? `X-RateLimit-Remaining over ${f.steps.length + 1} requests: ${dec.message}`
      : `${dec.message}; e.g. ${n(b[0])} said ${rem(b[0])}, ${n(b[1])} said ${rem(b[1])}`,
  });
}

/** Headers counting the day: the 429's Reset (the day's end) and Retry-After (the window's) are not comparable. */
function dailyConsistency(f: CeilingFacts): Judgement[] {
  const s429 = f.first429;
  if (!s429) return [];
  return [
    RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', {
      outcome: 'skip',
      title: 'counts-day',
      message: `${n(s429)}: X-RateLimit-Reset announces the end of the day, Retry-After the end of the window`,
    }),
  ];
}

/** RL-NOT-EARLY: no 429 while Remaining > 0 (when Remaining is trustworthy) nor before the plan's limit. */
function notEarlyJudgement(c: CeilingView): Judgement {
  const { f, o } = c;
  const s429 = f.first429;
  if (!s429) return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', { ok: true, message: `none of ${f.seq.length} requests was throttled` });
  if (!c.successes) return throttledFirst(s429, f.refusedFirst, o);
  const byRemaining = !c.predicted && c.dec.ok && f.minRemaining !== undefined && f.minRemaining > 0;
  const early = byRemaining || c.planShort;
  return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
    ok: !early,
    message: early
      ? `${n(s429)} was answered 429 after ${f.inWindow} successes in the window${byRemaining ? ` while Remaining still said ${c.said}` : ''}${c.planShort ? `; plan ${o.plan} allows ${o.limit}` : ''}`
      : `no 429 while Remaining was above 0 (${f.inWindow} successes in the window before the first 429${c.shared})`,
  });
}

/**
 * RL-NOT-EARLY when no request succeeded: after a full window without a request on the (dedicated) key, no
 * window — fixed or sliding — can be used up; the day's quota asks for a longer wait. A 429 asking to wait
 * longer than a window looks like a temporary ban (the spec allows one), not a limit: not judged.
 */
function throttledFirst(s429: Sample, idle: Sample | undefined, o: JudgeOptions): Judgement {
  const wait = signals(s429).waitMs;
  const banned = wait !== undefined && wait > o.windowMs + o.toleranceMs;
  if (idle && !isDailyThrottle(s429, o) && !banned)
    return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
      ok: false,
      fail: 'before-any-use',
      message: `${n(s429)} was answered 429 although nothing had been sent on the key for ${fmtMs(s429.sentAt - idle.t)}, more than one ${fmtMs(o.windowMs)} window (${n(idle)}, the first request, had been refused as well); ${describe429(s429)}`,
    });
  return RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
    outcome: 'skip',
    title: banned ? 'banned' : 'already-throttled',
    message: banned
      ? `${n(s429)} was answered 429 asking to wait ${fmtMs(wait)}, more than a window: the key seems banned for a while`
      : `${n(s429)}, the first request, was answered 429: the key was already at its limit`,
  });
}

/** RL-CEILING-429: the first 429 comes exactly when Remaining said. */
function ceilingJudgement(c: CeilingView, stopped?: string): Judgement | undefined {
  const { f, o } = c;
  const s429 = f.first429;
  if (!s429)
    return noCeiling(
      f,
      o,
      stopped,
      f.seq.filter(isSuccess).some((x) => rem(x) === undefined),
    );
  if (c.predicted)
    return RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
      ok: !c.planShort,
      fail: 'before-plan-limit',
      message: c.planShort
        ? `${n(s429)} was answered 429 after Remaining reached 0, but only ${f.inWindow} requests were counted in a fresh window; plan ${o.plan} allows ${o.limit}`
        : `${n(s429)} was answered 429 right after Remaining reached 0, as predicted (${f.inWindow} successes in the window${f.fresh ? `, plan ${o.plan} allows ${o.limit}` : ''}${c.shared})`,
    });
  if (!c.successes) return undefined;
  if (f.minRemaining === undefined) {
    // No success said Remaining (RL-HEADERS-PRESENT fails that): nothing predicted the 429, so it is judged by the count.
    const why = `${n(s429)} was answered 429 after ${f.inWindow} successes, with no X-RateLimit-Remaining to predict it`;
    return f.inWindow === o.limit
      ? RATE_LIMIT_LOAD.judge('RL-CEILING-429', { ok: true, pass: 'at-limit', message: `${why}; plan ${o.plan} allows ${o.limit}` })
      : RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
          outcome: 'skip',
          title: 'no-remaining',
          message: `${why}; plan ${o.plan} allows ${o.limit}, and where the window began cannot be told`,
        });
  }
  return RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
    ok: false,
    message: `${n(s429)} was answered 429 after ${f.inWindow} successes while Remaining said ${c.said}${c.planShort ? ` (plan ${o.plan} allows ${o.limit})` : ''}`,
  });
}

/**
 * RL-CEILING-429 when no 429 came: failed only for a request served beyond the limit. Where the windows began
 * cannot be told (`untold`: successes without Remaining, or Remaining counting the day), only more than twice
 * the limit within one window's span — which overlaps at most two fixed windows — is certainly beyond it. Else
 * the ceiling was not reached (a slow client or server, a window that rolled over first, a request answered
 * otherwise): not judged, never blamed, and said in one line when the latency explains it.
 */
function noCeiling(f: CeilingFacts, o: JudgeOptions, stopped: string | undefined, untold: boolean): Judgement {
  const most = maxInSpan(f.seq, o.windowMs).count;
  const over = untold ? most > 2 * o.limit : f.inWindow - f.refilled > o.limit;
  const refilled = f.refilled ? ` (${f.refilled} of them in slots the limiter freed)` : '';
  const why = f.unpredicted
    ? `${n(f.unpredicted)} succeeded although an earlier response said Remaining 0`
    : over && untold
      ? `${most} requests succeeded within one ${fmtMs(o.windowMs)} span, more than twice plan ${o.plan}'s ${o.limit}: more than ${o.limit} in a window it overlaps`
      : over
        ? `${f.inWindow} requests in one window succeeded${refilled}, more than plan ${o.plan}'s ${o.limit}`
        : f.other
          ? `${n(f.other)} was answered ${f.other.status}`
          : `no 429 within ${f.seq.length} requests${stopped ? ` (${stopped})` : ''}`;
  if (f.unpredicted || over)
    return RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
      ok: false,
      fail: 'no-429',
      message: `${why}; a request beyond the limit must be answered 429`,
    });
  const last = f.seq.filter(isSuccess).pop();
  const one = last ? unorderable(last, o) : '';
  return (
    (!f.other && tooSlowForLimit(f.seq, o, one ? ` (one at a time: ${one})` : '')) ||
    RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
      outcome: 'skip',
      title: 'not-reached',
      message: `${why}: the limit was not reached, so the ceiling was not judged`,
    })
  );
}

/** No 429 came: what a 429 must carry could not be judged — said with the real reason, not "no scenario ran". */
function noThrottle(sent: number): Judgement[] {
  const init = {
    outcome: 'skip',
    title: 'no-429',
    message: `the ceiling got no 429 within ${sent} requests, so what a 429 carries could not be judged`,
  } as const;
  return (['RL-429-RETRY-AFTER', 'RL-429-REMAINING-ZERO', 'RL-429-ERROR-BODY'] as const)
    .map((id) => RATE_LIMIT_HEADERS.judge(id, init))
    .concat(RATE_LIMIT_LOAD.judge('RL-RETRY-AFTER-CONSISTENT', init), RATE_LIMIT_LOAD.judge('RL-BAN-EARNED', init));
}

function describe429(s: Sample): string {
  const sig = signals(s);
  return `it said Remaining ${sig.remaining === undefined ? 'absent' : sig.remaining}, ${sig.waitMs === undefined ? 'no usable Retry-After' : `a wait of ${fmtMs(sig.waitMs)}`}`;
}

/** Headers counting the day: Remaining cannot predict the per-minute 429, so the successes before it are what is judged. */
function judgeByCount(f: CeilingFacts, successes: number, o: JudgeOptions, stopped?: string): Judgement[] {
  const s429 = f.first429;
  const why = `the rate-limit headers count the day (Limit ${o.perDay}), so Remaining cannot predict the per-minute 429`;
  if (!s429)
    return [
      RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', { ok: true, message: `none of ${f.seq.length} requests was throttled` }),
      noCeiling(f, o, stopped, true),
    ];
  return [
    successes >= o.limit
      ? RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
          ok: true,
          message: `${successes} successes before the first 429; plan ${o.plan} allows ${o.limit}`,
        })
      : RATE_LIMIT_LOAD.judge('RL-NOT-EARLY', {
          outcome: 'skip',
          title: 'counts-day',
          message: `${n(s429)} was answered 429 after ${successes} successes; ${why}, nor tell where the window began`,
        }),
    RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
      ok: true,
      pass: 'at-limit',
      message: `${n(s429)} was answered 429 after ${successes} successes (plan ${o.plan} allows ${o.limit} per window); ${why}`,
    }),
  ];
}
