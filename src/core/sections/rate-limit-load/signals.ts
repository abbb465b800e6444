/**
 * What a recorded sample says about the rate limit: the X-RateLimit-* numbers,
 * the Retry-After wait, success or throttling. Pure; shared by the scenario
 * decisions and the verdicts, so both read a response the same way.
 */
import { header, parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate, type RetryAfter } from '../../ratelimit.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import type { TimelinePoint } from '../../timeline.ts';

export const isSuccess = (s: Sample): boolean => s.status >= 200 && s.status < 300;
export const isThrottled = (s: Sample): boolean => s.status === 429;

export interface Signals {
  limit?: number;
  remaining?: number;
  /** X-RateLimit-Reset as sent (Unix seconds if the server is right). */
  reset?: number;
  resetRaw?: string;
  retryAfter: RetryAfter;
  /** The server's Date header (epoch ms), if valid. */
  date?: number;
  /** How long Retry-After asks to wait from the moment the response arrived, if usable. */
  waitMs?: number;
}

const cache = new WeakMap<Sample, Signals>();

export function signals(s: Sample): Signals {
  const hit = cache.get(s);
  if (hit) return hit;
  const rl = readRateLimit(s.headers);
  const retryAfter = parseRetryAfter(header(s.headers, 'retry-after'));
  const date = serverDate(s.headers);
  const sig: Signals = {
    limit: rl.limit,
    remaining: rl.remaining,
    reset: rl.reset,
    resetRaw: rl.resetRaw,
    retryAfter,
    date,
    waitMs: retryAfterDelayMs(retryAfter, s.t, date),
  };
  cache.set(s, sig);
  return sig;
}

/** The reference instant of a response for absolute headers: its Date, else the local receive time. */
export function refTime(s: Sample): number {
  const d = signals(s).date;
  return d !== undefined ? d : s.t;
}

/** ms until X-RateLimit-Reset, measured from the response's own Date (clock skew does not matter). */
export function resetInMs(s: Sample): number | undefined {
  const r = signals(s).reset;
  return r === undefined ? undefined : r * 1000 - refTime(s);
}

/**
 * Is `cur` the first response of a new window after `prev` (both sequential
 * successes)? Remaining did not fall while Reset moved later: a fixed window
 * rolled over (or a sliding one freed slots). Equal Remaining counts when Reset
 * moved: the first request of a window says Limit - 1, as the previous window's
 * first one did. Without Reset, only Remaining going back up does.
 */
export function isRollover(prev: Sample, cur: Sample): boolean {
  const a = signals(prev);
  const b = signals(cur);
  if (a.remaining === undefined || b.remaining === undefined) return false;
  if (b.remaining < a.remaining) return false;
  // Equal Remaining with a later Reset is a rollover only as the first request of a window (Limit - 1, as the previous
  // window's first said); elsewhere it is a refilling limiter (a token bucket's Reset moves on with every request).
  if (a.reset !== undefined && b.reset !== undefined)
    return b.reset > a.reset && (b.remaining > a.remaining || (b.limit !== undefined && b.remaining === b.limit - 1));
  return b.remaining > a.remaining && cur.t >= prev.t;
}

/**
 * Is `cur` the first response of a new window after `prev`, as a run sees responses arrive, given the Remaining
 * values the current window has said (`said`)? isRollover, except for a Reset one second later with a Remaining
 * the window has not said: the same reset rounded per response ("now + seconds left"), on a request counted before
 * `prev` and answered after it — as windowIndex groups them; a new window counts down from the top again, repeating
 * values. Taking such a response for a new window would raise the budget to its Remaining while the window's lower
 * one stands: requests beyond the limit in flight. Taking a new window for the old one only keeps the budget low.
 */
export function startsWindow(prev: Sample, cur: Sample, said: ReadonlySet<number>): boolean {
  if (!isRollover(prev, cur)) return false;
  const a = signals(prev).reset;
  const b = signals(cur);
  return !(isUnixReset(a) && isUnixReset(b.reset) && b.reset - a === 1 && b.remaining !== undefined && !said.has(b.remaining));
}

/**
 * A refilling limiter (sliding log, token bucket) freed a slot between two
 * sequential successes of one window: Remaining did not fall and is above 0,
 * with no rollover. A server that ignores its limit says Remaining 0 instead.
 * Sequential: `cur` was sent once `prev`'s response had arrived — two requests
 * in flight together may be counted in either order, which says nothing of a release.
 */
