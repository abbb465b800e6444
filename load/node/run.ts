/**
 * The rate-limit half of a run, the same for `npm run load` and `npm start`:
 * picks the engine (k6 when asked or on PATH, else the Node engine), turns the
 * configuration into one job per scenario on the key, and lets the one
 * orchestrator run them — within the run's request budget and deadline.
 */
import { k6NetworkLimit } from './k6-network.ts';
import { ConfigError, requireLimits, type Config } from '../../src/settings/read-config.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import type { PlanName } from '../../src/core/plans.ts';
import type { Target } from '../../src/target/target.ts';
import { cost, SCENARIOS } from '../lib/load-shapes.ts';
import { realClock, type Clock } from './clock.ts';
import { jobOptions, NodeEngine, type LoadEngine, type LoadJob } from './engine.ts';
import { findK6, K6Engine, K6_VERIFIED, refusalLine, standingOf } from './k6.ts';
import type { EngineRecord } from '../../src/core/engine-record.ts';
import { orchestrateLanes, readBackOnce, type Orchestrated, type OrchestratorOptions } from './orchestrator.ts';

/** The engine a run's rate-limit scenarios run on, what the certificate records of it, and the line that says so. */
export interface PickedEngine {
  engine: LoadEngine;
  record: EngineRecord;
  /** Which engine and why, in one line (printed before the scenarios). */
  line: string;
}

/**
 * The engine a configuration asks for (the policy: load/README.md, k6 versions). --engine node: the Node engine.
 * --engine k6: k6 (K6_BIN, else PATH), a ConfigError (exit 2) when there is none or the suite refuses its version;
 * an unverified one runs, saying so. --engine auto: k6 when it is usable (verified or unverified), else the Node
 * engine, saying why: never a refused run over k6's version. `find`: where the k6 is (K6_BIN, else PATH).
 */
export function pickEngine(c: Config, log?: (line: string) => void, find: () => string | undefined = findK6): PickedEngine {
  const requested = c.load.engine;
  const k6 = requested === 'node' ? undefined : find();
  const node = (reason: string, found?: EngineRecord['k6']): PickedEngine => picked(new NodeEngine({}, log), requested, reason, found);
  if (requested === 'node') return node('as asked');
  if (!k6) {
    if (requested === 'k6') throw new ConfigError('--engine k6 but no k6 executable (set K6_BIN, or put k6 on PATH; or use --engine node)');
    return node('no k6 on PATH or in K6_BIN');
  }
  const s = standingOf(k6);
  const found = { ...(s.version ? { version: s.version } : {}), status: s.status, verifiedOn: K6_VERIFIED.text };
  const refused = refusalLine(s);
  if (refused && requested === 'k6') throw new ConfigError(refused);
  if (refused) return node(`${k6} ${s.why}; the Node engine runs the same scenarios`, found);
  const network = k6NetworkLimit(c.network);
  if (network && requested === 'k6') throw new ConfigError(`--engine k6: ${network} (or use --engine node)`);
  if (network) return node(`${network}; the Node engine runs the same scenarios`, found);
  const reason = s.why ? `${k6} ${s.why}` : `k6 v${s.version} at ${k6}, a version the suite is verified on`;
  return picked(new K6Engine(k6, undefined, log), requested, reason, found);
}

function picked(engine: LoadEngine, requested: EngineRecord['requested'], reason: string, k6?: EngineRecord['k6']): PickedEngine {
  const record: EngineRecord = { name: engine.name, requested, reason, ...(k6 ? { k6 } : {}) };
  return { engine, record, line: `Rate limits on the ${engine.name === 'k6' ? 'k6' : 'Node'} engine (--engine ${requested}): ${reason}` };
}

/** A key and its plan: the run's single key, or one of the keys per plan. */
export interface PlanLane {
  plan: PlanName;
  key: string;
  /** Where the key came from (a variable's name), never the key. */
  keySource: string;
  perMinute: number;
  perDay?: number;
}

/** The keys the rate-limit scenarios run on: every plan of a multi-plan run, or the single key. Refused without a plan (never guessed). */
export function lanesOf(target: Target): PlanLane[] {
  const c = target.config;
  if (c.plans && c.plans.length) {
    return c.plans.map((p) => {
      if (p.limits.perMinute === undefined) throw new ConfigError('the enterprise plan needs its limit: --rpm N (or ANIMAL_STORE_RPM)');
      return { plan: p.plan, key: p.key as string, keySource: p.keySource, perMinute: p.limits.perMinute, perDay: p.limits.perDay };
    });
  }
  const limits = requireLimits(c);
  return [{ ...limits, key: c.apiKey as string, keySource: c.conformanceKeySource ?? 'ANIMAL_STORE_API_KEY' }];
}

