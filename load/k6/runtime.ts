/**
 * The k6 side of every scenario script: options (executors and thresholds),
 * setup(), the VU functions and handleSummary(), built from the scenario table
 * of load/lib and the core's configuration, rules and report. The scripts
 * differ only in the scenario name.
 *
 * One plan (ANIMAL_STORE_PLAN and ANIMAL_STORE_API_KEY): one k6 scenario running
 * `default`. Several plans (ANIMAL_STORE_PLANS=free,pro with a key each in
 * ANIMAL_STORE_API_KEY_<PLAN>): one k6 scenario per plan, each running the
 * exported function named after its plan, side by side in one k6 process; each
 * plan's report is written on its own.
 *
 * Bundled by load/build.ts (an ES module, ES2017): no timers, no Node built-ins.
 * Every name k6 records is fixed (requirement ids, plan names; load/k6/summary.ts):
 * a check per requirement, its outcome, and a Counter of failures per requirement
 * with a `count==0` threshold, so k6's exit code is the verdict. handleSummary
 * reports the outcomes; the VUs' messages and timeline are in k6's log
 * (load/lib/k6-log.ts), from which the suite's k6 engine completes the report.
 */
import { Counter, Gauge } from 'k6/metrics';
import { ConfigError } from '../../src/settings/read-config.ts';
import type { Judgement } from '../../src/core/sections/define.ts';
import {
  isScenarioRequirementId,
  judgeScenarioRequirement,
  type ScenarioInfo,
  type ScenarioRequirementId,
} from '../../src/core/scenarios.ts';
import { RATE_LIMIT_LOAD } from '../../src/core/sections/rate-limit-load/requirements.ts';
import { buildLoadReport, reportBaseName } from '../../src/core/load-report.ts';
import { loadJunit, loadSummaryText } from '../lib/report-text.ts';
import { isPlanName, PLAN_NAMES_TEXT } from '../../src/core/plans.ts';
import { MAX_IN_FLIGHT } from '../lib/scenario-options.ts';
import type { ScenarioName } from '../lib/types.ts';
import { planEnv, planRun, segmentOf, type SetupData } from './plan-run.ts';
import { k6NetworkOptions } from './network.ts';
import { METRICS_ONLY_NOTE, outcomeKey, outcomesFromMetrics, SYSTEM_TAGS, type SummaryMetrics } from './summary.ts';

interface SummaryData {
  metrics: SummaryMetrics;
  state?: { testRunDurationMs?: number };
}

type PlanRun = ReturnType<typeof planRun>;

// Setup's reachability probe, which is not one of the scenario's requests; listed so that handleSummary sees the submetric.
const PROBE = 'http_reqs{name:reachability}';

export function k6Scenario(name: ScenarioName) {
  const plans = plansOf(__ENV);
  const metrics = {
    failures: new Counter('rl_verdict_failures'),
    finished: new Counter('rl_finished'),
    outcome: new Gauge('rl_outcome'),
  };
  const runs = plans.length ? plans.map((p) => planRun(name, planEnv(__ENV, p), metrics, p)) : [planRun(name, __ENV, metrics)];
  const first = runs[0];
  const options = optionsOf(name, runs, plans);

  /** setup(): each plan's (one plan: its data as it is; several: by plan). */
  function setup(): SetupData | Record<string, SetupData> {
    if (!plans.length) return first.setup();
    const out: Record<string, SetupData> = {};
    for (const r of runs) out[r.plan] = r.setup();
    return out;
  }

  /** The VU function of each plan, exported under the plan's name. */
  const exec: Record<string, (data: Record<string, SetupData>) => void> = {};
  for (const r of runs) exec[r.plan] = (data) => r.vu(data[r.plan]);
  const flush = (data: SetupData | Record<string, SetupData>) => {
    for (const r of runs) r.flush(plans.length ? (data as Record<string, SetupData>)[r.plan] : (data as SetupData));
  };
  const handleSummary = (data: SummaryData): Record<string, string> => summaryFiles(name, runs, plans, data);

  return { options, setup, vu: (data: SetupData) => first.vu(data), exec, flush, handleSummary };
}

