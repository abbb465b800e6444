/**
 * The one scenario orchestrator, the same for both engines: it runs the jobs of
 * one key in order (but a daily scenario on a key of its own, run at the first step
 * its quota day is open: key-rest.ts) and owns the key's safety between them. Before a scenario it
 * waits out whatever the previous one left running on the key — a Retry-After
 * (from the Node engine's guard, or read from the k6 bundle's report), a fresh
 * window before a paced scenario. A wait longer than --max-wait-ms, or one that
 * would pass the run's deadline, ends the run at once: the scenarios left are
 * "not run" with the reason and the flag that would let them run — never a hang.
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import type { KeyState, LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { cost, shortfallOf } from '../lib/load-shapes.ts';
import { jobOptions, type EngineResult, type LoadEngine, type LoadJob } from './engine.ts';
import { sleep, type Clock } from './clock.ts';
import { dailyBroughtForward, restBefore, vusFor } from './key-rest.ts';

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
  /** Requests the run's budget leaves beyond every scenario's caps: what running a scenario again may spend (none without it). */
  retryBudget?: number;
  /** Per lane (one per key, in order): requests the run sent on its key before the scenarios (the conformance run). */
  earlierRequests?: readonly number[];
}

const REMEDY: Record<StopKind, string | undefined> = {
  'max-wait': 'let the run wait longer: --max-wait-ms N (or ANIMAL_STORE_MAX_WAIT_MS)',
  deadline: 'give the run more time: --deadline-ms N (or ANIMAL_STORE_DEADLINE_MS)',
  unreachable: undefined,
  interrupted: undefined,
};

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Why a scenario after the one the run stopped before was not run. */
const notReachedAfter = (scenario: ScenarioName, before: ScenarioName, reason: string) =>
  `${scenario} was not reached: the run stopped before ${before} (${reason})`;

/** Run the jobs of one key in order. */
export async function orchestrate(jobs: readonly LoadJob[], o: OrchestratorOptions): Promise<Orchestrated> {
  return (await orchestrateLanes([jobs], o))[0];
}

interface Lane {
  jobs: readonly LoadJob[];
  /** The report of a first attempt whose client fell short of its rate, while the scenario runs again. */
  firstAttempt?: LoadReport;
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
type KeyUse = Pick<Lane, 'key' | 'sent' | 'throttled'>;

/** The key `job` sends on: the lane's, or one the job has to itself (nothing sent on it before, its own state). */
function keyOf(l: Lane, job: LoadJob): KeyUse {
  if (!job.ownKey) return l;
  let use = l.own.get(job.apiKey);
  if (!use) l.own.set(job.apiKey, (use = { key: {}, sent: 0 }));
  return use;
}

/** The job as it runs: the daily scenario learns how many requests the run sent on its key before it. */
const withEarlier = (job: LoadJob, sent: number): LoadJob => (job.scenario === 'daily' ? { ...job, earlierRequests: sent } : job);

/** The job as it runs on a lane whose key got no 429 yet: a ban on its first 429 was not earned. */
const withHistory = (job: LoadJob, l: Pick<KeyUse, 'throttled'>): LoadJob => (l.throttled ? job : { ...job, noEarlier429: true });

/**
 * A ceiling followed on its key by a recovery leaves its POST at the limit (where writes are allowed) to the recovery:
 * the recovery's probe reads a refused one back at no extra request, while the ceiling's own read-back would cost one
 * request and a Retry-After more, and start the recovery on a window it had already counted in.
 */
export function readBackOnce(jobs: readonly LoadJob[]): LoadJob[] {
  return jobs.map((j, i) =>
    j.scenario === 'ceiling' && j.allowWrites && jobs.slice(i + 1).some((x) => x.scenario === 'recovery')
      ? { ...j, postAtLimit: false }
      : j,
  );
}

/**
 * Run several keys side by side — a lane of jobs per plan, each with its own key:
 * step i runs every lane's i-th scenario as one batch (the k6 engine: one k6
 * process with a k6 scenario per plan; the Node engine: concurrently), after the
 * longest rest any lane's key needs. A lane whose key would have to rest longer
 * than --max-wait-ms stops alone; the deadline and an interruption stop them all.
 */
export async function orchestrateLanes(laneJobs: readonly (readonly LoadJob[])[], o: OrchestratorOptions): Promise<Orchestrated[]> {
  const lanes: Lane[] = laneJobs.map((jobs, i) => ({
    jobs: readBackOnce(jobs),
    key: {},
    out: { reports: [], notRun: [] },
    done: false,
    sent: (o.earlierRequests && o.earlierRequests[i]) || 0,
    own: new Map(),
  }));
  const retry = { budget: o.retryBudget ?? 0 };
  const steps = Math.max(0, ...lanes.map((l) => l.jobs.length));
  // The reports in the order planned, whichever ran first (a daily scenario brought forward).
  const planned = lanes.map((l) => l.jobs.map((j) => j.scenario));
  const outs = () => lanes.map((l, n) => inOrder(l.out, planned[n]));
  for (let i = 0; i < steps; i++) {
    // One lane (a batch is one scenario of every lane): its daily scenario runs now when its day is open now.
    const one = lanes.length === 1 && !lanes[0].done ? lanes[0] : undefined;
    if (one && one.jobs[i]) one.jobs = dailyBroughtForward(one.jobs, i, (j) => keyOf(one, j).key, o.clock.now()) ?? one.jobs;
    let active = lanes.filter((l) => !l.done && l.jobs[i]);
    for (let attempt = 0; active.length; attempt++) {
      const again = await runStep(active, { i, attempt, retry }, o);
      if (again === 'stop') return outs();
      active = again;
    }
  }
  return outs();
}

const inOrder = (out: Orchestrated, order: readonly ScenarioName[]): Orchestrated => ({
  ...out,
  reports: [...out.reports].sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario)),
});

