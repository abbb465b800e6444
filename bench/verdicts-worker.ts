/**
 * A worker of `npm run bench:verdicts` (bench/verdicts.ts forks a few): runs what it is sent, one run at a time,
 * with the modules of the checkout it was given (argv: the checkout, the k6 bundles built from it, the k6 binary),
 * and answers with the run's verdicts. A conformance run is the whole suite in process (bench/support/suite.ts, as
 * the self-tests run it), every finding kept; a load run is ./verdicts-load.ts; a cli run ./verdicts-cli.ts.
 */
import type { Orchestrated } from '../load/node/orchestrator.ts';
import type { Finding } from '../src/results/types.ts';
import { loadOf, suiteOf, type LoadApi, type SuiteApi } from './verdicts-checkout.ts';
import { cliRun } from './verdicts-cli.ts';
import { realLoad, simLoad } from './verdicts-load.ts';
import { sortedRows, type RawRow, type StatusRow, type Verdicts } from './verdicts-model.ts';
import { appOptions, type RunSpec } from './verdicts-runs.ts';

export interface Task {
  spec: RunSpec;
  attempt: number;
}

export interface Answer {
  name: string;
  attempt: number;
  verdicts?: Verdicts;
  error?: string;
  ms: number;
  requests?: number;
}

const [ROOT, DIST, K6_BINARY] = process.argv.slice(2);
let suite: Promise<SuiteApi> | undefined;
let load: Promise<LoadApi> | undefined;

/** Status rows of the requirements a list of findings exercised, in a scope (the checkout's own aggregation). */
function statusRows(scope: string, results: { id: string; status: string }[]): StatusRow[] {
  return results.filter((r) => r.status !== 'skip').map((r): StatusRow => [scope, r.id, r.status]);
}

const rawRows = (scope: string, findings: readonly Pick<Finding, 'requirement' | 'outcome' | 'title'>[]): RawRow[] =>
  findings.map((f): RawRow => [scope, f.requirement, f.outcome, f.title]);

async function conformanceRun(api: SuiteApi, spec: RunSpec): Promise<{ verdicts: Verdicts; requests: number }> {
  const run = await api.suite.runSuiteAgainst(appOptions(spec.app), { plan: spec.plan, env: spec.env, real: !!spec.real });
  if (spec.real) await api.transport.closeTransport();
  const outcome = api.aggregate.outcomeOf('conformance', run.results, !!run.abort);
  const status: StatusRow[] = [['run', '*outcome', outcome], ...statusRows('run', run.results)];
  return { verdicts: { status: sortedRows(status), raw: sortedRows(rawRows('run', run.findings)) }, requests: run.requests };
}

/**
 * Per lane (a plan): each requirement's status over the lane's reports with its raw judgements, each titled with the
 * scenario that gave it (`ceiling: No early 429`), each report's verdict (`*verdict:ceiling`), what the lane did not run.
 */
function loadVerdicts(api: LoadApi, lanes: readonly Orchestrated[]): { verdicts: Verdicts; requests: number } {
  const status: StatusRow[] = [];
  const raw: RawRow[] = [];
  let requests = 0;
  for (const lane of lanes) {
    const plan = lane.reports[0]?.plan ?? 'lane';
    const notRun = api.aggregate.notRunFindings(lane.notRun);
    status.push(...statusRows(plan, api.aggregate.aggregate([...lane.reports.flatMap(api.aggregate.loadFindings), ...notRun])));
    if (lane.notRun.length) status.push([plan, '*not-run', lane.notRun.map((n) => n.scenario).join(',')]);
    if (lane.stopped) status.push([plan, '*stopped', lane.stopped.kind]);
    raw.push(...rawRows(plan, notRun));
    for (const r of lane.reports) {
      status.push([plan, `*verdict:${r.scenario}`, r.verdict]);
      raw.push(
        ...rawRows(
          plan,
          r.judgements.map((j) => ({ ...j, title: `${r.scenario}: ${j.title}` })),
        ),
      );
      requests += r.requestsSent;
    }
  }
  return { verdicts: { status: sortedRows(status), raw: sortedRows(raw) }, requests };
}

async function execute(spec: RunSpec): Promise<{ verdicts: Verdicts; requests: number }> {
  if (spec.group === 'conformance') return conformanceRun(await (suite ??= suiteOf(ROOT)), spec);
  if (spec.group === 'cli') return cliRun(await (suite ??= suiteOf(ROOT)), ROOT, spec);
  const api = await (load ??= loadOf(ROOT));
  if (spec.group === 'k6-real') {
    if (!K6_BINARY) throw new Error('no k6 binary (K6_BIN, ~/.local/bin/k6 or PATH)');
    return loadVerdicts(api, await realLoad(api, spec, K6_BINARY, DIST));
  }
  return loadVerdicts(api, await simLoad(api, spec, spec.group === 'load-k6' ? 'k6' : 'node', DIST));
}

async function answer(t: Task): Promise<Answer> {
  const started = Date.now();
  try {
    const r = await execute(t.spec);
    return { name: t.spec.name, attempt: t.attempt, verdicts: r.verdicts, ms: Date.now() - started, requests: r.requests };
  } catch (e) {
    return { name: t.spec.name, attempt: t.attempt, error: ((e as Error).stack ?? String(e)).slice(0, 2000), ms: Date.now() - started };
  }
}

process.on('message', (m: Task | 'exit') => {
  if (m === 'exit') process.exit(0);
  void answer(m).then((r) => process.send!(r));
});