/** The plans of a run side by side (ANIMAL_STORE_PLANS), none for a single plan's run; a name that is no plan is refused. */
function plansOf(env: Record<string, string | undefined>): string[] {
  const plans = (env.ANIMAL_STORE_PLANS || '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = plans.filter((p) => !isPlanName(p));
  if (bad.length) throw new ConfigError(`ANIMAL_STORE_PLANS must list ${PLAN_NAMES_TEXT}, got ${JSON.stringify(bad.join(','))}`);
  return plans;
}

/** k6's options: each plan's executor, the thresholds, and the few settings every scenario shares. */
function optionsOf(name: ScenarioName, runs: PlanRun[], plans: string[]) {
  const first = runs[0];
  const windowMs = Math.max(...runs.map((r) => r.windowMs));
  return {
    scenarios: scenariosOf(name, runs, plans),
    thresholds: thresholdsOf(first.def, plans),
    // The ceiling's requests in flight go out as one http.batch of up to MAX_IN_FLIGHT: all at once (k6's defaults, 20 and 6 per host, would queue them).
    batch: MAX_IN_FLIGHT,
    batchPerHost: MAX_IN_FLIGHT,
    maxRedirects: 0,
    setupTimeout: first.secs(2 * windowMs + first.cfg.timeoutMs + 30000),
    summaryTrendStats: ['avg', 'min', 'max', 'p(95)'],
    // k6 writes nine samples per request (http_reqs, http_req_failed and the seven timings), each with every system tag;
    // only these are kept: what the thresholds, the checks and a dashboard read (`url` and `method` would repeat `name`,
    // GET /pets; `group`, `proto`, `tls_version`, `subproto`, `service` and the `error` message say nothing here that
    // `error_code` does not).
    systemTags: SYSTEM_TAGS,
    // The client certificate and --insecure (the proxy, the CA and the HTTP version come through Go's environment).
    ...k6NetworkOptions(first.cfg.network),
  };
}

/** The thresholds: a failure counter per requirement that must stay at 0 (k6's exit code is the verdict), and the metrics handleSummary reads. */
function thresholdsOf(def: PlanRun['def'], plans: string[]): Record<string, string[]> {
  const thresholds: Record<string, string[]> = { [PROBE]: ['count>=0'] };
  if (!plans.length) {
    thresholds.rl_finished = ['count>=1'];
    for (const r of def.requirements) thresholds[`rl_verdict_failures{requirement:${r}}`] = ['count==0'];
  }
  // Listed (a threshold that always holds) so that handleSummary sees each requirement's outcome.
  const judged = judgedOf(def);
  for (const r of judged) for (const p of plans.length ? plans : [undefined]) thresholds[outcomeKey(r, p)] = ['value>=0'];
  // Several plans: each plan's own thresholds (tagged with it), so one plan's failure never shows up as another's.
  for (const p of plans) {
    thresholds[`rl_finished{plan:${p}}`] = ['count>=1'];
    thresholds[`http_reqs{plan:${p}}`] = ['count>=0'];
    for (const r of judged) thresholds[`rl_verdict_failures{requirement:${r},plan:${p}}`] = ['count==0'];
  }
  return thresholds;
}

/** The k6 scenarios: the scenario's (one plan) or one per plan, running the function named after it; and the flush. */
function scenariosOf(name: ScenarioName, runs: PlanRun[], plans: string[]): Record<string, unknown> {
  const scenarios: Record<string, unknown> = {};
  if (plans.length) for (const r of runs) scenarios[r.plan] = Object.assign({}, r.executor, { exec: r.plan });
  else scenarios[name] = runs[0].executor;
  // Several VUs on an arrival rate: a last iteration on every VU, after the rate's graceful stop, carries what each one saw.
  const flushVus = runs.reduce((n, r) => n + r.flushVus, 0);
  if (flushVus)
    scenarios.flush = {
      executor: 'per-vu-iterations',
      vus: flushVus,
      iterations: 1,
      startTime: `${Math.max(...runs.map((r) => r.flushAtMs))}ms`,
      maxDuration: '30s',
      exec: 'flush',
    };
  return scenarios;
}

/** handleSummary: each plan's load report (JSON and JUnit) from k6's metrics, and their summaries on stdout. */
function summaryFiles(name: ScenarioName, runs: PlanRun[], plans: string[], data: SummaryData): Record<string, string> {
  const endedAt = Date.now();
  const duration = data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs : 0;
  const startedAt = endedAt - duration;
  const files: Record<string, string> = {};
  let stdout = '';
  for (const r of runs) {
    const tag = plans.length ? r.plan : undefined;
    const report = buildLoadReport(
      {
        scenario: name,
        plan: r.plan,
        engine: 'k6',
        target: r.cfg.baseUrl as string,
        startedAt,
        endedAt,
        requestsSent: requestsSentOf(data.metrics, tag),
        judgements: judgementsOf(data.metrics, r, tag),
        timeline: [],
        notes: [METRICS_ONLY_NOTE],
        earlierRequests: r.o.earlierRequests,
      },
      r.redact,
    );
    // A share of a distributed run (even one that got no work) carries its requests for the merge step.
    const distributed = r.cfg.load.distributed;
    if (distributed) report.share = { segment: segmentOf(), inputs: r.shareInputs, samples: [] };
    const base = `${r.cfg.reportsDir}/${reportBaseName(name, r.plan)}${distributed ? share(segmentOf()) : ''}`;
    files[`${base}.json`] = r.redact(JSON.stringify(report, null, 2)) + '\n';
    files[`${base}.junit.xml`] = r.redact(loadJunit(report));
    stdout += r.redact(loadSummaryText(report));
  }
  files.stdout = stdout;
  return files;
}

/** A plan's judgements: each requirement's outcome, and a failed threshold of this plan that no judgement explains. */
function judgementsOf(metrics: SummaryMetrics, r: PlanRun, tag: string | undefined): Judgement[] {
  const judgements = outcomesFromMetrics(metrics, judgedOf(r.def), tag);
  for (const key of Object.keys(metrics)) {
    if (tag && !new RegExp(`[{,]plan:${tag}[,}]`).test(key)) continue;
    const th = metrics[key].thresholds || {};
    const finished = key.indexOf('rl_finished') === 0;
    for (const expr of Object.keys(th)) {
      const m = /requirement:([A-Z0-9-]+)/.exec(key);
      const requirement = m && isScenarioRequirementId(m[1]) ? m[1] : r.def.requirements[0];
      const explained = judgements.some((v) => v.outcome === 'fail' && (!m || v.requirement === requirement));
      const unfinished = finished && !judgements.length;
      if (!th[expr].ok && !explained && (!finished || unfinished))
        judgements.push(thresholdFailed(r, requirement, `${key} ${expr}`, finished));
    }
  }
  return judgements;
}

/** A failed threshold no judgement explains: the scenario did not finish (a suite error of its own requirement), or a failure. */
function thresholdFailed(r: PlanRun, requirement: ScenarioRequirementId, threshold: string, finished: boolean): Judgement {
  const message = `threshold ${threshold} failed${finished ? ': the scenario did not finish (k6 stopped it)' : ''}`;
  return finished
    ? RATE_LIMIT_LOAD.judge(r.def.requirements[0], { outcome: 'error', title: 'unfinished', message })
    : judgeScenarioRequirement(requirement, { ok: false, fail: 'threshold', message });
}

/** The requests a plan sent: its tagged count, or (one plan) every request but setup's probe. */
function requestsSentOf(metrics: SummaryMetrics, tag: string | undefined): number {
  const count = (key: string) => {
    const m = metrics[key];
    return m && m.values ? m.values.count || 0 : 0;
  };
  return tag ? count(`http_reqs{plan:${tag}}`) : Math.max(0, count('http_reqs') - count(PROBE));
}

/** Every requirement a scenario may judge (its own, and those judged on a dedicated key). */
function judgedOf(def: ScenarioInfo): ScenarioRequirementId[] {
  return (def.requirements as readonly ScenarioRequirementId[]).concat(def.dedicatedKeyRequirements || []);
}

/** The file name part of a share: its segment ("0:1/2" → ".share-0-1_2"), so shares in one folder never overwrite each other. */
function share(segment: string | undefined): string {
  return `.share-${(segment || 'whole').replace(/:/g, '-').replace(/\//g, '_')}`;
}
