/**
 * What the key's state asks of the next scenario on it: how long the key rests before it starts (a Retry-After,
 * a fresh window, a fresh quota day), and how many k6 VUs the latency the key's last scenario saw needs.
 */
import type { KeyState } from '../../src/core/load-report.ts';
import { SCENARIO_INFO } from '../../src/core/scenarios.ts';
import { MAX_IN_FLIGHT } from '../lib/scenario-options.ts';
import { SCENARIOS } from '../lib/load-shapes.ts';
import { jobOptions, type LoadJob } from './engine.ts';

/**
 * The daily scenario on a key of its own that nothing used yet (the embedded server's daily key), whose current quota day
 * still leaves what the scenario needs of one (with the jitter to spare): the day's whole quota is its own now, and the
 * day cannot end before the quota is spent — no fresh day to wait for.
 */
export function dayLeftEnough(job: LoadJob, key: KeyState, now: number): boolean {
  if (job.scenario !== 'daily' || job.freshDay || !job.ownKey || !job.dayNeededMs || !job.nextDayAt) return false;
  if (key.lastResponseAt !== undefined || key.blockedUntil !== undefined) return false;
  return job.nextDayAt(now) - now - jobOptions(job).jitterMs >= job.dayNeededMs;
}

/**
 * The lane's jobs with its daily scenario brought forward to step `i` when its day is open now (dayLeftEnough: its own
 * unused key, a day that still leaves what it needs) rather than maybe closed when its turn comes: it then waits for no
 * fresh day. Its key is its own, so the other scenarios' keys, rests and verdicts are as they were; never between a
 * ceiling and the recovery that reads its POST back. Undefined: the order stays.
 */
export function dailyBroughtForward(
  jobs: readonly LoadJob[],
  i: number,
  keyOf: (job: LoadJob) => KeyState,
  now: number,
): LoadJob[] | undefined {
  const at = jobs.findIndex((j, k) => k > i && j.scenario === 'daily');
  if (at < 0 || jobs[i].scenario === 'recovery' || !dayLeftEnough(jobs[at], keyOf(jobs[at]), now)) return undefined;
  return [...jobs.slice(0, i), jobs[at], ...jobs.slice(i, at), ...jobs.slice(at + 1)];
}

/** How long the key must rest before `job` starts, and why. */
export function restBefore(job: LoadJob, key: KeyState, now: number): { ms: number; why: string } {
  let ms = 0;
  let why = '';
  if (key.blockedUntil !== undefined && key.blockedUntil > now) {
    ms = key.blockedUntil - now;
    why = 'the Retry-After (or backoff) of the last 429';
  }
  // The daily scenario spends a whole day's quota: on a target whose days are known (the embedded server), from a fresh
  // day — on an unused key of its own, the current day when it leaves enough (dayLeftEnough), else its day may end
  // before the quota is spent.
  // A second attempt too: the day's quota was sized for one attempt of each scenario.
  if ((job.scenario === 'daily' || job.freshDay) && job.nextDayAt && !dayLeftEnough(job, key, now)) {
    const day = job.nextDayAt(now) + jobOptions(job).jitterMs - now;
    if (day > ms) {
      ms = day;
      why =
        job.scenario !== 'daily'
          ? "a fresh quota day (the day's quota was sized for one attempt of each scenario)"
          : key.lastResponseAt !== undefined
            ? 'a fresh quota day (the earlier requests counted against this one)'
            : 'a fresh quota day (the scenario spends a whole one)';
    }
  }
  // A real target's days are not known: a likely fresh day only when waiting for it is allowed (a short --day-ms).
  if (job.scenario === 'daily' && !job.nextDayAt && job.likelyNextDayAt) {
    const day = job.likelyNextDayAt(now) + jobOptions(job).jitterMs - now;
    if (day > ms && day <= job.maxWaitMs && now + day < job.deadlineAt) {
      ms = day;
      why = 'a fresh quota day as the suite counts days (aligned on the epoch), so that the earlier requests likely fall in another';
    }
  }
  // A paced scenario measures from a fresh window: after earlier traffic, wait one window (any window, fixed or sliding, is fresh by then).
  if (!SCENARIO_INFO[job.scenario].singleVu && key.lastResponseAt !== undefined) {
    const o = jobOptions(job);
    const fresh = key.lastResponseAt + job.windowMs + o.jitterMs - now;
    if (fresh > ms) {
      ms = fresh;
      why = 'a fresh window after the earlier requests on the key';
    }
  }
  return { ms: Math.max(0, ms), why };
}

/**
 * VUs a paced scenario needs at the latency the key's last scenario saw (Little's law: its rate × the latency, with
 * half again for jitter), at least the configured --max-vus, at most MAX_IN_FLIGHT: k6's arrival-rate executor drops
 * the iterations no VU is free for, so a slow server would never see the rate offered. The Node engine ignores it
 * (its requests are not tied to VUs): the orchestrator sizes k6 jobs only. Only the sustained pace, which a correct
 * server never answers 429: k6 VUs share no state, so after one VU's 429 the others would send on until their own —
 * retrying early, to a server that bans keys for it. Overload and the daily quota are throttled by design: one VU.
 */
export function vusFor(job: LoadJob, key: KeyState): LoadJob {
  const pace = SCENARIOS[job.scenario].pace;
  if (job.scenario !== 'sustained' || !pace || !key.latencyMs) return job;
  const o = jobOptions(job);
  const needed = Math.min(MAX_IN_FLIGHT, Math.ceil((1.5 * pace(o).perWindow * key.latencyMs) / o.windowMs));
  return needed > job.maxVus ? { ...job, maxVus: needed } : job;
}
