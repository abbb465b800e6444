/**
 * One plan's side of a k6 scenario script: its configuration (from __ENV, or
 * __ENV with that plan's key when several plans run in one k6 process), its
 * executor, and its setup, VU and flush code, which send through send.ts and
 * report through emit.ts: a check and an outcome (fixed names: the
 * requirement's id) per judged requirement for k6's metrics, every judgement,
 * the key's state and the timeline as lines of k6's log (tagged with the plan).
 * Bundled for k6: no timers (k6's sleep), no Node built-ins, ES2017.
 */
import exec from 'k6/execution';
import http from 'k6/http';
import { ConfigError, readConfig, requireLimits, type Config } from '../../src/settings/read-config.ts';
import type { PlanLimits } from '../../src/core/plans.ts';
import { keyVariable } from '../../src/settings/plan-keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { networkSecrets } from '../../src/settings/network.ts';
import {
  DAY_QUOTA_VAR,
  EARLIER_REQUESTS_VAR,
  FRESH_QUOTA_DAY_VAR,
  NO_EARLIER_429_VAR,
  POST_AT_LIMIT_VAR,
  internalCount,
  MAX_IN_FLIGHT,
  scenarioOptions,
} from '../lib/scenario-options.ts';
import type { Caps, ScenarioRun } from '../lib/runner.ts';
import { createRun, SCENARIOS, type Pace, type ScenarioDef } from '../lib/load-shapes.ts';
import type { Sample, ScenarioName, ScenarioOptions } from '../lib/types.ts';
import { emit, planTag, type Metrics, type Reporter } from './emit.ts';
import { drive, requestParams, sendOne, type Requests } from './send.ts';

export { segmentOf, type Metrics } from './emit.ts';

export interface SetupData {
  samples: Sample[];
  notes: string[];
}

type Env = Record<string, string | undefined>;

/** VUs of each arrival-rate scenario in a distributed run, at least: k6 gives each instance its part (up to 16 instances). */
export const DISTRIBUTED_MIN_VUS = 16;

/** The environment of one plan of a multi-plan run: that plan and its key, as a single-plan run would read them. */
export function planEnv(env: Env, plan: string): Env {
  const out: Env = {};
  for (const k of Object.keys(env)) if (!/^ANIMAL_STORE_API_KEY/.test(k) && k !== 'ANIMAL_STORE_PLANS') out[k] = env[k];
  out.ANIMAL_STORE_PLAN = plan;
  out.ANIMAL_STORE_API_KEY = env[keyVariable(plan as never)];
  out[DAY_QUOTA_VAR] = env[`${DAY_QUOTA_VAR}_${plan.toUpperCase()}`];
  out[EARLIER_REQUESTS_VAR] = env[`${EARLIER_REQUESTS_VAR}_${plan.toUpperCase()}`];
  out[NO_EARLIER_429_VAR] = env[`${NO_EARLIER_429_VAR}_${plan.toUpperCase()}`];
  if (plan !== 'enterprise') {
    delete out.ANIMAL_STORE_RPM;
    delete out.ANIMAL_STORE_RPD;
  }
  return out;
}

/** What one plan's run is: its scenario, configuration, options, pace and caps, read once from its environment. */
interface PlanSpec {
  def: ScenarioDef;
  cfg: Config;
  limits: PlanLimits;
  url: string;
  o: ScenarioOptions;
  pace?: Pace;
  caps: Caps;
  /** The run's overall deadline, when the suite's orchestrator runs this bundle (epoch ms). */
  deadlineAt?: number;
}