/** When the next quota day starts, days aligned on the epoch. */
const nextDay = (dayMs: number) => (now: number) => Math.ceil(now / dayMs) * dayMs;

/**
 * One job per scenario on one key (the first lane's unless `lane`), the deadline counted from `startedAt`. Throws
 * ConfigError without a plan, for an unallowed daily scenario, or over the budget.
 */
export function jobsFor(
  target: Target,
  scenarios: readonly ScenarioName[],
  budget: number,
  { startedAt = Date.now(), lane = lanesOf(target)[0] }: { startedAt?: number; lane?: PlanLane } = {},
): LoadJob[] {
  const c = target.config;
  if (scenarios.indexOf('daily') >= 0 && !c.load.allowDaily)
    throw new ConfigError(
      "the daily scenario spends the key's whole daily quota: allow it with --allow-daily (or ANIMAL_STORE_LOAD_DAILY=yes)",
    );
  const planned = scenarios.map((scenario): LoadJob => ({
    scenario,
    plan: lane.plan,
    perMinute: lane.perMinute,
    perDay: lane.perDay,
    baseUrl: c.baseUrl as string,
    apiKey: lane.key,
    network: c.network,
    windowMs: target.windowMs,
    dayMs: target.dayMs,
    maxWaitMs: c.maxWaitMs,
    deadlineAt: startedAt + c.deadlineMs,
    timeoutMs: c.timeoutMs,
    maxBodyBytes: c.maxBodyBytes,
    maxVus: c.load.maxVus,
    distributed: c.load.distributed,
    progress: c.output.progress,
    // Writes as the configuration allows them (never in production unless allowed): the POST at the limit.
    allowWrites: c.allowWrites,
    namePrefix: c.namePrefix,
    // Keys per plan are dedicated by design: requests counted on one that are not its own scenario's are a finding.
    ...(c.plans && c.plans.length ? { dedicatedKey: true } : {}),
    // The embedded server's quota days are aligned on the epoch: the daily scenario can start on a fresh one. A real
    // target's likely are (the judgement takes them so): a fresh one when it comes within --max-wait-ms.
    ...(target.info.embedded ? { nextDayAt: nextDay(target.dayMs) } : { likelyNextDayAt: nextDay(target.dayMs) }),
    // The embedded server shares the machine with the client: a scenario whose client fell short of its rate runs once more.
    ...(target.info.embedded ? { retries: 1 } : {}),
  }));
  // A ceiling followed by the recovery leaves its POST at the limit to the recovery (its cost and caps say so).
  const jobs = readBackOnce(planned.map((j) => onDailyKey(j, target)));
  const most = jobs.reduce((n, j) => n + cost(j.scenario, jobOptions(j)).maxRequests, 0);
  if (most > budget)
    throw new ConfigError(
      `the rate-limit scenarios (${scenarios.join(', ')}) on plan ${lane.plan} may send up to ${most} requests, above the ${budget} left in the run's budget (--max-requests)`,
    );
  return jobs;
}

/**
 * The daily scenario on the embedded server: on its plan's daily key (target.dailyKeys), which no other request of the
 * run touches, with that key's short quota — no earlier request counts against it. Any other job is as planned.
 */
function onDailyKey(job: LoadJob, target: Target): LoadJob {
  const daily = job.scenario === 'daily' ? target.dailyKeys?.[job.plan] : undefined;
  return daily
    ? { ...job, apiKey: daily.key, perDay: daily.perDay, ownKey: true, ...(daily.dayNeededMs ? { dayNeededMs: daily.dayNeededMs } : {}) }
    : job;
}

/**
 * A job in the target's world as it is now (the embedded server's, made longer: Target.widen). Its counts restarted
 * with it (reference/limiter.ts resize): a second attempt need not wait for a fresh quota day.
 */
function inWorldOf(job: LoadJob, target: Target): LoadJob {
  const daily = job.ownKey ? target.dailyKeys?.[job.plan] : undefined;
  return {
    ...job,
    freshDay: undefined,
    windowMs: target.windowMs,
    dayMs: target.dayMs,
    maxWaitMs: target.config.maxWaitMs,
    nextDayAt: nextDay(target.dayMs),
    ...(daily?.dayNeededMs ? { dayNeededMs: daily.dayNeededMs } : {}),
  };
}

export interface LaneRun extends Orchestrated {
  plan: PlanName;
  keySource: string;
  perMinute: number;
  perDay?: number;
}

export interface RateLimitRun extends Orchestrated {
  engine: 'node' | 'k6';
  /** Each key's run (one for a single key). */
  lanes: LaneRun[];
}

