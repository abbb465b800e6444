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
import type { LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import type { LoadEngine, LoadJob } from './engine.ts';
import { sleep, type Clock } from './clock.ts';
import { dailyBroughtForward, restBefore, vusFor } from './key-rest.ts';
import { keyOf, secs, settleLane, stopLane, withEarlier, withHistory, type Lane, type Orchestrated, type Step } from './lane.ts';

export type { NotRun, Orchestrated, StopKind } from './lane.ts';

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
  /**
   * The embedded server's world made longer before a second attempt (its client fell short of its rate: the machine
   * sustained less than its world was sized for): returns how each job left is re-sized to it, or undefined when the
   * world cannot grow (run.ts, src/target/target.ts widen).
   */
  widen?: () => ((job: LoadJob) => LoadJob) | undefined;
}

/** Run the jobs of one key in order. */
export async function orchestrate(jobs: readonly LoadJob[], o: OrchestratorOptions): Promise<Orchestrated> {
  return (await orchestrateLanes([jobs], o))[0];
}

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
      if (again.length) widened(lanes, o);
      active = again;
    }
  }
  return outs();
}

/**
 * Before second attempts: every lane's jobs left, and its second attempt, in the world made longer (when it can grow).
 * The server's counts restarted with it: a key a job has to itself (the daily key) is as if unused again.
 */
function widened(lanes: Lane[], o: OrchestratorOptions): void {
  const resize = o.widen?.();
  if (!resize) return;
  for (const l of lanes) {
    if (l.done) continue;
    l.jobs = l.jobs.map(resize);
    if (l.retryJob) l.retryJob = resize(l.retryJob);
    l.own.clear();
  }
}

const inOrder = (out: Orchestrated, order: readonly ScenarioName[]): Orchestrated => ({
  ...out,
  reports: [...out.reports].sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario)),
});

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
