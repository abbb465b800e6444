/**
 * Counting over the recorded samples of a paced scenario: the most successes
 * within any span of one window, the successes between two instants, and which
 * 429s refuse the day rather than the window. Pure functions.
 */
import type { JudgeOptions, Sample } from '../../sample.ts';
import { isSuccess, isThrottled, signals } from './signals.ts';

/** A request as the judgements name it. */
export const n = (s: Sample) => `request #${s.seq + 1}`;

/** What judges a distributed run as a whole. */
export const MERGE_REMEDY = "merge the run's share reports: npm run load:merge -- <the share files>";

/** Most successes (or, with `keep`, other samples) sent within any span of `spanMs` (two pointers over send times). */
export function maxInSpan(
  samples: readonly Sample[],
  spanMs: number,
  keep: (s: Sample) => boolean = isSuccess,
): { count: number; from?: number } {
  const times = samples
    .filter(keep)
    .map((s) => s.sentAt)
    .sort((a, b) => a - b);
  let best = 0;
  let from: number | undefined;
  let i = 0;
  for (let j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= spanMs) i++;
    if (j - i + 1 > best) {
      best = j - i + 1;
      from = times[i];
    }
  }
  return { count: best, from };
}

/** Successes whose response came after `since` and which were sent before `before` (lenient to latency). */
export function successesBetween(samples: readonly Sample[], since: number, before: number): number {
  return samples.filter((s) => isSuccess(s) && s.t > since && s.sentAt <= before).length;
}

/** A 429 refusing the day's quota rather than the window: it asks to wait beyond one window. */
export function isDailyThrottle(s: Sample, o: JudgeOptions): boolean {
  if (!isThrottled(s)) return false;
  const wait = signals(s).waitMs;
  return wait !== undefined && wait > o.windowMs + o.toleranceMs;
}
