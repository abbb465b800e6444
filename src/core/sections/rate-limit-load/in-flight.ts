/**
 * Little's law over a run's own samples: how long the server took to answer,
 * how many requests the run held in flight (on average: the sum of the
 * latencies over the span; at most: the largest overlap), and how many a
 * plan's limit needs in flight to be reached within one window at that
 * latency (limit × latency ÷ window). When a ceiling was not reached because
 * the run could not hold that many, the user is told so in one line, with what
 * would exercise it, instead of a bare "not reached". Pure (bundled for k6).
 *
 * `held`: why the run held so few, when the rule knows (headers that cannot
 * order requests in flight keep it to one at a time).
 */
import type { Judgement } from '../../sections/define.ts';
import { RATE_LIMIT_LOAD } from './requirements.ts';
import type { JudgeOptions, Sample } from '../../sample.ts';
import { fmtMs } from './signals.ts';

export interface Concurrency {
  /** Responses measured (transport failures left out). */
  answered: number;
  /** Mean time from sending a request to its response, ms. */
  meanLatencyMs: number;
  /** Requests in flight on average over the run's span (Little's law: rate × latency), and at most. */
  heldAvg: number;
  heldMax: number;
  /** From the first request sent to the last response, ms. */
  spanMs: number;
}

export function concurrencyOf(samples: readonly Sample[]): Concurrency | undefined {
  const answered = samples.filter((s) => s.status !== 0);
  if (!answered.length) return undefined;
  const total = answered.reduce((sum, s) => sum + Math.max(0, s.t - s.sentAt), 0);
  const from = Math.min(...answered.map((s) => s.sentAt));
  const to = Math.max(...answered.map((s) => s.t));
  // The largest overlap: +1 at each send, -1 at each response (responses first at a tie).
  const edges = answered
    .map((s) => [s.sentAt, 1])
    .concat(answered.map((s) => [Math.max(s.t, s.sentAt), -1]))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let heldMax = 0;
  for (const e of edges) heldMax = Math.max(heldMax, (now += e[1]));
  return {
    answered: answered.length,
    meanLatencyMs: total / answered.length,
    heldAvg: to > from ? total / (to - from) : 1,
    heldMax,
    spanMs: to - from,
  };
}

/** Requests in flight that reach `limit` within one window at this latency (Little's law), at least one. */
export function neededInFlight(o: Pick<JudgeOptions, 'limit' | 'windowMs'>, latencyMs: number): number {
  return Math.max(1, Math.ceil((o.limit * latencyMs) / o.windowMs));
}

/** What the client's own lateness (Sample.lateMs) made of the latency, when it is a noticeable share: a busy machine. */
function lateShare(samples: readonly Sample[], c: Concurrency): string {
  const late = samples.reduce((sum, s) => sum + (s.status !== 0 ? s.lateMs || 0 : 0), 0) / c.answered;
  return late >= 0.2 * c.meanLatencyMs
    ? `; this client itself ran late for ${fmtMs(late)} of each response's time on average (its process off the CPU: a busy machine), so the latency is largely this machine's`
    : '';
}

/**
 * RL-CEILING-429 not judged because the server is too slow for its limit at the concurrency the run held:
 * a whole window passed before the limit was used, and the run held fewer requests in flight on average
 * than the limit needs at the latency measured. Undefined when latency does not explain it.
 */
export function tooSlowForLimit(samples: readonly Sample[], o: JudgeOptions, held = ''): Judgement | undefined {
  const c = concurrencyOf(samples);
  if (!c || c.spanMs < o.windowMs) return undefined;
  const needed = neededInFlight(o, c.meanLatencyMs);
  if (c.heldAvg >= needed) return undefined;
  return RATE_LIMIT_LOAD.judge('RL-CEILING-429', {
    outcome: 'skip',
    title: 'too-slow',
    message: `responses took ${fmtMs(c.meanLatencyMs)} on average (${c.answered} of them): reaching ${o.limit} in one ${fmtMs(o.windowMs)} window needs ${needed} in flight (Little's law); this run held ${c.heldAvg.toFixed(1)} on average, ${c.heldMax} at most${held}${lateShare(samples, c)}`,
    remedy: `responses within ${fmtMs((c.heldMax * o.windowMs) / o.limit)} on average (at the ${c.heldMax} in flight this run held at most)`,
  });
}
