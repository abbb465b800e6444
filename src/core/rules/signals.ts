/**
 * What a recorded sample says about the rate limit: the X-RateLimit-* numbers,
 * the Retry-After wait, success or throttling. Pure; shared by the scenario
 * decisions and the verdicts, so both read a response the same way.
 */
import { header, parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate, type RetryAfter } from '../ratelimit.ts';
import type { JudgeOptions, Sample } from '../sample.ts';
import type { TimelinePoint } from '../timeline.ts';

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
  if (a.reset !== undefined && b.reset !== undefined) return b.reset > a.reset;
  return b.remaining > a.remaining && cur.t >= prev.t;
}

/**
 * A refilling limiter (sliding log, token bucket) freed a slot between two
 * sequential successes of one window: Remaining did not fall and is above 0,
 * with no rollover. A server that ignores its limit says Remaining 0 instead.
 */
export function isRelease(prev: Sample, cur: Sample): boolean {
  const a = signals(prev).remaining;
  const b = signals(cur).remaining;
  return a !== undefined && b !== undefined && b > 0 && b >= a && cur.seq > prev.seq && !isRollover(prev, cur);
}

/**
 * Successes a refilling limiter explains once a response said Remaining 0 (at
 * `zeroAt`): one for a slot that was almost free, plus the limit's own rate since
 * then — and none unless the window already showed a release (a fixed window
 * that lets one more through after Remaining 0 has no release to show).
 */
export function refillAllowance(releases: number, zeroAt: number, sentAt: number, o: Pick<JudgeOptions, 'limit' | 'windowMs'>): number {
  return releases > 0 ? 1 + Math.floor((Math.max(0, sentAt - zeroAt) * o.limit) / o.windowMs) : 0;
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
    if (sig.remaining === 0 && sig.reset !== undefined && sig.reset > 1e9 && sig.reset < 1e11) zeroResetMs = sig.reset * 1000;
  }
  return false;
}

/** Do the headers count the per-day quota (every Limit seen is the plan's per-day number, which differs from its per-minute one)? */
export function countsTheDay(samples: readonly Sample[], o: JudgeOptions): boolean {
  const limits = samples.map((s) => signals(s).limit).filter((x): x is number => x !== undefined);
  return o.perDay !== undefined && o.perDay !== o.limit && limits.length > 0 && limits.every((l) => l === o.perDay);
}

/**
 * Successes in the order the server most likely counted them: by Reset, then by
 * falling Remaining. Requests in flight together may reach the server out of
 * send order — across a window boundary too. Without Reset on every response,
 * the send order.
 */
export function serverOrder(successes: readonly Sample[]): Sample[] {
  if (successes.some((x) => signals(x).reset === undefined || signals(x).remaining === undefined)) return bySeq(successes);
  return successes
    .slice()
    .sort(
      (a, b) =>
        (signals(a).reset as number) - (signals(b).reset as number) ||
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