/** Why a lane ends (`kind`, `reason`), the step `from` which its scenarios are not run, and how the later ones are named. */
interface LaneStop {
  kind: StopKind;
  reason: string;
  from: number;
  notReached?: typeof notReachedAfter;
}

/** Step i of a lane's scenarios, its attempt, and what the run's budget leaves for second attempts. */
interface Step {
  i: number;
  attempt: number;
  retry: { budget: number };
}

/**
 * End a lane: the scenarios from `from` on are not run, each named in its own reason — the first one with why the run
 * stopped before it, the later ones as not reached (never "no time for overload" on the daily scenario). A first
 * attempt waiting to run again is reported as it is.
 */
function stopLane(lane: Lane, { kind, reason, from, notReached = notReachedAfter }: LaneStop, o: OrchestratorOptions): void {
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
 * Step i of the active lanes, as one batch, after the longest rest any lane's key needs. Returns the lanes whose
 * scenario is to run again (their client fell short of its rate), or 'stop' when the run ends (deadline, interruption).
 */
async function runStep(active: Lane[], step: Step, o: OrchestratorOptions): Promise<Lane[] | 'stop'> {
  const { i } = step;
  if (o.signal?.aborted) {
    for (const l of active) stopLane(l, { kind: 'interrupted', reason: 'the run was interrupted', from: i }, o);
    return 'stop';
  }
  const now = o.clock.now();
  const { wait, why } = longestRest(active, i, now, o);
  const batch = active.filter((l) => !l.done);
  if (!batch.length) return [];
  const jobs = batch.map((l) => sizedJob(l, l.retryJob ?? l.jobs[i], o));
  const first = jobs[0];
  if (now + wait >= first.deadlineAt) {
    for (const l of batch)
      stopLane(
        l,
        {
          kind: 'deadline',
          reason: `the run deadline leaves no time for ${first.scenario}${wait ? ` after waiting ${secs(wait)} for ${why}` : ''}`,
          from: i,
          notReached: (scenario, before) => `the run deadline leaves no time for ${scenario} (the run stopped before ${before})`,
        },
        o,
      );
    return 'stop';
  }
  if (wait > 0) {
    if (o.onWait) o.onWait(`waiting ${secs(wait)} before ${first.scenario} (${jobs.map((j) => j.plan).join(', ')}): ${why}`);
    await sleep(o.clock, wait, o.signal);
    if (o.signal?.aborted) {
      for (const l of batch) stopLane(l, { kind: 'interrupted', reason: 'the run was interrupted', from: i }, o);
      return 'stop';
    }
  }
  const results = o.engine.runBatch
    ? await o.engine.runBatch(jobs, o.signal)
    : await Promise.all(jobs.map((j) => o.engine.run(j, o.signal)));
  const again: Lane[] = [];
  batch.forEach((l, n) => {
    if (settleLane(l, { job: jobs[n], r: results[n] }, step, o)) again.push(l);
  });
  return again;
}

/**
 * The longest rest any active lane's key needs before step i, and why. A lane whose key would have to rest longer
 * than its --max-wait-ms (or was refused a wait already) stops here, alone.
 */
function longestRest(active: Lane[], i: number, now: number, o: OrchestratorOptions): { wait: number; why: string } {
  let wait = 0;
  let why = '';
  for (const l of active) {
    const job = l.retryJob ?? l.jobs[i];
    const key = keyOf(l, job).key;
    if (key.waitRefusedMs !== undefined) {
      stopLane(
        l,
        {
          kind: 'max-wait',
          reason: `the key must rest ${secs(key.waitRefusedMs)} (the last 429 asked for it), more than the ${secs(job.maxWaitMs)} this run waits`,
          from: i,
        },
        o,
      );
      continue;
    }
    const rest = restBefore(job, key, now);
    if (rest.ms > job.maxWaitMs)
      stopLane(
        l,
        {
          kind: 'max-wait',
          reason: `${job.scenario} would first wait ${secs(rest.ms)} for ${rest.why}, more than the ${secs(job.maxWaitMs)} this run waits`,
          from: i,
        },
        o,
      );
    else if (rest.ms > wait) [wait, why] = [rest.ms, rest.why];
  }
  return { wait, why };
}

/** The lane's job as it runs: with the requests sent on its key before, and (k6) the VUs the key's latency needs. */
function sizedJob(l: Lane, planned: LoadJob, o: OrchestratorOptions): LoadJob {
  const use = keyOf(l, planned);
  const job = withHistory(withEarlier(planned, use.sent), use);
  const sized = o.engine.name === 'k6' ? vusFor(job, use.key) : job;
  if (sized.maxVus > job.maxVus && o.onWait)
    o.onWait(`${job.scenario} (${job.plan}) on ${sized.maxVus} k6 VUs: the key's responses took ${use.key.latencyMs} ms on average`);
  return sized;
}

/**
 * What a lane keeps of its scenario's result: the requests sent and the key's state; then either a second attempt
 * (true: the lane runs the scenario again) or the report, and the lane's end when the target was unreachable or
 * the run interrupted.
 */
function settleLane(l: Lane, { job, r }: { job: LoadJob; r: EngineResult }, step: Step, o: OrchestratorOptions): boolean {
  const use = keyOf(l, job);
  use.sent += r.report.requestsSent;
  if (r.report.timeline.some((p) => p.status === 429)) use.throttled = true;
  keepKeyState(use.key, r.report.key || {});
  const earlier = l.firstAttempt;
  l.firstAttempt = l.retryJob = undefined;
  if (!r.unreachable && !o.signal?.aborted && tryAgain(job, r.report, step, o)) {
    l.firstAttempt = r.report;
    l.retryJob = { ...job, freshDay: true };
    return true;
  }
  const report = earlier ? secondAttempt(earlier, r.report) : r.report;
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
function tryAgain(job: LoadJob, r: LoadReport, { attempt, retry }: Pick<Step, 'attempt' | 'retry'>, o: OrchestratorOptions): boolean {
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

/** The report of a second attempt, which replaces the first: it says why the first did not count, and counts its requests. */
function secondAttempt(first: LoadReport, second: LoadReport): LoadReport {
  const short = shortfallOf(first.scenario, first.judgements) as Judgement;
  const took = durationMs(first);
  const note = `Second attempt: a first one (${first.startedAt}, ${first.requestsSent} requests over ${(took / 1000).toFixed(1)} s, counted here) fell short of the scenario's rate — ${short.requirement}: ${short.message}. The embedded server shares this machine with the client, whose lag is no finding about the server; nothing else was found in it.`;
  return { ...second, requestsSent: second.requestsSent + first.requestsSent, notes: [note, ...(second.notes ?? [])] };
}

const durationMs = (r: LoadReport) => Date.parse(r.endedAt) - Date.parse(r.startedAt);