function planSpec(name: ScenarioName, env: Env, tag: string | undefined): PlanSpec {
  const def = SCENARIOS[name];
  const cfg: Config = readConfig(env, {}, 'load');
  if (!cfg.baseUrl) throw new ConfigError('ANIMAL_STORE_BASE_URL is required (k6 runs against a server you name)');
  const limits = requireLimits(cfg);
  if (name === 'daily' && !cfg.load.allowDaily)
    throw new ConfigError('the daily scenario is opt-in (it spends the whole daily quota): pass -e ANIMAL_STORE_LOAD_DAILY=yes');
  const url = `${cfg.baseUrl}/pets?limit=1`;
  // Internal, not a user setting: the orchestrator's deadline.
  const deadlineAt = /^\d{10,16}$/.test(env.ANIMAL_STORE_DEADLINE_AT || '') ? Number(env.ANIMAL_STORE_DEADLINE_AT) : undefined;
  const o: ScenarioOptions = scenarioOptions(
    {
      plan: limits.plan,
      perMinute: limits.perMinute,
      // the server's own quota, when the orchestrator knows it (the embedded server's short day); else the plan's
      perDay: internalCount(env[DAY_QUOTA_VAR]) ?? limits.perDay,
      windowMs: cfg.load.windowMs,
      dayMs: cfg.load.dayMs,
      maxWaitMs: cfg.maxWaitMs,
      requestUrl: url,
      // what the orchestrator knows of the key before the daily scenario
      earlierRequests: internalCount(env[EARLIER_REQUESTS_VAR]),
      freshQuotaDay: env[FRESH_QUOTA_DAY_VAR] === 'yes',
      noEarlier429: env[NO_EARLIER_429_VAR] === 'yes',
      // writes as the configuration allows them: ANIMAL_STORE_ALLOW_WRITES (off in production unless allowed)
      writes: cfg.allowWrites,
      namePrefix: cfg.namePrefix,
      postAtLimit: env[POST_AT_LIMIT_VAR] !== 'no',
    },
    {
      externalPacing: !def.singleVu,
      maxInFlight: MAX_IN_FLIGHT,
      partialView: !def.singleVu && (cfg.load.maxVus > 1 || cfg.load.distributed),
      ...(cfg.load.distributed ? { distributed: true } : {}),
      // several plans in one process: each key is dedicated (another plan's requests counted on it are a finding)
      ...(tag ? { dedicatedKey: true } : {}),
    },
  );
  const pace = def.pace ? def.pace(o) : undefined;
  // An arrival-rate executor ends at the deadline: the VU's own run ends two slots before, so that it still reports.
  if (deadlineAt !== undefined) o.deadlineAt = deadlineAt - (pace ? Math.max(2000, (2 * o.windowMs) / pace.perWindow) : 0);
  return { def, cfg, limits, url, o, pace, caps: def.caps(o), deadlineAt };
}

const secs = (ms: number) => `${Math.ceil(ms / 1000)}s`;

/**
 * The k6 executor of a plan's scenario: a constant arrival rate for the paced ones, one iteration of one VU
 * for the others; never past the run's deadline. Several VUs sharing an arrival rate get a last `flush`
 * iteration after its graceful stop: a VU that got no iteration after its run ended has not carried its
 * requests yet, and k6 reuses the same VUs for a scenario that starts later (checked on k6 v1.0 and v2.2).
 */
function executorOf(s: PlanSpec) {
  const { cfg, o, pace } = s;
  // k6 splits an arrival rate's VUs between the instances of a distributed run: each instance needs at least one.
  const vus = cfg.load.distributed ? Math.max(cfg.load.maxVus, DISTRIBUTED_MIN_VUS) : cfg.load.maxVus;
  const left = s.deadlineAt !== undefined ? Math.max(1000, s.deadlineAt - Date.now()) : Infinity;
  const durationMs = pace ? Math.ceil(Math.min(left, pace.windows * o.windowMs + (3 * o.windowMs) / pace.perWindow + 1000)) : 0;
  // An iteration sends one request at most: its timeout and a second are enough to let it finish.
  const gracefulMs = 1000 * Math.ceil((cfg.timeoutMs + 1000) / 1000);
  const executor = pace
    ? {
        executor: 'constant-arrival-rate',
        rate: pace.perWindow,
        timeUnit: `${o.windowMs}ms`,
        duration: `${durationMs}ms`,
        preAllocatedVUs: vus,
        maxVUs: vus,
        gracefulStop: `${gracefulMs}ms`,
      }
    : { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: secs(Math.min(left + 5000, s.caps.maxDurationMs + 10000)) };
  return { executor, flushVus: pace && vus > 1 ? vus : 0, flushAtMs: durationMs + gracefulMs };
}

