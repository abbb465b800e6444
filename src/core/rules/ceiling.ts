/**
 * Judgements of the ceiling phase (scenarios ceiling and recovery): Remaining
 * falls by one per request, no 429 before the limit, the first 429 exactly when
 * Remaining said (what every response and every 429 must carry is judged by the
 * per-response rules of response.ts, on every sample). Pure functions of the recorded samples.
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
import { judge as verdict, skip as skipped, type Judgement } from '../judgement.ts';
import type { JudgeOptions, Sample } from '../sample.ts';
import { judgeDecrements, type Step } from './decrements.ts';
import { about, judgeConsistency, judgeTransport, startOf } from './samples.ts';
import {
  bySeq,
  countsTheDay,
  fmtMs,
  freesBeforeReset,
  isRelease,
  movingReset,
  isRollover,
  isSuccess,
  isThrottled,
  refillAllowance,
  serverOrder,
  signals,
} from './signals.ts';
import { isDailyThrottle } from './window.ts';

const n = (s: Sample) => `request #${s.seq + 1}`;
const rem = (s: Sample) => signals(s).remaining;

/** What the ceiling phase showed, per window (split where Remaining went back up with a later Reset). */
export interface CeilingFacts {
  seq: Sample[];
  /** A 429 on the first request, after which nothing was sent for a full window (CeilingPhase); `seq` starts after it. */
  refusedFirst?: Sample;
  first429?: Sample;
  /** Successes in the window of the first 429 (or the last window). */
  inWindow: number;
  /** Did that window start fresh (highest Remaining = Limit - 1)? */
  fresh: boolean;
  /** The success that said Remaining 0 in that window (the prediction). */
  zero?: Sample;
  /** Lowest Remaining seen in that window. */
  minRemaining?: number;
  /** Consecutive Remaining values (sorted, per window), for the decrement verdict. */
  steps: Step[];
  /** Pairs of those values that are not one apart. */
  badSteps: Array<[Sample, Sample]>;
  /** In that window, requests Remaining counted beyond one per step (another client, if the decrements are sound). */
  extra: number;
  /** A success sent after a response had said Remaining 0 (and not explained by a refilling limiter). */
  unpredicted?: Sample;
  /** In that window, successes a refilling limiter (sliding log, token bucket) explains beyond the limit. */
  refilled: number;
  /** A window showed a limiter that refills (a Reset that moves, slots free again after Remaining 0). */
  refilling?: boolean;
  other?: Sample;
}

function windowFacts(win: Sample[], f: CeilingFacts, o: JudgeOptions): void {
  const zero = win.filter((x) => rem(x) === 0).sort((a, b) => a.t - b.t)[0];
  const after = (x: Sample) => zero !== undefined && x.seq > zero.seq && x.sentAt >= zero.t; // sent once Remaining 0 was known
  // A refilling limiter frees slots within the window: releases before Remaining 0, refills after it.
  const sent = bySeq(win);
  let releases = 0;
  let afterZero = 0;
  f.refilled = 0;
  // A Reset that moves within the window (a token bucket's "full again", a sliding log's oldest request), or a success after
  // Remaining 0 that says slots are free again, shows a refilling limiter too.
  const moving = movingReset(win) || win.some((x) => after(x) && (rem(x) ?? 0) > 0);
  const before = win.filter((x) => !after(x)).length;
  if (moving) f.refilling = true;
  for (let i = 1; i < sent.length; i++) {
    const x = sent[i];
    if (after(x) && (rem(x) ?? 0) > 0)
      f.refilled++; // the server says slots are free again: within the limit by its own count
    else if (after(x)) {
      if (++afterZero <= refillAllowance({ refilling: releases > 0 || moving, before }, zero as Sample, x, o)) f.refilled++;
      else if (!f.unpredicted) f.unpredicted = x;
    } else if (isRelease(sent[i - 1], x)) {
      releases++;
      f.refilled++;
    }
  }
  const counted = win.filter((x) => !after(x) && rem(x) !== undefined).sort((a, b) => (rem(b) as number) - (rem(a) as number));
  f.extra = 0;
  for (let i = 1; i < counted.length; i++) {
    const step = { from: rem(counted[i - 1]) as number, to: rem(counted[i]) as number };
    f.steps.push(step);
    if (step.from - step.to !== 1) f.badSteps.push([counted[i - 1], counted[i]]);
    if (step.from - step.to > 1) f.extra += step.from - step.to - 1;
  }
  f.zero = zero;
  f.inWindow = win.length;
  f.minRemaining = counted.length ? rem(counted[counted.length - 1]) : undefined;
  const head = counted[0];
  const cap = head && signals(head).limit !== undefined ? (signals(head).limit as number) : o.limit;
  f.fresh = !!head && rem(head) === cap - 1;
}

