/**
 * The k6 side of every scenario script: options (executor and thresholds),
 * setup(), the VU function and handleSummary(), all built from the scenario
 * table of load/lib and the core's configuration, rules and report. The
 * scripts differ only in the scenario name.
 *
 * Bundled by load/build.ts (CommonJS, ES2017): no timers (k6's sleep), no Node
 * built-ins, no global crypto. Judgements become k6 checks (never a throwing
 * function inside check()) and a Counter of failures per requirement with a
 * `count==0` threshold, so k6's exit code is the verdict.
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { ConfigError, readConfig, requireLimits } from '../../src/core/config.ts';
import { buildLoadReport, loadJunit, loadSummaryText, reportBaseName, timeline } from '../../src/core/load-report.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { scenarioOptions } from '../lib/config.ts';
import type { ScenarioRun } from '../lib/runner.ts';
import { createRun, SCENARIOS } from '../lib/scenarios.ts';
import type { Sample, ScenarioName } from '../lib/types.ts';
import { allChecks, carry, readCarriage, type SummaryGroup } from './summary.ts';

interface SetupData {
  samples: Sample[];
  notes: string[];
}

interface SummaryData {
  root_group?: SummaryGroup;
  metrics: Record<string, { values?: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;
  state?: { testRunDurationMs?: number };
}

export function k6Scenario(name: ScenarioName) {
  const def = SCENARIOS[name];
  const cfg = readConfig(__ENV, {}, 'load');
  if (!cfg.baseUrl) throw new ConfigError('ANIMAL_STORE_BASE_URL is required (k6 runs against a server you name)');
  const limits = requireLimits(cfg);
  if (name === 'daily' && !cfg.load.allowDaily)
    throw new ConfigError('the daily scenario is opt-in (it spends the whole daily quota): pass -e ANIMAL_STORE_LOAD_DAILY=yes');
  const apiKey = cfg.apiKey as string;
  const url = `${cfg.baseUrl}/pets?limit=1`;
  // The run's overall deadline, when the suite's orchestrator runs this bundle (epoch ms; internal, not a user setting).
  const deadlineAt = /^\d{10,16}$/.test(__ENV.ANIMAL_STORE_DEADLINE_AT || '') ? Number(__ENV.ANIMAL_STORE_DEADLINE_AT) : undefined;
  const o = scenarioOptions(
    {
      plan: limits.plan,
      perMinute: limits.perMinute,
      perDay: limits.perDay,
      windowMs: cfg.load.windowMs,
      dayMs: cfg.load.dayMs,
      maxWaitMs: cfg.maxWaitMs,
      requestUrl: url,
    },
    { externalPacing: !def.singleVu, maxInFlight: 16, partialView: !def.singleVu && (cfg.load.maxVus > 1 || cfg.load.distributed) },
  );
  const pace = def.pace ? def.pace(o) : undefined;
  // An arrival-rate executor ends at the deadline: the VU's own run ends two slots before, so that it still reports.
  if (deadlineAt !== undefined) o.deadlineAt = deadlineAt - (pace ? Math.max(2000, (2 * o.windowMs) / pace.perWindow) : 0);
  const caps = def.caps(o);
  const redact = makeRedactor([apiKey]);
  const params = {
    headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    timeout: `${cfg.timeoutMs}ms`,
    redirects: 0,
    tags: { name: 'GET /pets', rl: 'scenario' },
    responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 429),
  };
  const failures = new Counter('rl_verdict_failures');
  const finished = new Counter('rl_finished');
  const throttled = new Counter('rl_throttled');

  // The scenario's own requests (not setup's reachability probe); listed so that handleSummary sees the submetric.
  const SENT = 'http_reqs{rl:scenario}';
  const thresholds: Record<string, string[]> = { rl_finished: ['count>=1'], [SENT]: ['count>=0'] };
  for (const r of def.requirements) thresholds[`rl_verdict_failures{requirement:${r}}`] = ['count==0'];

  const secs = (ms: number) => `${Math.ceil(ms / 1000)}s`;
  // Never past the run's deadline: the executor itself ends by then.
  const left = deadlineAt !== undefined ? Math.max(1000, deadlineAt - Date.now()) : Infinity;
  const executor = pace
    ? {
        executor: 'constant-arrival-rate',
        rate: pace.perWindow,
        timeUnit: `${o.windowMs}ms`,
        duration: `${Math.ceil(Math.min(left, pace.windows * o.windowMs + (3 * o.windowMs) / pace.perWindow + 1000))}ms`,
        preAllocatedVUs: cfg.load.maxVus,
        maxVUs: cfg.load.maxVus,
        gracefulStop: secs(cfg.timeoutMs + 5000),
      }
    : { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: secs(Math.min(left + 5000, caps.maxDurationMs + 10000)) };
  const options = {
    scenarios: { [name]: executor },
    thresholds,
    maxRedirects: 0,
    setupTimeout: secs(2 * o.windowMs + cfg.timeoutMs + 30000),
    summaryTrendStats: ['avg', 'min', 'max', 'p(95)'],
  };

  function observe(
    run: ScenarioRun,
    seq: number,
    res: { status: number; headers: Record<string, string>; body: unknown; error: string },
    t: number,
  ): void {
    if (res.status === 429) throttled.add(1);
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
      const seqs = [run.sent(Date.now())];
      for (let b = run.next(Date.now()); b.kind === 'send' && seqs.length < 16; b = run.next(Date.now())) seqs.push(run.sent(Date.now()));
      const responses =
        seqs.length === 1
          ? [http.get(url, params)]
          : http.batch(seqs.map(() => ['GET', url, null, params] as ['GET', string, null, typeof params]));
      const t = Date.now();
      for (let j = 0; j < seqs.length; j++) observe(run, seqs[j], responses[j] as never, t);
    }
    run.stop('iteration cap reached');
  }

  const record = (item: Parameters<typeof carry>[0], ok = true) => check(null, { [redact(carry(item))]: () => ok });

  function emit(run: ScenarioRun, notes: string[]): void {
    for (const j of run.judgements()) {
      const ok = j.outcome !== 'fail';
      record({ kind: 'judgement', value: j }, ok);
      if (!ok) failures.add(1, { requirement: j.requirement });
    }
    for (const note of notes.concat(run.state.notes)) record({ kind: 'note', value: note });
    if (run.stoppedBecause) record({ kind: 'stopped', value: run.stoppedBecause });
    record({ kind: 'key', value: run.keyState() });
    record({ kind: 'timeline', value: timeline(run.state.samples, 0) });
    finished.add(1);
  }

  function setup(): SetupData {
    if (def.warning) console.warn(`WARNING: ${def.warning(o)}`);
    const run = createRun(name, o, 'setup');
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
      finished.add(0);
      const run = createRun(name, o, 'main');
      loop(run);
      emit(run, data.notes);
      return;
    }
    if (!vuRun) {
      finished.add(0);
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

  function handleSummary(data: SummaryData): Record<string, string> {
    const carried = readCarriage(allChecks(data.root_group));
    const notes = carried.notes.slice();
    const judgements = carried.judgements;
    // A failed threshold that no judgement explains still fails the report.
    for (const key of Object.keys(data.metrics)) {
      const th = data.metrics[key].thresholds || {};
      for (const expr of Object.keys(th)) {
        const m = /requirement:([A-Z0-9-]+)/.exec(key);
        const requirement = m ? m[1] : def.requirements[0];
        const explained = judgements.some((v) => v.outcome === 'fail' && (!m || v.requirement === requirement));
        if (!th[expr].ok && !explained)
          judgements.push({
            requirement,
            outcome: key === 'rl_finished' ? 'error' : 'fail',
            title: key === 'rl_finished' ? 'The scenario did not finish' : 'k6 threshold failed',
            message: `threshold ${key} ${expr} failed${key === 'rl_finished' ? ': the scenario did not finish (k6 stopped it)' : ''}`,
          });
      }
    }
    const endedAt = Date.now();
    const duration = data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs : 0;
    const startedAt = endedAt - duration;
    const sent = data.metrics[SENT] || data.metrics.http_reqs;
    const requestsSent = sent && sent.values ? sent.values.count || 0 : 0;
    const points = carried.timeline.map((p) => Object.assign({}, p, { t: Math.max(0, p.t - startedAt) }));
    const report = buildLoadReport(
      {
        scenario: name,
        plan: limits.plan,
        engine: 'k6',
        target: cfg.baseUrl as string,
        startedAt,
        endedAt,
        requestsSent,
        judgements,
        timeline: points,
        key: carried.key,
        stoppedBecause: carried.stopped,
        notes,
      },
      redact,
    );
    const base = `${cfg.reportsDir}/${reportBaseName(name, limits.plan)}`;
    return {
      [`${base}.json`]: redact(JSON.stringify(report, null, 2)) + '\n',
      [`${base}.junit.xml`]: redact(loadJunit(report)),
      stdout: redact(loadSummaryText(report)),
    };
  }

  return { options, setup, vu, handleSummary };
}
