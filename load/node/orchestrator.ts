/**
 * The one scenario orchestrator, the same for both engines: it runs the jobs of
 * one key in order and owns the key's safety between them. Before a scenario it
 * waits out whatever the previous one left running on the key — a Retry-After
 * (from the Node engine's guard, or read from the k6 bundle's report), a fresh
 * window before a paced scenario. A wait longer than --max-wait-ms, or one that
 * would pass the run's deadline, ends the run at once: the scenarios left are
 * "not run" with the reason and the flag that would let them run — never a hang.
 */
import type { KeyState, LoadReport } from '../../src/core/load-report.ts';
import { SCENARIO_INFO, type ScenarioName } from '../../src/core/scenarios.ts';
import { jobOptions, type LoadEngine, type LoadJob } from './engine.ts';
import { sleep, type Clock } from './clock.ts';

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

export interface OrchestratorOptions {
  engine: LoadEngine;
  clock: Clock;
  signal?: AbortSignal;
  /** One line each time the orchestrator waits on the key (what for, how long). */
  onWait?: (line: string) => void;
  /** Called after each scenario (write its report, print its line). */
  onReport?: (report: LoadReport) => void;
}

const REMEDY: Record<StopKind, string | undefined> = {
  'max-wait': 'let the run wait longer: --max-wait-ms N (or ANIMAL_STORE_MAX_WAIT_MS)',
  deadline: 'give the run more time: --deadline-ms N (or ANIMAL_STORE_DEADLINE_MS)',
  unreachable: undefined,
  interrupted: undefined,
};

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** How long the key must rest before `job` starts, and why. */
export function restBefore(job: LoadJob, key: KeyState, now: number): { ms: number; why: string } {
  let ms = 0;
  let why = '';
  if (key.blockedUntil !== undefined && key.blockedUntil > now) {
    ms = key.blockedUntil - now;
    why = 'the Retry-After (or backoff) of the last 429';
  }
  // The daily scenario spends a whole day's quota: on a target whose days are known (the embedded server), from a fresh day.
  if (job.scenario === 'daily' && job.nextDayAt && key.lastResponseAt !== undefined) {
    const day = job.nextDayAt(now) + jobOptions(job).jitterMs - now;
    if (day > ms) {
      ms = day;
      why = 'a fresh quota day (the earlier requests counted against this one)';
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

/** Run the jobs of one key in order. */
export async function orchestrate(jobs: readonly LoadJob[], o: OrchestratorOptions): Promise<Orchestrated> {
  const out: Orchestrated = { reports: [], notRun: [] };
  const key: KeyState = {};
  const stop = (kind: StopKind, reason: string, from: number) => {
    out.stopped = { kind, reason };
    for (const j of jobs.slice(from)) out.notRun.push({ scenario: j.scenario, reason, remedy: REMEDY[kind] });
  };
  for (let i = 0; i < jobs.length; i++) {
    const job = jobs[i];
    if (o.signal?.aborted) {
      stop('interrupted', 'the run was interrupted', i);
      break;
    }
    if (key.waitRefusedMs !== undefined) {
      stop(
        'max-wait',
        `the key must rest ${secs(key.waitRefusedMs)} (the last 429 asked for it), more than the ${secs(job.maxWaitMs)} this run waits`,
        i,
      );
      break;
    }
    const now = o.clock.now();
    const rest = restBefore(job, key, now);
    if (rest.ms > job.maxWaitMs) {
      stop(
        'max-wait',
        `${job.scenario} would first wait ${secs(rest.ms)} for ${rest.why}, more than the ${secs(job.maxWaitMs)} this run waits`,
        i,
      );
      break;
    }
    if (now + rest.ms >= job.deadlineAt) {
      stop(
        'deadline',
        `the run deadline leaves no time for ${job.scenario}${rest.ms ? ` after waiting ${secs(rest.ms)} for ${rest.why}` : ''}`,
        i,
      );
      break;
    }
    if (rest.ms > 0) {
      if (o.onWait) o.onWait(`waiting ${secs(rest.ms)} before ${job.scenario} (${job.plan}): ${rest.why}`);
      await sleep(o.clock, rest.ms, o.signal);
      if (o.signal?.aborted) {
        stop('interrupted', 'the run was interrupted', i);
        break;
      }
    }
    const r = await o.engine.run(job, o.signal);
    out.reports.push(r.report);
    if (o.onReport) o.onReport(r.report);
    const k = r.report.key || {};
    if (k.blockedUntil !== undefined) key.blockedUntil = Math.max(key.blockedUntil || 0, k.blockedUntil);
    if (k.lastResponseAt !== undefined) key.lastResponseAt = Math.max(key.lastResponseAt || 0, k.lastResponseAt);
    if (k.waitRefusedMs !== undefined) key.waitRefusedMs = k.waitRefusedMs;
    if (r.unreachable) {
      out.unreachable = r.unreachable;
      stop('unreachable', `target unreachable: ${r.unreachable}`, i + 1);
      break;
    }
    if (o.signal?.aborted) {
      stop('interrupted', 'the run was interrupted', i + 1);
      break;
    }
  }
  return out;
}
