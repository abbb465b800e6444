/**
 * A lane of the orchestrator (orchestrator.ts): the jobs of one key, the state of that key (and of any key a job has to
 * itself), and what happens to the lane after each of its scenarios — the report kept, a second attempt of a scenario
 * whose client fell short of its rate, or the lane's end with every scenario left named as not run, with the reason
 * and the flag that would let it run.
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import type { KeyState, LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { cost, shortfallOf } from '../lib/load-shapes.ts';
import { jobOptions, type EngineResult, type LoadJob } from './engine.ts';
import type { OrchestratorOptions } from './orchestrator.ts';

export type StopKind = 'max-wait' | 'deadline' | 'unreachable' | 'interrupted';

export interface NotRun {
  scenario: ScenarioName;
  reason: string;
  remedy?: string;
}

export interface Orchestrated {
  reports: LoadReport[];
  notRun: NotRun[];
  /** Why the run ended before its last scenario, if it did. */
  stopped?: { kind: StopKind; reason: string };
  unreachable?: string;
}

/** What a lane's end and its results need of the run: its clock, its interruption, where the reports and waits go. */
export type LaneHooks = Pick<OrchestratorOptions, 'clock' | 'signal' | 'onWait' | 'onReport'>;

const REMEDY: Record<StopKind, string | undefined> = {
  'max-wait': 'let the run wait longer: --max-wait-ms N (or ANIMAL_STORE_MAX_WAIT_MS)',
  deadline: 'give the run more time: --deadline-ms N (or ANIMAL_STORE_DEADLINE_MS)',
  unreachable: undefined,
  interrupted: undefined,
};

export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Why a scenario after the one the run stopped before was not run. */
const notReachedAfter = (scenario: ScenarioName, before: ScenarioName, reason: string) =>
  `${scenario} was not reached: the run stopped before ${before} (${reason})`;

export interface Lane {
  jobs: readonly LoadJob[];
  /** The report of a first attempt whose client fell short of its rate, while the scenario runs again. */
  firstAttempt?: LoadReport;
  /** The window that first attempt ran in (its second may run in a longer one: OrchestratorOptions.widen). */
  firstWindowMs?: number;
  /** The job of that second attempt. */
  retryJob?: LoadJob;
  key: KeyState;
  out: Orchestrated;
  done: boolean;
  /** Requests sent on the lane's key so far: what the run sent before (the conformance run), then each scenario's. */
  sent: number;
  /** A scenario of the lane got a 429 on its key: what follows is sent after a 429 (a ban may be earned). */
  throttled?: boolean;
  /** The state of each key a job of the lane has to itself (LoadJob.ownKey: the embedded server's daily key), by key. */
  own: Map<string, KeyUse>;
}

/** What the orchestrator keeps of one key: its state, the requests sent on it, whether a 429 came on it. */
export type KeyUse = Pick<Lane, 'key' | 'sent' | 'throttled'>;

/** The key `job` sends on: the lane's, or one the job has to itself (nothing sent on it before, its own state). */
export function keyOf(l: Lane, job: LoadJob): KeyUse {
  if (!job.ownKey) return l;
  let use = l.own.get(job.apiKey);
  if (!use) l.own.set(job.apiKey, (use = { key: {}, sent: 0 }));
  return use;
}

/** The job as it runs: the daily scenario learns how many requests the run sent on its key before it. */
export const withEarlier = (job: LoadJob, sent: number): LoadJob => (job.scenario === 'daily' ? { ...job, earlierRequests: sent } : job);

/** The job as it runs on a lane whose key got no 429 yet: a ban on its first 429 was not earned. */
export const withHistory = (job: LoadJob, l: Pick<KeyUse, 'throttled'>): LoadJob => (l.throttled ? job : { ...job, noEarlier429: true });

/** Why a lane ends (`kind`, `reason`), the step `from` which its scenarios are not run, and how the later ones are named. */
export interface LaneStop {
  kind: StopKind;
  reason: string;
  from: number;
  notReached?: typeof notReachedAfter;
}

/** Step i of a lane's scenarios, its attempt, and what the run's budget leaves for second attempts. */
export interface Step {
  i: number;
  attempt: number;
  retry: { budget: number };
}

/**
 * End a lane: the scenarios from `from` on are not run, each named in its own reason — the first one with why the run
 * stopped before it, the later ones as not reached (never "no time for overload" on the daily scenario). A first
 * attempt waiting to run again is reported as it is.
 */
