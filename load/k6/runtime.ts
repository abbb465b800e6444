/**
 * The k6 side of every scenario script: options (executor and thresholds),
 * setup(), the VU function and handleSummary(), all built from the scenario
 * table of load/lib. The scripts differ only in the scenario name.
 *
 * Bundled by load/build.ts for k6 v0.45+: no timers (k6's sleep), no Node
 * built-ins, no global crypto, ES2017. Verdicts become k6 checks (never a
 * throwing function inside check()) and a Counter of failures per requirement
 * with a `count==0` threshold, so k6's exit code is the verdict.
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { makeRedactor } from '../../src/core/redact.ts';
import { LoadConfigError, readK6Config, scenarioOptions } from '../lib/config.ts';
import { buildReport, checkName, junit, parseCheckName, reportBaseName, summaryText } from '../lib/report.ts';
import type { ScenarioRun } from '../lib/runner.ts';
import { createRun, SCENARIOS } from '../lib/scenarios.ts';
import type { Sample, ScenarioName, Verdict } from '../lib/types.ts';

interface SetupData {
  samples: Sample[];
  notes: string[];
}

interface SummaryGroup {
  checks?: Array<{ name: string; passes: number; fails: number }> | Record<string, { name: string; passes: number; fails: number }>;
  groups?: SummaryGroup[] | Record<string, SummaryGroup>;
}

interface SummaryData {
  root_group?: SummaryGroup;
  metrics: Record<string, { values?: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;
  state?: { testRunDurationMs?: number };
  setup_data?: SetupData;
}

const NOTE = '(note) ';
const STOPPED = '(stopped) ';

function listOf<T>(v: T[] | Record<string, T> | undefined): T[] {
  if (!v) return [];
  return Array.isArray(v) ? v : Object.keys(v).map((k) => v[k]);
}

function allChecks(g: SummaryGroup | undefined): Array<{ name: string; passes: number; fails: number }> {
  if (!g) return [];
  let out = listOf(g.checks);
  for (const c of listOf(g.groups)) out = out.concat(allChecks(c));
  return out;
}

export function k6Scenario(name: ScenarioName) {
  const def = SCENARIOS[name];
  const cfg = readK6Config(__ENV);
  if (name === 'daily' && !cfg.dailyOptIn)
    throw new LoadConfigError('the daily scenario is opt-in (it spends the whole daily quota): pass -e ANIMAL_STORE_LOAD_DAILY=yes');
  const o = scenarioOptions(
    { plan: cfg.plan, perMinute: cfg.perMinute, perDay: cfg.perDay, windowMs: cfg.windowMs, dayMs: cfg.dayMs },
    { externalPacing: !def.singleVu, maxInFlight: 16, partialView: !def.singleVu && (cfg.maxVus > 1 || cfg.distributed) },
  );
  const caps = def.caps(o);
  const redact = makeRedactor([cfg.apiKey]);
  const url = `${cfg.baseUrl}/pets?limit=1`;
  const params = {
    headers: { Authorization: `Bearer ${cfg.apiKey}`, Accept: 'application/json' },
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
  const thresholds: Record<string, string[]> = { checks: ['rate==1'], rl_finished: ['count>=1'], [SENT]: ['count>=0'] };
  for (const r of def.requirements) thresholds[`rl_verdict_failures{requirement:${r}}`] = ['count==0'];
  if (name === 'sustained') thresholds.rl_throttled = ['count==0'];

  const secs = (ms: number) => `${Math.ceil(ms / 1000)}s`;
  const pace = def.pace ? def.pace(o) : undefined;
  const executor = pace
    ? {
        executor: 'constant-arrival-rate',
        rate: pace.perWindow,
        timeUnit: `${o.windowMs}ms`,
        duration: `${Math.ceil(pace.windows * o.windowMs + (3 * o.windowMs) / pace.perWindow + 1000)}ms`,
        preAllocatedVUs: cfg.maxVus,
        maxVUs: cfg.maxVus,
        gracefulStop: secs(cfg.timeoutMs + 5000),
      }
    : { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: secs(caps.maxDurationMs + 10000) };
  const options = {
    scenarios: { [name]: executor },
    thresholds,
    maxRedirects: 0,
    setupTimeout: secs(2 * o.windowMs + cfg.timeoutMs + 30000),
  };

  function observe(
    run: ScenarioRun,
    seq: number,
    res: { status: number; headers: Record<string, string>; body: unknown; error: string },
    t: number,
  ): void {
    if (res.status === 429) throttled.add(1);
    run.observe({
      seq,
      t,
      status: res.status,
      headers: res.headers || {},
      body: typeof res.body === 'string' ? res.body : '',
      ...(res.error ? { error: res.error } : {}),
    });
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

  function emit(run: ScenarioRun, notes: string[]): void {
    for (const v of run.verdicts()) {
      const ok = v.outcome !== 'fail';
      check(null, { [redact(checkName(v))]: () => ok });
      if (!ok) failures.add(1, { requirement: v.requirement });
    }
    for (const note of notes.concat(run.state.notes)) check(null, { [redact(NOTE + note)]: () => true });
    if (run.stoppedBecause) check(null, { [redact(STOPPED + run.stoppedBecause)]: () => true });
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
    const verdicts: Verdict[] = [];
    const notes: string[] = [];
    let stopped: string | undefined;
    for (const c of allChecks(data.root_group)) {
      if (c.name.indexOf(NOTE) === 0) notes.push(c.name.slice(NOTE.length));
      else if (c.name.indexOf(STOPPED) === 0) stopped = c.name.slice(STOPPED.length);
      else {
        const v = parseCheckName(c.name);
        if (v) verdicts.push(c.fails > 0 && v.outcome !== 'fail' ? { ...v, outcome: 'fail' } : v);
      }
    }
    // A failed threshold that no recorded verdict explains still fails the report.
    for (const key of Object.keys(data.metrics)) {
      const th = data.metrics[key].thresholds || {};
      for (const expr of Object.keys(th)) {
        const m = /requirement:([A-Z0-9-]+)/.exec(key);
        const requirement = m ? m[1] : def.requirements[0];
        const explained = verdicts.some((v) => v.outcome === 'fail' && (!m || v.requirement === requirement));
        if (!th[expr].ok && !explained)
          verdicts.push({
            requirement,
            outcome: 'fail',
            title: 'k6 threshold failed',
            message: `threshold ${key} ${expr} failed${key === 'rl_finished' ? ': the scenario did not finish' : ''}`,
          });
      }
    }
    if (!verdicts.length)
      notes.push(
        "the k6 summary carried none of the verdict checks (a summary format this script does not know?): k6's exit code, from the thresholds, is the verdict.",
      );
    const endedAt = Date.now();
    const duration = data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs : 0;
    const sent = data.metrics[SENT] || data.metrics.http_reqs;
    const http_reqs = sent && sent.values ? sent.values.count || 0 : 0;
    notes.push('k6 engine: verdicts come from the VU; the per-request timeline is available only from the Node engine or k6 --out json.');
    const report = buildReport(
      {
        scenario: name,
        plan: cfg.plan,
        engine: 'k6',
        target: cfg.baseUrl,
        startedAt: endedAt - duration,
        endedAt,
        requestsSent: http_reqs,
        verdicts,
        stoppedBecause: stopped,
        notes,
      },
      redact,
    );
    const base = `${cfg.reportsDir}/${reportBaseName(name, cfg.plan)}`;
    return {
      [`${base}.json`]: redact(JSON.stringify(report, null, 2)) + '\n',
      [`${base}.junit.xml`]: redact(junit(report)),
      stdout: redact(summaryText(report)),
    };
  }

  return { options, setup, vu, handleSummary };
}