export function isRelease(prev: Sample, cur: Sample): boolean {
  const a = signals(prev).remaining;
  const b = signals(cur).remaining;
  return a !== undefined && b !== undefined && b > 0 && b >= a && cur.seq > prev.seq && cur.sentAt >= prev.t && !isRollover(prev, cur);
}

/**
 * Do these successes of one window announce Resets more than a second apart (a
 * limiter that refills, not a fixed window)? Two neighbouring seconds are one
 * reset rounded per response ("now + seconds left").
 */
export function movingReset(samples: readonly Sample[]): boolean {
  let lo: number | undefined;
  let hi: number | undefined;
  for (const s of samples) {
    const r = signals(s).reset;
    if (r === undefined) continue;
    lo = lo === undefined ? r : Math.min(lo, r);
    hi = hi === undefined ? r : Math.max(hi, r);
  }
  return lo !== undefined && (hi as number) - lo > 1;
}

/** What a window showed of its limiter before a success after Remaining 0 is judged. */
export interface RefillEvidence {
  /** Signs of a limiter that frees slots within the window: releases, a Reset that moves, a success after Remaining 0 with Remaining above 0. */
  refilling: boolean;
  /** Successes of the window up to the one that said Remaining 0. */
  before: number;
}

/** Fewer successes than this before Remaining 0 cannot tell a fixed window from a refilling one. */
export const FEW_TO_TELL = 3;

/**
 * Successes a refilling limiter explains once a response said Remaining 0. With
 * signs of refilling: one for a slot that was almost free, plus the limit's own
 * rate over the longest time the server may have had between the two (from when
 * the Remaining-0 request was sent to when the later response arrived: generous
 * on a slow round trip). Without them: none when the window looked fixed (at
 * least FEW_TO_TELL successes with one Reset: a fixed window that serves one more
 * after Remaining 0 ignores its limit), one when it showed too little to tell (a
 * token bucket met nearly empty). Unlimited once the later request was served
 * after the Reset the Remaining-0 response announced. With signs of refilling, unlimited too within the second before
 * the Reset of the latest response that said Remaining 0 (`lastZero`): a sliding log met one window after a burst
 * frees its slots as fast as the burst took them, each one taken at once (Remaining stays 0), and its Reset, the
 * oldest entry's expiry, is then always within a second.
 */
export function refillAllowance(
  e: RefillEvidence,
  { zero, later, lastZero = zero }: { zero: Sample; later: Sample; lastZero?: Sample },
  o: Pick<JudgeOptions, 'limit' | 'windowMs'>,
): number {
  // Served once the Reset the Remaining-0 response announced had come (by the server's Date, else on arrival): the limit had reset.
  const reset = signals(zero).reset;
  const plausible = isUnixReset(reset);
  if (plausible && refTime(later) >= reset * 1000) return Number.MAX_SAFE_INTEGER;
  const lastReset = signals(lastZero).reset;
  if (e.refilling && isUnixReset(lastReset) && refTime(later) + 1000 >= lastReset * 1000) return Number.MAX_SAFE_INTEGER;
  if (e.refilling) return 1 + Math.floor((Math.max(0, later.t - zero.sentAt) * o.limit) / o.windowMs);
  // Within the second before a Reset rounded to whole seconds, a slot may already be free: too close to tell.
  const close = plausible && refTime(later) + 1000 >= reset * 1000;
  return e.before < FEW_TO_TELL || close ? 1 : 0;
}

/**
 * Does the limiter free slots before the Reset it announced (a token bucket whose
 * Reset is when it is full again)? A success sent, by its own Date, at least 2 s
 * (the rounding of Date and Reset) before the Reset of an earlier response that
 * said Remaining 0; without a Date, by the local clock with `skewMs` more.
 */
export function freesBeforeReset(samples: readonly Sample[], skewMs: number): boolean {
  let zeroResetMs: number | undefined;
  for (const s of bySeq(samples)) {
    const sig = signals(s);
    const margin = 2000 + (sig.date === undefined ? skewMs : 0);
    if (isSuccess(s) && zeroResetMs !== undefined && refTime(s) + margin <= zeroResetMs) return true;
    if (sig.remaining === 0 && isUnixReset(sig.reset)) zeroResetMs = sig.reset * 1000;
  }
  return false;
}

/** Do the headers count the per-day quota (every Limit seen is the plan's per-day number, which differs from its per-minute one)? */
export function countsTheDay(samples: readonly Sample[], o: JudgeOptions): boolean {
  const limits = samples.map((s) => signals(s).limit).filter((x): x is number => x !== undefined);
  return o.perDay !== undefined && o.perDay !== o.limit && limits.length > 0 && limits.every((l) => l === o.perDay);
}