export function stopLane(lane: Lane, { kind, reason, from, notReached = notReachedAfter }: LaneStop, o: LaneHooks): void {
  lane.out.stopped = { kind, reason };
  lane.done = true;
  const first = lane.firstAttempt;
  lane.firstAttempt = lane.retryJob = undefined;
  if (first) {
    const report = {
      ...first,
      notes: [...(first.notes ?? []), `Its client fell short of the scenario's rate; it was not run again: ${reason}.`],
    };
    lane.out.reports.push(report);
    if (o.onReport) o.onReport(report);
  }
  const left = lane.jobs.slice(first ? from + 1 : from);
  for (const j of left)
    lane.out.notRun.push({
      scenario: j.scenario,
      reason: j === left[0] ? reason : notReached(j.scenario, left[0].scenario, reason),
      remedy: REMEDY[kind],
    });
}

/**
 * What a lane keeps of its scenario's result: the requests sent and the key's state; then either a second attempt
 * (true: the lane runs the scenario again) or the report, and the lane's end when the target was unreachable or
 * the run interrupted.
 */
export function settleLane(l: Lane, { job, r }: { job: LoadJob; r: EngineResult }, step: Step, o: LaneHooks): boolean {
  const use = keyOf(l, job);
  use.sent += r.report.requestsSent;
  if (r.report.timeline.some((p) => p.status === 429)) use.throttled = true;
  keepKeyState(use.key, r.report.key || {});
  const earlier = l.firstAttempt;
  l.firstAttempt = l.retryJob = undefined;
  if (!r.unreachable && !o.signal?.aborted && tryAgain(job, r.report, step, o)) {
    l.firstAttempt = r.report;
    l.firstWindowMs = job.windowMs;
    l.retryJob = { ...job, freshDay: true };
    return true;
  }
  const report = earlier ? secondAttempt(earlier, r.report, [l.firstWindowMs ?? job.windowMs, job.windowMs]) : r.report;
  l.out.reports.push(report);
  if (o.onReport) o.onReport(report);
  if (r.unreachable) {
    l.out.unreachable = r.unreachable;
    stopLane(l, { kind: 'unreachable', reason: `target unreachable: ${r.unreachable}`, from: step.i + 1 }, o);
  } else if (o.signal?.aborted) stopLane(l, { kind: 'interrupted', reason: 'the run was interrupted', from: step.i + 1 }, o);
  return false;
}

/** The key's state after a scenario: the latest block and response, the last refused wait and latency. */
function keepKeyState(key: KeyState, k: KeyState): void {
  if (k.blockedUntil !== undefined) key.blockedUntil = Math.max(key.blockedUntil || 0, k.blockedUntil);
  if (k.lastResponseAt !== undefined) key.lastResponseAt = Math.max(key.lastResponseAt || 0, k.lastResponseAt);
  if (k.waitRefusedMs !== undefined) key.waitRefusedMs = k.waitRefusedMs;
  if (k.latencyMs !== undefined) key.latencyMs = k.latencyMs;
}

/**
 * Whether a scenario whose client fell short of its rate (a busy machine: nothing found, a MUST not judged for
 * lack of load) runs again: at most the job's retries, within what the run's budget leaves beyond every
 * scenario's caps, and with the scenario's whole time cap before the deadline.
 */
function tryAgain(job: LoadJob, r: LoadReport, { attempt, retry }: Pick<Step, 'attempt' | 'retry'>, o: LaneHooks): boolean {
  if (attempt >= (job.retries ?? 0)) return false;
  const short = shortfallOf(job.scenario, r.judgements);
  if (!short) return false;
  const c = cost(job.scenario, jobOptions(job));
  const day = job.nextDayAt ? job.dayMs : 0; // the second attempt starts on a fresh quota day
  if (c.maxRequests > retry.budget || o.clock.now() + day + c.maxMs > job.deadlineAt) return false;
  retry.budget -= c.maxRequests;
  if (o.onWait) o.onWait(`${job.scenario} (${job.plan}) once more: the client fell short of its rate (${short.message})`);
  return true;
}

/**
 * The report of a second attempt, which replaces the first: it says why the first did not count, counts its requests,
 * and names both windows when the second ran in a longer one.
 */
function secondAttempt(first: LoadReport, second: LoadReport, [was, is]: [number, number]): LoadReport {
  const short = shortfallOf(first.scenario, first.judgements) as Judgement;
  const took = durationMs(first);
  const longer = is !== was ? ` This one ran in a ${is / 1000} s window, the first in ${was / 1000} s.` : '';
  const note = `Second attempt: a first one (${first.startedAt}, ${first.requestsSent} requests over ${(took / 1000).toFixed(1)} s, counted here) fell short of the scenario's rate — ${short.requirement}: ${short.message}. The embedded server shares this machine with the client, whose lag is no finding about the server; nothing else was found in it.${longer}`;
  return { ...second, requestsSent: second.requestsSent + first.requestsSent, notes: [note, ...(second.notes ?? [])] };
}

const durationMs = (r: LoadReport) => Date.parse(r.endedAt) - Date.parse(r.startedAt);