/** The ceiling's first request, if it was refused and the next one was sent only after a full window without sending. */
export function refusedFirst(seq: readonly Sample[], o: JudgeOptions): Sample | undefined {
  const [first, next] = seq;
  return first && next && isThrottled(first) && next.sentAt >= first.t + o.windowMs ? first : undefined;
}

export function ceilingFacts(samples: readonly Sample[], o: JudgeOptions): CeilingFacts {
  const all = bySeq(samples.filter((s) => s.phase === 'ceiling'));
  const refused = refusedFirst(all, o);
  const seq = refused ? all.slice(1) : all;
  const f: CeilingFacts = {
    seq,
    inWindow: 0,
    fresh: false,
    steps: [],
    badSteps: [],
    extra: 0,
    refilled: 0,
    ...(refused ? { refusedFirst: refused } : {}),
  };
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

export function judgeCeiling(samples: readonly Sample[], o: JudgeOptions, stopped?: string): Judgement[] {
  const f = ceilingFacts(samples, o);
  const out: Judgement[] = judgeTransport(f.seq, o);
  const successes = f.seq.filter(isSuccess);
  if (!successes.length && !f.first429)
    return out.concat(
      skipped(
        'RL-CEILING-429',
        'Ceiling not measured',
        f.other
          ? `${n(f.other)} was answered ${f.other.status}; the ceiling could not be measured`
          : `no response to measure the ceiling (${stopped || 'no request'})`,
      ),
    );
  const daily = countsTheDay(successes, o);
  const dec = judgeDecrements(f.steps);
  const shared =
    dec.ok && f.extra > 0
      ? `; ${f.extra} request(s) counted in the window were not this scenario's (another client may be using this key)`
      : '';
  if (f.steps.length > 0 && o.dedicatedKey && dec.ok && f.extra > 0) {
    // A key nothing else uses: what Remaining counted beyond this scenario's requests came from another key (plan).
    const b = f.badSteps.find(([x, y]) => (rem(x) as number) - (rem(y) as number) > 1) || f.badSteps[0];
    out.push(
      verdict(
        'RL-REMAINING-DECREMENTS',
        false,
        'Requests of another key counted on this one',
        `${f.extra} request(s) were counted in the window that this scenario did not send, on a key used by nothing else: the server counts another key's (plan's) requests in this key's bucket; e.g. ${n(b[0])} said ${rem(b[0])}, ${n(b[1])} said ${rem(b[1])}`,
      ),
    );
  } else if (f.steps.length > 0 && !dec.ok && f.refilling && f.steps.every((st) => st.from === st.to)) {
    // Remaining held still while the Reset moved on: the limiter refilled as fast as the requests came, nothing to judge.
    out.push(
      skipped(
        'RL-REMAINING-DECREMENTS',
        'Refilled as fast as sent',
        `X-RateLimit-Remaining stayed at ${rem(f.seq[0]) ?? '?'} over ${f.steps.length + 1} requests while X-RateLimit-Reset moved on: a limiter that refills (token bucket, sliding log) freed a slot for each request, so whether each request is counted could not be seen`,
      ),
    );
  } else if (f.steps.length > 0) {
    const b = f.badSteps[0];
    out.push(
      dec.ok
        ? verdict(
            'RL-REMAINING-DECREMENTS',
            true,
            'Remaining falls by one per request',
            `X-RateLimit-Remaining over ${f.steps.length + 1} requests: ${dec.message}`,
          )
        : verdict(
            'RL-REMAINING-DECREMENTS',
            false,
            'Remaining does not fall by one',
            `${dec.message}; e.g. ${n(b[0])} said ${rem(b[0])}, ${n(b[1])} said ${rem(b[1])}`,
          ),
    );
  }
  const s429 = f.first429;
  if (daily)
    return out.concat(
      judgeByCount(f, successes.length, o, stopped),
      s429
        ? [
            skipped(
              'RL-RETRY-AFTER-CONSISTENT',
              'Not comparable',
              `${n(s429)}: X-RateLimit-Reset announces the end of the day, Retry-After the end of the window`,
            ),
          ]
        : [],
    );
  const predicted = !!s429 && !!f.zero && s429.seq > f.zero.seq && s429.sentAt >= f.zero.t;
  const planShort = f.fresh && f.inWindow + (dec.ok ? f.extra : 0) < o.limit;
  const said = f.minRemaining === undefined ? '(absent)' : String(f.minRemaining);
  // RL-NOT-EARLY: no 429 while Remaining > 0 (when Remaining is trustworthy) nor before the plan's limit.
  if (!s429) out.push(verdict('RL-NOT-EARLY', true, 'No early 429', `none of ${f.seq.length} requests was throttled`));
  else if (!successes.length) {
    const idle = f.refusedFirst;
    // After a full window without a request on the (dedicated) key, no window — fixed or sliding — can be used up; the day's quota asks for a longer wait.
    // A 429 asking to wait longer than a window looks like a temporary ban (the spec allows one), not a limit: not judged.
    const wait = signals(s429).waitMs;
    const banned = wait !== undefined && wait > o.windowMs + o.toleranceMs;
    out.push(
      idle && !isDailyThrottle(s429, o) && !banned
        ? verdict(
            'RL-NOT-EARLY',
            false,
            'Throttled before any use',
            `${n(s429)} was answered 429 although nothing had been sent on the key for ${fmtMs(s429.sentAt - idle.t)}, more than one ${fmtMs(o.windowMs)} window (${n(idle)}, the first request, had been refused as well); ${describe429(s429)}`,
          )
        : skipped(
            'RL-NOT-EARLY',
            banned ? 'Key seems banned' : 'Key already throttled',
            banned
              ? `${n(s429)} was answered 429 asking to wait ${fmtMs(wait!)}, more than a window: the key seems banned for a while`
              : `${n(s429)}, the first request, was answered 429: the key was already at its limit`,
          ),
    );
  } else {
    const byRemaining = !predicted && dec.ok && f.minRemaining !== undefined && f.minRemaining > 0;
    out.push(
      byRemaining || planShort
        ? verdict(
            'RL-NOT-EARLY',
            false,
            'Throttled before the limit',
            `${n(s429)} was answered 429 after ${f.inWindow} successes in the window${byRemaining ? ` while Remaining still said ${said}` : ''}${planShort ? `; plan ${o.plan} allows ${o.limit}` : ''}`,
          )
        : verdict(
            'RL-NOT-EARLY',
            true,
            'No early 429',
            `no 429 while Remaining was above 0 (${f.inWindow} successes in the window before the first 429${shared})`,
          ),
    );
  }
  // RL-CEILING-429: the first 429 comes exactly when Remaining said.
  if (!s429) {
    const why = f.unpredicted
      ? `${n(f.unpredicted)} succeeded although an earlier response said Remaining 0`
      : f.inWindow - f.refilled > o.limit
        ? `${f.inWindow} requests in one window succeeded${f.refilled ? ` (${f.refilled} of them in slots the limiter freed)` : ''}, more than plan ${o.plan}'s ${o.limit}`
        : f.other
          ? `${n(f.other)} was answered ${f.other.status}`
          : `no 429 within ${f.seq.length} requests${stopped ? ` (${stopped})` : ''}`;
    // Only a request served beyond the limit fails; a window that rolled over before the limit was used up (a slow client or
    // server) or a request answered otherwise (401, 5xx) leaves the ceiling not reached: not judged, never blamed.
    if (f.unpredicted || f.inWindow - f.refilled > o.limit)
      out.push(verdict('RL-CEILING-429', false, 'No 429 at the limit', `${why}; a request beyond the limit must be answered 429`));
    else out.push(skipped('RL-CEILING-429', 'Ceiling not reached', `${why}: the limit was not reached, so the ceiling was not judged`));
  } else if (predicted && !planShort) {
    out.push(
      verdict(
        'RL-CEILING-429',
        true,
        '429 exactly when predicted',
        `${n(s429)} was answered 429 right after Remaining reached 0, as predicted (${f.inWindow} successes in the window${f.fresh ? `, plan ${o.plan} allows ${o.limit}` : ''}${shared})`,
      ),
    );
  } else if (predicted) {
    out.push(
      verdict(
        'RL-CEILING-429',
        false,
        "429 before the plan's limit",
        `${n(s429)} was answered 429 after Remaining reached 0, but only ${f.inWindow} requests were counted in a fresh window; plan ${o.plan} allows ${o.limit}`,
      ),
    );
  } else if (successes.length) {
    out.push(
      verdict(
        'RL-CEILING-429',
        false,
        '429 not when predicted',
        `${n(s429)} was answered 429 after ${f.inWindow} successes while Remaining said ${said}${planShort ? ` (plan ${o.plan} allows ${o.limit})` : ''}`,
      ),
    );
  }
  if (s429) out.push(judgeConsistency(s429, o, f.refilled > 0 || freesBeforeReset(samples, o.toleranceMs), startOf(samples)));
  else out.push(...noThrottle(f.seq.length));
  // A failure shows the request that settled it: the unpredicted success, else the 429.
  const culprit = f.unpredicted || s429;
  const start = f.seq.length ? f.seq[0].sentAt : undefined;
  return out.map((j) => (j.outcome === 'fail' && !j.evidence && culprit ? about(j, culprit, o, start) : j));
}

/** No 429 came: what a 429 must carry could not be judged — said with the real reason, not "no scenario ran". */
function noThrottle(sent: number): Judgement[] {
  return ['RL-429-RETRY-AFTER', 'RL-429-REMAINING-ZERO', 'RL-429-ERROR-BODY', 'RL-RETRY-AFTER-CONSISTENT'].map((id) =>
    skipped(id, 'No 429 to judge', `the ceiling got no 429 within ${sent} requests, so what a 429 carries could not be judged`),
  );
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
      verdict('RL-NOT-EARLY', true, 'No early 429', `none of ${f.seq.length} requests was throttled`),
      verdict(
        'RL-CEILING-429',
        false,
        'No 429 at the limit',
        `no 429 within ${f.seq.length} requests (${successes} successes${stopped ? `; ${stopped}` : ''}); plan ${o.plan} allows ${o.limit} per window`,
      ),
    ];
  return [
    successes >= o.limit
      ? verdict('RL-NOT-EARLY', true, 'No early 429', `${successes} successes before the first 429; plan ${o.plan} allows ${o.limit}`)
      : skipped(
          'RL-NOT-EARLY',
          'Not judged',
          `${n(s429)} was answered 429 after ${successes} successes; ${why}, nor tell where the window began`,
        ),
    verdict(
      'RL-CEILING-429',
      true,
      '429 at the limit',
      `${n(s429)} was answered 429 after ${successes} successes (plan ${o.plan} allows ${o.limit} per window); ${why}`,
    ),
  ];
}
