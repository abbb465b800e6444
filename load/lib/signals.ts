/**
 * What a recorded sample says about the rate limit: the X-RateLimit-* numbers,
 * the Retry-After wait, success or throttling. Pure; shared by the scenario
 * decisions and the verdicts, so both read a response the same way.
 */
import { header, parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate, type RetryAfter } from '../../src/core/ratelimit.ts';
import type { Sample, ScenarioOptions, TimelinePoint } from './types.ts';

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

/** Do the headers count the per-day quota (every Limit seen is the plan's per-day number, which differs from its per-minute one)? */
export function countsTheDay(samples: readonly Sample[], o: ScenarioOptions): boolean {
  const limits = samples.map((s) => signals(s).limit).filter((x): x is number => x !== undefined);
  return o.perDay !== undefined && o.perDay !== o.limit && limits.length > 0 && limits.every((l) => l === o.perDay);
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