export function planRun(name: ScenarioName, env: Env, m: Metrics, tag?: string) {
  const s = planSpec(name, env, tag);
  const { def, cfg, o } = s;
  const apiKey = cfg.apiKey as string;
  const redact = makeRedactor([apiKey, ...networkSecrets(cfg.network)]);
  const req: Requests = {
    baseUrl: s.cfg.baseUrl as string,
    params: requestParams(apiKey, cfg.timeoutMs, tag),
    maxInFlight: o.maxInFlight,
    maxSteps: s.caps.maxRequests * 4 + 10000,
  };
  const rep: Reporter = { m, redact, tag, distributed: cfg.load.distributed, vuShare: !def.singleVu && cfg.load.maxVus > 1 };
  const setup = (): SetupData => setupOf(name, s, req, redact);
  const { vu, flush } = vuOf(name, s, req, rep);
  const shareInputs = shareInputsOf(s, tag);
  return { plan: s.limits.plan, cfg, o, def, ...executorOf(s), redact, setup, vu, flush, secs, windowMs: o.windowMs, shareInputs };
}

/**
 * setup(): a single-VU scenario probes the target once (its requests are the VU's); the others run their setup
 * phase here, whose samples seed every VU. An unreachable target aborts the test.
 */
function setupOf(name: ScenarioName, s: PlanSpec, req: Requests, redact: (t: string) => string): SetupData {
  const { def, o } = s;
  if (def.warning) console.warn(`WARNING: ${def.warning(o)}`);
  if (def.singleVu) {
    const probe = http.get(s.url, {
      timeout: req.params.timeout,
      redirects: 0,
      tags: { name: 'reachability' },
      responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
    });
    if (probe.status === 0) exec.test.abort(redact(`target unreachable: ${probe.error}`));
    return { samples: [], notes: [] };
  }
  const run = createRun(name, o, 'setup');
  drive(run, req);
  const samples = run.state.samples;
  if (samples.length && samples.every((x) => x.status === 0))
    exec.test.abort(redact(`target unreachable: ${samples[0].error || 'no response'}`));
  return { samples, notes: run.state.notes };
}

/**
 * The VU function and the flush iteration of a plan. A single-VU scenario runs whole in its one iteration; on an
 * arrival rate, each VU keeps one run, sends one request per iteration, and reports it once, when it is done
 * (or at the flush, if the rate ended first).
 */
function vuOf(name: ScenarioName, s: PlanSpec, req: Requests, rep: Reporter) {
  const { def, o } = s;
  let vuRun: ScenarioRun | undefined;
  let emitted = false;

  function vu(data: SetupData): void {
    if (def.singleVu) {
      rep.m.finished.add(0, planTag(rep));
      const run = createRun(name, o, 'main');
      drive(run, req);
      emit(rep, run, data.notes);
      return;
    }
    if (!vuRun) {
      rep.m.finished.add(0, planTag(rep));
      vuRun = createRun(name, o, 'main');
      vuRun.seed(data.samples);
    }
    if (emitted) return;
    // A wait means this slot falls in a Retry-After pause (or the budget is in flight): skip it.
    const a = sendOne(vuRun, req);
    if (a.kind === 'done' || vuRun.next(Date.now()).kind === 'done') {
      emitted = true;
      emit(rep, vuRun, data.notes);
    }
  }

  /** The flush iteration of this VU: carry its run if the arrival rate ended before it could. */
  function flush(data: SetupData): void {
    if (vuRun && !emitted) {
      emitted = true;
      emit(rep, vuRun, data.notes);
    }
  }
  return { vu, flush };
}

/** What a share of a distributed run carries of its inputs, for the merge step to judge them again. */
function shareInputsOf(s: PlanSpec, tag: string | undefined) {
  const { o } = s;
  return {
    perMinute: o.limit,
    perDay: o.perDay,
    windowMs: o.windowMs,
    dayMs: o.dayMs,
    maxWaitMs: o.maxWaitMs,
    requestUrl: s.url,
    ...(tag ? { dedicatedKey: true } : {}),
    ...(o.earlierRequests !== undefined ? { earlierRequests: o.earlierRequests } : {}),
    ...(o.freshQuotaDay ? { freshQuotaDay: true } : {}),
  };
}
