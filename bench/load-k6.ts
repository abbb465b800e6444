/**
 * The k6 engine next to the Node engine, when a k6 binary is found (K6_BIN, else
 * PATH — as `npm run load` finds it); without one, each line says why it was
 * skipped (never a missed goal).
 *
 * Start-up: from the engine's run(job) call to the first request reaching the
 * embedded server — for k6: spawning the binary, compiling the bundle, the init
 * context (once for the options, once per VU) and setup() up to its first
 * request; for the Node engine: building the run in process (the Node process
 * of `npm run load` starts both engines: its own start-up is common to both and
 * not counted). The server's metered clock sees that request (Meter), so
 * nothing in k6 or the bundle is instrumented. Each bundle the build ships (load/dist/<scenario>.js, built
 * afresh into a temporary folder) is measured the same way: the job
 * `npm run load` makes of it (plan free: the smallest caps, so the daily bundle
 * fits the default request budget; start-up does not depend on the plan), run
 * until its first request, then interrupted (the engine's abort: SIGINT for
 * k6). Median of `runs` runs each. Goal: under 1 s on k6 v1.0 to v2.2.
 *
 * Verdicts: the ceiling scenario run to completion by each engine through the
 * orchestrator, as `npm run load -- --engine k6|node --scenario ceiling` runs it
 * on the embedded server (plan business, a fresh server each, from the start of
 * a window): the outcome of every requirement must agree. Its k6 start-up is the
 * issue's "done when" line.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { buildLoad } from '../load/build.ts';
import { NodeEngine, type LoadEngine } from '../load/node/engine.ts';
import { findK6, K6Engine } from '../load/node/k6.ts';
import { jobsFor, runRateLimits } from '../load/node/run.ts';
import type { Judgement } from '../src/core/sections/define.ts';
import type { LoadReport } from '../src/core/load-report.ts';
import { SCENARIO_NAMES, type ScenarioName } from '../src/core/scenarios.ts';
import { closeTransport } from '../src/http/transport.ts';
import { median, meteredTarget, windowStart, type BenchLine } from './load-common.ts';
import { tempDir } from './support/temp.ts';

export const STARTUP_GOAL_MS = 1000;
const FIRST_REQUEST_TIMEOUT_MS = 20_000;

/** The k6 binary `npm run load` would use and its version, or why there is none. */
export async function k6Binary(): Promise<{ bin: string; version: string } | { skipped: string }> {
  const bin = findK6();
  if (!bin) return { skipped: 'no k6 binary (set K6_BIN, or put k6 on PATH)' };
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return { skipped: `K6_BIN=${bin} is not an executable file` };
  }
  return new Promise((resolve) =>
    execFile(bin, ['version'], { timeout: 10_000 }, (err, stdout) => {
      const version = /k6 (v[\d.]+\S*)/.exec(String(stdout));
      resolve(
        err || !version
          ? { skipped: `${bin} version failed: ${(err ? err.message : String(stdout)).trim().split('\n')[0]}` }
          : { bin, version: version[1] },
      );
    }),
  );
}

export function skippedLine(name: string, goal: string, why: string): BenchLine {
  return { name, value: 0, unit: '', goal, met: true, skipped: why };
}

/** Bundles of the current sources in a temporary folder (removed by `done`). */
export async function freshBundles(): Promise<{ dist: string; kib: Record<string, number>; done(): void }> {
  const dist = tempDir('bench-k6-bundles');
  const kib: Record<string, number> = {};
  for (const b of await buildLoad(dist)) kib[b.scenario] = Math.round(b.bytes / 1024);
  return { dist, kib, done: () => rmSync(dist, { recursive: true, force: true }) };
}

interface StartUp {
  ms?: number;
  /** Why no request came (the engine's last words). */
  problem?: string;
}

/** One run of `scenario` on `engine` against a fresh metered server, interrupted at its first request. */
async function startUp(makeEngine: (log: (l: string) => void) => LoadEngine, scenario: ScenarioName): Promise<StartUp> {
  const { target, meter } = await meteredTarget({ plan: 'free', 'allow-daily': true, 'deadline-ms': '120000' });
  let said = '';
  const engine = makeEngine((l) => (said = (said + l).slice(-400)));
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), FIRST_REQUEST_TIMEOUT_MS);
  try {
    const job = jobsFor(target, [scenario], target.config.maxRequests)[0];
    let first: number | undefined;
    void meter.firstRequest().then((t) => {
      first = t;
      ac.abort();
    });
    const t0 = Date.now();
    await engine.run(job, ac.signal);
    if (first === undefined)
      return { problem: `no request within ${FIRST_REQUEST_TIMEOUT_MS / 1000} s ${said.trim().split('\n').pop() || ''}` };
    return { ms: first - t0 };
  } finally {
    clearTimeout(timer);
    await closeTransport();
    await target.close();
  }
}

function outcomesOf(js: readonly Judgement[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const j of js) if (j.outcome !== 'observe') out[j.requirement] = j.outcome;
  return out;
}