export interface RateLimitOptions extends Omit<OrchestratorOptions, 'engine' | 'clock' | 'earlierRequests'> {
  engine: LoadEngine;
  budget: number;
  clock?: Clock;
  /** When the run started (epoch ms): its deadline (--deadline-ms) counts from then; default now. */
  runStartedAt?: number;
  /** Requests the run sent before, on the key the conformance specs used (the preflight, the specs, the exploration). */
  earlierRequests?: number;
}

export async function runRateLimits(target: Target, scenarios: readonly ScenarioName[], o: RateLimitOptions): Promise<RateLimitRun> {
  const clock = o.clock || realClock;
  const lanes = lanesOf(target);
  const startedAt = o.runStartedAt ?? clock.now();
  const jobs = lanes.map((lane) => jobsFor(target, scenarios, Number.MAX_SAFE_INTEGER, { startedAt, lane }));
  // The conformance specs ran on one key (the single key, or the one of its plan): its lane starts with their requests.
  const conformanceKey = target.config.apiKey;
  const earlierRequests = lanes.map((l) => (o.earlierRequests && (lanes.length === 1 || l.key === conformanceKey) ? o.earlierRequests : 0));
  // The plans share the run's budget: refused as a whole when their worst cases together exceed it.
  if (lanes.length > 1) {
    const most = jobs.map((js) => js.reduce((n, j) => n + cost(j.scenario, jobOptions(j)).maxRequests, 0));
    const total = most.reduce((a, b) => a + b, 0);
    if (total > o.budget)
      throw new ConfigError(
        `the rate-limit scenarios (${scenarios.join(', ')}) on plans ${lanes.map((l, i) => `${l.plan} (up to ${most[i]})`).join(', ')} may send up to ${total} requests, above the ${o.budget} left in the run's budget (--max-requests)`,
      );
  } else jobsFor(target, scenarios, o.budget, { startedAt, lane: lanes[0] });
  // What the budget leaves beyond every scenario's caps is what running a scenario again may spend.
  const caps = jobs.flat().reduce((n, j) => n + cost(j.scenario, jobOptions(j)).maxRequests, 0);
  const widen = () => {
    if (!target.widen?.()) return undefined;
    o.onWait?.(
      `the embedded server's window doubled to ${target.windowMs / 1000} s (a quota day of ${target.dayMs / 1000} s), its counts restarted: a scenario's client fell short of its rate`,
    );
    return (j: LoadJob) => inWorldOf(j, target);
  };
  const outs = await orchestrateLanes(jobs, { ...o, clock, earlierRequests, retryBudget: Math.max(0, o.budget - caps), widen });
  const runs: LaneRun[] = outs.map((out, i) => ({
    ...out,
    plan: lanes[i].plan,
    keySource: lanes[i].keySource,
    perMinute: lanes[i].perMinute,
    ...(lanes[i].perDay !== undefined ? { perDay: lanes[i].perDay } : {}),
  }));
  const stopped = runs.find((r) => r.stopped && r.stopped.kind !== 'max-wait')?.stopped ?? runs.find((r) => r.stopped)?.stopped;
  const unreachable = runs.find((r) => r.unreachable)?.unreachable;
  return {
    engine: o.engine.name,
    lanes: runs,
    reports: runs.flatMap((r) => r.reports),
    notRun: runs.flatMap((r) => r.notRun),
    ...(stopped ? { stopped } : {}),
    ...(unreachable ? { unreachable } : {}),
  };
}

/** The dry run's lines for the rate-limit scenarios: each one's cost (requests and time) per plan, taken from its own caps. */
export function costLines(target: Target, scenarios: readonly ScenarioName[]): { lines: string[]; maxRequests: number; typicalMs: number } {
  const lines: string[] = [];
  let maxRequests = 0;
  let typicalMs = 0;
  for (const lane of lanesOf(target)) {
    let laneMs = 0;
    lines.push(
      `Rate-limit scenarios on plan ${lane.plan} (${lane.perMinute} per ${Math.round(target.windowMs / 1000)} s window; key from ${lane.keySource}):`,
    );
    const jobs = jobsFor(target, scenarios, Number.MAX_SAFE_INTEGER, { lane });
    for (const [i, s] of scenarios.entries()) {
      const c = cost(s, jobOptions(jobs[i]));
      maxRequests += c.maxRequests;
      laneMs += c.typicalMs;
      lines.push(
        `  ${s.padEnd(10)} about ${c.typicalRequests} requests in about ${Math.round(c.typicalMs / 1000)} s; at most ${c.maxRequests} requests and ${Math.round(c.maxMs / 1000)} s (its caps)${c.maxInFlight ? `; up to ${c.maxInFlight} in flight on a slow server, never more than Remaining allows` : ''}`,
      );
    }
    // The plans run side by side: the run takes as long as its slowest plan.
    typicalMs = Math.max(typicalMs, laneMs);
  }
  return { lines, maxRequests, typicalMs };
}

export { SCENARIOS };