/**
 * Why this response's headers cannot tell in which order requests in flight together were counted (''
 * when they can: Remaining, the plan's Limit and a Unix Reset, from which ceiling-facts.ts orders a
 * window). The ceiling then sends one request at a time.
 */
export function unorderable(s: Sample, o: Pick<JudgeOptions, 'limit' | 'perDay'>): string {
  const sig = signals(s);
  if (sig.remaining === undefined) return 'no X-RateLimit-Remaining';
  if (sig.limit !== o.limit)
    return sig.limit !== undefined && sig.limit === o.perDay
      ? 'Remaining counts the day'
      : `X-RateLimit-Limit ${sig.limit === undefined ? 'absent' : sig.limit}, not the plan's ${o.limit}`;
  return isUnixReset(sig.reset) ? '' : 'no Unix X-RateLimit-Reset';
}

/** Is this X-RateLimit-Reset a Unix timestamp in seconds (not seconds-until-reset, nor milliseconds)? */
export const isUnixReset = (reset: number | undefined): reset is number => reset !== undefined && reset > 1e9 && reset < 1e11;

/**
 * The window of each success, as an index in Reset order. Resets one second
 * apart belong to one window when their Remaining values never repeat: a server
 * that computes Reset as "now + seconds left", each rounded, announces the same
 * reset as two neighbouring seconds, while two real windows each count down from
 * the top and so share Remaining values (a token bucket's or sliding log's
 * Remaining repeats too).
 */
function windowIndex(successes: readonly Sample[]): Map<Sample, number> {
  const byReset = new Map<number, Sample[]>();
  for (const s of successes) {
    const r = signals(s).reset as number;
    byReset.set(r, (byReset.get(r) || []).concat(s));
  }
  const out = new Map<Sample, number>();
  let index = -1;
  let last: number | undefined;
  let seen = new Set<number>();
  for (const r of Array.from(byReset.keys()).sort((a, b) => a - b)) {
    const group = byReset.get(r) as Sample[];
    const rems = group.map((s) => signals(s).remaining as number);
    const distinct = new Set(rems).size === rems.length && rems.every((x) => !seen.has(x));
    if (last === undefined || r !== last + 1 || !distinct) {
      index++;
      seen = new Set<number>();
    }
    for (const x of rems) seen.add(x);
    for (const s of group) out.set(s, index);
    last = r;
  }
  return out;
}

/**
 * Successes in the order the server most likely counted them: by window (by
 * Reset, neighbouring seconds of one rounded reset together), then by falling
 * Remaining. Requests in flight together may reach the server out of send
 * order — across a window boundary too. Without a Unix Reset on every response
 * (none, or seconds until the reset, which falls as time passes), the send order.
 */
export function serverOrder(successes: readonly Sample[]): Sample[] {
  if (successes.some((x) => !isUnixReset(signals(x).reset) || signals(x).remaining === undefined)) return bySeq(successes);
  const win = windowIndex(successes);
  return successes
    .slice()
    .sort(
      (a, b) =>
        (win.get(a) as number) - (win.get(b) as number) ||
        (signals(b).remaining as number) - (signals(a).remaining as number) ||
        a.seq - b.seq,
    );
}

/** The samples sorted by the order they were sent. */
export function bySeq(samples: readonly Sample[]): Sample[] {
  return samples.slice().sort((a, b) => a.seq - b.seq);
}

export function fmtMs(ms: number): string {
  if (!isFinite(ms)) return String(ms);
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

export function describeRetryAfter(ra: RetryAfter): string {
  if (ra.kind === 'absent') return 'no Retry-After';
  if (ra.kind === 'invalid') return `Retry-After ${JSON.stringify(ra.raw)} (neither delay-seconds nor an HTTP-date)`;
  return `Retry-After: ${ra.raw}`;
}

/** One timeline point of the chart. */
export function timelinePoint(s: Sample, startedAt: number): TimelinePoint {
  const sig = signals(s);
  const p: TimelinePoint = { t: Math.max(0, s.t - startedAt), status: s.status };
  if (sig.remaining !== undefined) p.remaining = sig.remaining;
  if (sig.limit !== undefined) p.limit = sig.limit;
  if (sig.reset !== undefined) p.reset = sig.reset;
  if (s.status === 429 && sig.waitMs !== undefined) p.retryAfter = Math.round(sig.waitMs / 100) / 10;
  return p;
}
