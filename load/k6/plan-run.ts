/**
 * One plan's side of a k6 scenario script: its configuration (from __ENV, or
 * __ENV with that plan's key when several plans run in one k6 process), its
 * executor, its setup and VU code, and what it reports: a check and an outcome
 * (fixed names: the requirement's id) per judged requirement for k6's metrics,
 * and every judgement, the key's state and the timeline as lines of k6's log
 * (load/lib/carriage.ts; tagged with the plan). Bundled for k6: no timers
 * (k6's sleep), no Node built-ins, ES2017.
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import type { Counter, Gauge } from 'k6/metrics';
import { ConfigError, readConfig, requireLimits, type Config } from '../../src/core/config.ts';
import { keyVariable } from '../../src/core/plan-keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { compactSample, timeline } from '../../src/core/load-report.ts';
import { MAX_IN_FLIGHT, scenarioOptions } from '../lib/config.ts';
import type { ScenarioRun } from '../lib/runner.ts';
import { createRun, SCENARIOS } from '../lib/scenarios.ts';
import type { Sample, ScenarioName, ScenarioOptions } from '../lib/types.ts';
import { carry, SAMPLES_PER_LINE, type Carried } from '../lib/carriage.ts';
import { outcomeRank } from './summary.ts';

export interface SetupData {
  samples: Sample[];
  notes: string[];
}

export interface Metrics {
  failures: Counter;
  finished: Counter;
  outcome: Gauge;
}

type Env = Record<string, string | undefined>;

/** The environment of one plan of a multi-plan run: that plan and its key, as a single-plan run would read them. */
export function planEnv(env: Env, plan: string): Env {
  const out: Env = {};
  for (const k of Object.keys(env)) if (!/^ANIMAL_STORE_API_KEY/.test(k) && k !== 'ANIMAL_STORE_PLANS') out[k] = env[k];
  out.ANIMAL_STORE_PLAN = plan;
  out.ANIMAL_STORE_API_KEY = env[keyVariable(plan as never)];
  if (plan !== 'enterprise') {
    delete out.ANIMAL_STORE_RPM;
    delete out.ANIMAL_STORE_RPD;
  }
  return out;
}