/** The ceiling through the orchestrator on a fresh embedded server (business), from the start of a window. */
async function ceiling(engine: LoadEngine): Promise<{ report?: LoadReport; startUpMs?: number; why?: string }> {
  const { target, meter } = await meteredTarget({ plan: 'business', 'deadline-ms': '120000' });
  try {
    await windowStart(target.windowMs);
    let first: number | undefined;
    void meter.firstRequest().then((t) => (first = t));
    const t0 = Date.now();
    const run = await runRateLimits(target, ['ceiling'], { engine, budget: target.config.maxRequests });
    const report = run.reports[0];
    return { report, startUpMs: first === undefined ? undefined : first - t0, why: run.stopped?.reason };
  } finally {
    await closeTransport();
    await target.close();
  }
}

type K6 = { bin: string; version: string };
type Bundles = Awaited<ReturnType<typeof freshBundles>>;

/** The start-up of one scenario's bundle on k6 against the Node engine's, `runs` times each (the median). */
async function startUpLine(scenario: ScenarioName, { k6, bundles, runs }: { k6: K6; bundles: Bundles; runs: number }): Promise<BenchLine> {
  const k: number[] = [];
  const n: number[] = [];
  const problems: string[] = [];
  for (let i = 0; i < runs; i++) {
    const a = await startUp((log) => new K6Engine(k6.bin, bundles.dist, log), scenario);
    const b = await startUp(() => new NodeEngine({}, () => undefined), scenario);
    if (a.ms !== undefined) k.push(a.ms);
    else problems.push(`k6: ${a.problem}`);
    if (b.ms !== undefined) n.push(b.ms);
    else problems.push(`node: ${b.problem}`);
  }
  const value = k.length ? Math.round(median(k)) : 0;
  return {
    name: `k6 start-up, ${scenario}.js (run → first request)`,
    value,
    unit: 'ms',
    goal: STARTUP_GOAL,
    met: k.length === runs && value < STARTUP_GOAL_MS,
    detail: [
      `Node engine ${n.length ? Math.round(median(n)) : '?'} ms`,
      `k6 ${Math.min(...k)}–${Math.max(...k)} ms over ${k.length} runs (median)`,
      `${bundles.kib[scenario]} KiB, k6 ${k6.version}`,
      ...problems,
    ].join('; '),
  };
}

/** The ceiling through `npm run load` on each engine: k6's start-up in a whole run, and whether both engines' verdicts agree. */
async function ceilingLines(k6: K6, bundles: Bundles): Promise<BenchLine[]> {
  const quiet = () => undefined;
  const viaK6 = await ceiling(new K6Engine(k6.bin, bundles.dist, quiet));
  const viaNode = await ceiling(new NodeEngine({}, quiet));
  const a = outcomesOf(viaK6.report?.judgements ?? []);
  const b = outcomesOf(viaNode.report?.judgements ?? []);
  const ids = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const differ = ids.filter((id) => a[id] !== b[id]);
  const summary = (name: string, r: typeof viaK6) =>
    r.report ? `${name} ${r.report.verdict} (${r.report.requestsSent} requests)` : `${name}: no report (${r.why ?? '?'})`;
  return [
    {
      name: 'k6 start-up, npm run load --engine k6 --scenario ceiling (business, whole run)',
      value: viaK6.startUpMs ?? 0,
      unit: 'ms',
      goal: STARTUP_GOAL,
      met: viaK6.startUpMs !== undefined && viaK6.startUpMs < STARTUP_GOAL_MS,
      detail: `Node engine ${viaNode.startUpMs ?? '?'} ms; k6 ${k6.version}`,
    },
    {
      name: 'k6 and Node engine verdicts agree, ceiling (business): outcome per requirement',
      value: ids.length - differ.length,
      unit: `of ${ids.length}`,
      goal: 'every requirement',
      met: ids.length > 0 && differ.length === 0,
      detail: [
        summary('k6', viaK6),
        summary('node', viaNode),
        ...differ.map((id) => `${id}: k6 ${a[id] ?? '-'}, node ${b[id] ?? '-'}`),
      ].join('; '),
    },
  ];
}

const STARTUP_GOAL = `< ${STARTUP_GOAL_MS} ms (k6 v1.0 to v2.2)`;

export async function benchK6(runs = 3): Promise<BenchLine[]> {
  const k6 = await k6Binary();
  if ('skipped' in k6)
    return [
      skippedLine('k6 start-up per bundle (run → first request)', STARTUP_GOAL, k6.skipped),
      skippedLine('k6 and Node engine verdicts agree, ceiling', 'every requirement', k6.skipped),
    ];
  const bundles = await freshBundles();
  const lines: BenchLine[] = [];
  try {
    for (const scenario of SCENARIO_NAMES) lines.push(await startUpLine(scenario, { k6, bundles, runs }));
    lines.push(...(await ceilingLines(k6, bundles)));
  } finally {
    bundles.done();
  }
  return lines;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) for (const l of await benchK6()) console.log(JSON.stringify(l));