export function planRun(name: ScenarioName, env: Env, m: Metrics, tag?: string) {
  const def = SCENARIOS[name];
  const cfg: Config = readConfig(env, {}, 'load');
  if (!cfg.baseUrl) throw new ConfigError('ANIMAL_STORE_BASE_URL is required (k6 runs against a server you name)');
  const limits = requireLimits(cfg);
  if (name === 'daily' && !cfg.load.allowDaily)
    throw new ConfigError('the daily scenario is opt-in (it spends the whole daily quota): pass -e ANIMAL_STORE_LOAD_DAILY=yes');
  const apiKey = cfg.apiKey as string;
  const url = `${cfg.baseUrl}/pets?limit=1`;
  // The run's overall deadline, when the suite's orchestrator runs this bundle (epoch ms; internal, not a user setting).
  const deadlineAt = /^\d{10,16}$/.test(env.ANIMAL_STORE_DEADLINE_AT || '') ? Number(env.ANIMAL_STORE_DEADLINE_AT) : undefined;
  const o: ScenarioOptions = scenarioOptions(
    {
      plan: limits.plan,
      perMinute: limits.perMinute,
      perDay: limits.perDay,
      windowMs: cfg.load.windowMs,
      dayMs: cfg.load.dayMs,
      maxWaitMs: cfg.maxWaitMs,
      requestUrl: url,
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
  const caps = def.caps(o);
  const redact = makeRedactor([apiKey]);
  const tags: Record<string, string> = { name: 'GET /pets', ...(tag ? { plan: tag } : {}) };
  const params = {
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    timeout: `${cfg.timeoutMs}ms`,
    redirects: 0,
    tags,
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429),
  };
  const secs = (ms: number) => `${Math.ceil(ms / 1000)}s`;
  // k6 splits an arrival rate's VUs between the instances of a distributed run: each instance needs at least one.
  const vus = cfg.load.distributed ? Math.max(cfg.load.maxVus, DISTRIBUTED_MIN_VUS) : cfg.load.maxVus;
  const shareInputs = {
    perMinute: o.limit,
    perDay: o.perDay,
    windowMs: o.windowMs,
    dayMs: o.dayMs,
    maxWaitMs: o.maxWaitMs,
    requestUrl: url,
    ...(tag ? { dedicatedKey: true } : {}),
  };
  // Never past the run's deadline: the executor itself ends by then.
  const left = deadlineAt !== undefined ? Math.max(1000, deadlineAt - Date.now()) : Infinity;
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
    : { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: secs(Math.min(left + 5000, caps.maxDurationMs + 10000)) };
  /**
   * Several VUs share the arrival rate: a VU that got no iteration after its run ended has not carried its
   * requests yet. k6 reuses the same VUs for a scenario that starts after this one's graceful stop, so a
   * per-VU `flush` there reaches every one of them (checked on k6 v1.0 and v2.2).
   */
  const flushVus = pace && vus > 1 ? vus : 0;
  const flushAtMs = durationMs + gracefulMs;

  function observe(
    run: ScenarioRun,
    seq: number,
    res: { status: number; headers: Record<string, string>; body: unknown; error: string },
    t: number,
  ): void {
    const body = typeof res.body === 'string' ? res.body : '';
    run.observe({ seq, t, status: res.status, headers: res.headers || {}, body, ...(res.error ? { error: res.error } : {}) });
  }

  /** Sequential driver (setup and single-VU scenarios): k6 has no timers, so waits are sleep(); several sends at once go out as one http.batch. */
  function loop(run: ScenarioRun): void {
    for (let i = 0; i < caps.maxRequests * 4 + 10000; i++) {
      const a = run.next(Date.now());
      if (a.kind === 'done') return;
      if (a.kind === 'wait') {
        sleep(a.ms / 1000);
        continue;
      }
      const started = Date.now();
      const seqs = [run.sent(started)];
      for (let b = run.next(Date.now()); b.kind === 'send' && seqs.length < o.maxInFlight; b = run.next(Date.now()))
        seqs.push(run.sent(Date.now()));
      if (seqs.length === 1) {
        const res = http.get(url, params);
        observe(run, seqs[0], res as never, Date.now());
        continue;
      }
      const responses = http.batch(seqs.map(() => ['GET', url, null, params] as ['GET', string, null, typeof params]));
      // Each response when it came (k6's timings from the batch's start), observed in that order: the latency is the server's, not the slowest's.
      const ended = Date.now();
      const arrived = seqs.map((seq, j) => ({ seq, res: responses[j], t: Math.min(ended, started + elapsedMs(responses[j])) }));
      arrived.sort((x, y) => x.t - y.t || x.seq - y.seq);
      for (const x of arrived) observe(run, x.seq, x.res as never, x.t);
    }
    run.stop('iteration cap reached');
  }

  // Fixed names only (requirement ids, plan names): a metrics store gets no series of its own per run.
  const planTag: Record<string, string> = tag ? { plan: tag } : {};
  /** One line of k6's log per item (never a metric): the suite's k6 engine and load:merge complete the report with them. */
  const log = (item: Carried) => {
    const segment = cfg.load.distributed ? segmentOf() : '';
    console.log(redact(carry(Object.assign({}, item, tag ? { plan: tag } : {}, segment ? { segment } : {}) as Carried)));
  };

  function emit(run: ScenarioRun, notes: string[]): void {
    for (const j of run.judgements()) {
      const ok = j.outcome !== 'fail';
      const tags = Object.assign({ requirement: j.requirement }, planTag);
      check(null, { [j.requirement]: () => ok }, planTag);
      m.outcome.add(outcomeRank(j.outcome), tags);
      if (!ok) m.failures.add(1, tags);
      log({ kind: 'judgement', value: j });
    }
    for (const note of notes.concat(run.state.notes)) log({ kind: 'note', value: note });
    if (run.stoppedBecause) log({ kind: 'stopped', value: run.stoppedBecause });
    log({ kind: 'key', value: run.keyState() });
    log({ kind: 'timeline', value: timeline(run.state.samples, 0) });
    // A share of a distributed run carries its requests, so that the merge step can judge the whole.
    if (cfg.load.distributed) {
      const all = run.state.samples.map(compactSample);
      for (let i = 0; i < all.length; i += SAMPLES_PER_LINE) log({ kind: 'samples', value: all.slice(i, i + SAMPLES_PER_LINE) });
    }
    m.finished.add(1, planTag);
  }

  function setup(): SetupData {
    if (def.warning) console.warn(`WARNING: ${def.warning(o)}`);
    if (def.singleVu) {
      const probe = http.get(url, {
        timeout: params.timeout,
        redirects: 0,
        tags: { name: 'reachability' },
        responseCallback: http.expectedStatuses({ min: 100, max: 599 }),
      });
      if (probe.status === 0) exec.test.abort(redact(`target unreachable: ${probe.error}`));
      return { samples: [], notes: [] };
    }
    const run = createRun(name, o, 'setup');
    loop(run);
    const samples = run.state.samples;
    if (samples.length && samples.every((s) => s.status === 0))
      exec.test.abort(redact(`target unreachable: ${samples[0].error || 'no response'}`));
    return { samples, notes: run.state.notes };
  }

  let vuRun: ScenarioRun | undefined;
  let emitted = false;

  function vu(data: SetupData): void {
    if (def.singleVu) {
      m.finished.add(0, tag ? { plan: tag } : {});
      const run = createRun(name, o, 'main');
      loop(run);
      emit(run, data.notes);
      return;
    }
    if (!vuRun) {
      m.finished.add(0, tag ? { plan: tag } : {});
      vuRun = createRun(name, o, 'main');
      vuRun.seed(data.samples);
    }
    if (emitted) return;
    const a = vuRun.next(Date.now());
    if (a.kind === 'send') {
      const seq = vuRun.sent(Date.now());
      const res = http.get(url, params);
      observe(vuRun, seq, res as never, Date.now());
    }
    // A wait means this slot falls in a Retry-After pause (or the budget is in flight): skip it.
    if (a.kind === 'done' || vuRun.next(Date.now()).kind === 'done') {
      emitted = true;
      emit(vuRun, data.notes);
    }
  }

  /** The flush iteration of this VU: carry its run if the arrival rate ended before it could. */
  function flush(data: SetupData): void {
    if (vuRun && !emitted) {
      emitted = true;
      emit(vuRun, data.notes);
    }
  }

  return {
    plan: limits.plan,
    cfg,
    o,
    def,
    executor,
    redact,
    setup,
    vu,
    flush,
    flushVus,
    flushAtMs,
    secs,
    windowMs: o.windowMs,
    shareInputs,
  };
}

/** How long a response of a batch took from the batch's start (k6's timings; Infinity without them: the batch's end is used). */
function elapsedMs(res: { timings?: Partial<Record<'blocked' | 'connecting' | 'tls_handshaking' | 'duration', number>> }): number {
  const t = res.timings;
  if (!t || typeof t.duration !== 'number') return Infinity;
  return (t.blocked || 0) + (t.connecting || 0) + (t.tls_handshaking || 0) + t.duration;
}

/** VUs of each arrival-rate scenario in a distributed run, at least: k6 gives each instance its part (up to 16 instances). */
export const DISTRIBUTED_MIN_VUS = 16;

/** This instance's execution segment ("0:1/2"), when k6 runs it as one share of a distributed run. */
export function segmentOf(): string {
  const t = exec.test as unknown as { options?: { executionSegment?: unknown } };
  const seg = t.options && t.options.executionSegment;
  return seg ? String(seg) : '';
}
