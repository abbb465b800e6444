/**
 * Benchmarks of the exploration phase (generated inputs):
 * - per planted fault that only generated inputs reach, over 20 seeds at the
 *   local default budget: the share of seeds that find it (goal ≥ 95 %) and the
 *   median number of the phase's requests until it was reported (shrinking
 *   included), with the part of the phase that found it; and the same with the
 *   generated and stateful parts alone (no coverage cases: what the generators
 *   reach by themselves, reported);
 * - false alarms over every valid variant and the same seeds (goal 0);
 * - the wall time the phase adds to the first command, `npm start` on the
 *   embedded server, next to the same run with the phase off (goal ≤ 10 s).
 * The first two run on simulated time (the reference app in process), so they
 * measure reach, not the machine.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS, FAULT_NAMES, type FaultName } from '../reference/faults.ts';
import type { AppOptions } from '../reference/options.ts';
import { closeTransport } from '../src/http/transport.ts';
import { loadOf } from './verdicts-checkout.ts';
import { simLoad } from './verdicts-load.ts';
import { runSuiteAgainst } from './support/suite.ts';
import { VALID_SERVERS } from './support/valid-servers.ts';
import { benchEnv, ROOT, type BenchLine } from './conformance.ts';
import type { SpecFile } from '../src/harness/define-spec.ts';
import { tempDir } from './support/temp.ts';
import { nodeArgs } from '../bin/build.mjs';

/** The seeds every exploration benchmark runs (`BENCH_SEEDS=N`: the first N of them, when 20 does not fit the time at hand). */
export const SEEDS = Array.from({ length: Math.min(20, Number(process.env.BENCH_SEEDS) || 20) }, (_, i) => String(1000 + i * 7919));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

/** The generated and stateful parts alone: no specs, no coverage cases (their share of the budget goes to the generators). */
const GENERATORS_ONLY = (f: SpecFile) => f.operation === 'exploration' && f.behaviour !== 'coverage-values';

/** `BENCH_FAULTS=a,b`: only these faults (a benchmark of many faults takes long; unset: every one). */
const chosen = (f: FaultName): boolean => {
  const only = (process.env.BENCH_FAULTS ?? '').split(',').filter(Boolean);
  return !only.length || only.includes(f);
};

/** One conformance run in process at a seed, or on real sockets for a fault only a socket shows (FaultSpec.realSocket). */
async function conformanceRun(fault: FaultName, seed: string, generatorsOnly: boolean) {
  const real = !!FAULTS[fault].realSocket;
  const run = await runSuiteAgainst(
    { faults: [fault] },
    { env: { ANIMAL_STORE_SEED: seed }, ...(generatorsOnly ? { specs: GENERATORS_ONLY } : {}), ...(real ? { real } : {}) },
  );
  if (real) await closeTransport();
  return run;
}

/**
 * Per fault only generated inputs reach, over `seeds` at the default budget: the share of single runs that find it.
 * `heldOut`: the faults written after the generators were done, with none aimed at them (how general the generators
 * are: reported, not a goal), a held-out fault only the rate-limit scenarios can see included (benchHeldOutLoad); else
 * the planted ones (goal ≥ 95 % each).
 */
export async function benchPlantedFaults(seeds = SEEDS, generatorsOnly = false, heldOut = false): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  for (const fault of FAULT_NAMES.filter((f) => FAULTS[f].generatedOnly && !!FAULTS[f].heldOut === heldOut && chosen(f))) {
    const { requirement, outcome } = FAULTS[fault].expect;
    const until: number[] = [];
    const parts = new Map<string, number>();
    for (const seed of seeds) {
      const run = await conformanceRun(fault, seed, generatorsOnly);
      if (run.status(requirement) !== outcome) continue;
      const f = run.findings.find((x) => x.requirement === requirement && x.replay && (x.outcome === 'fail' || x.outcome === 'warn'));
      until.push(f?.replay?.requests ?? 0);
      const part = f?.replay?.phase ?? '?';
      parts.set(part, (parts.get(part) ?? 0) + 1);
    }
    const share = (100 * until.length) / seeds.length;
    const socket = FAULTS[fault].realSocket ? ' on real sockets' : '';
    out.push({
      name: `explore${generatorsOnly ? ' (generators alone)' : heldOut ? ' (held out)' : ''}: ${fault} found (${requirement})`,
      value: Math.round(share),
      unit: '% of seeds',
      goal: generatorsOnly || heldOut ? 'reported' : '≥ 95 %',
      met: generatorsOnly || heldOut || share >= 95,
      detail: `${until.length}/${seeds.length} seeds${socket}; median ${median(until)} requests until reported; by ${[...parts].map(([p, n]) => `${p} ${n}`).join(', ')}`,
    });
  }
  return heldOut && !generatorsOnly ? [...out, ...(await benchHeldOutLoad())] : out;
}

/**
 * The held-out faults only the rate-limit scenarios can see (a load fault marked heldOut): one run of the per-minute
 * scenarios (ceiling, recovery, sustained, overload) on simulated time, Node engine, as bench:verdicts runs them —
 * deterministic, so one run is the measure (found: 100 %, else 0).
 */
async function benchHeldOutLoad(): Promise<BenchLine[]> {
  const faults = FAULT_NAMES.filter((f) => FAULTS[f].suite === 'load' && FAULTS[f].heldOut && chosen(f));
  if (!faults.length) return [];
  const api = await loadOf(ROOT);
  const out: BenchLine[] = [];
  for (const fault of faults) {
    const { requirement, outcome } = FAULTS[fault].expect;
    const spec = {
      name: `held-out/${fault}`,
      group: 'load-node' as const,
      kind: 'load' as const,
      app: { faults: [fault] },
      plan: 'enterprise' as const,
      env: {},
    };
    const reports = (await simLoad(api, spec, 'node', '')).flatMap((l) => l.reports);
    const status = api.aggregate.aggregate(reports.flatMap(api.aggregate.loadFindings)).find((r) => r.id === requirement)?.status;
    const by = reports
      .filter((r) => r.judgements.some((j) => j.requirement === requirement && j.outcome === outcome))
      .map((r) => r.scenario);
    const found = status === outcome;
    out.push({
      name: `explore (held out): ${fault} found (${requirement})`,
      value: found ? 100 : 0,
      unit: '% of runs',
      goal: 'reported',
      met: true,
      detail: `${found ? 1 : 0}/1 load run (the per-minute scenarios, simulated time, Node engine); ${requirement} ${status ?? 'not judged'}; by ${by.join(', ') || 'none'}; ${reports.reduce((n, r) => n + r.requestsSent, 0)} requests`,
    });
  }
  return out;
}

/**
 * The valid variants held out with the faults of issue 39 (reference/held-out-variants-39.ts): each must certify
 * (goal 0 alarms over the seeds); a variant only a socket shows runs on real sockets.
 */
export const HELD_OUT_VARIANTS: { name: string; options: AppOptions; real?: true }[] = [
  { name: 'listOrder=newest', options: { variants: { listOrder: 'newest' } } },
  { name: 'listOrder=name', options: { variants: { listOrder: 'name' } } },
  { name: 'ids=snowflake', options: { variants: { ids: 'snowflake' } } },
  { name: 'maxRequestsPerConnection=5', options: { variants: { wire: { maxRequestsPerConnection: 5 } } }, real: true },
];

export async function benchHeldOutVariants(seeds = SEEDS): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  for (const v of HELD_OUT_VARIANTS) {
    const alarms: string[] = [];
    for (const seed of seeds) {
      const run = await runSuiteAgainst(v.options, { env: { ANIMAL_STORE_SEED: seed }, ...(v.real ? { real: true } : {}) });
      if (v.real) await closeTransport();
      for (const p of run.problems()) alarms.push(`seed ${seed}: ${p.slice(0, 160)}`);
    }
    out.push({
      name: `explore (held out): false alarms with the valid variant ${v.name}`,
      value: alarms.length,
      unit: 'alarms',
      goal: '0',
      met: alarms.length === 0,
      detail: alarms.length ? alarms.slice(0, 3).join(' | ') : `${seeds.length} seeds${v.real ? ' on real sockets' : ''}`,
    });
  }
  return out;
}

/**
 * `BENCH_VARIANTS=a,b`: only the valid variants whose name holds one of these (a run over all 27 takes long; unset: every
 * one; `in-process` keeps those that run on simulated time, `wire` those on real sockets).
 */
const variantChosen = (v: (typeof VALID_SERVERS)[number]): boolean => {
  const only = (process.env.BENCH_VARIANTS ?? '').split(',').filter(Boolean);
  const wire = !!v.options.variants?.wire;
  return !only.length || only.some((o) => (o === 'wire' ? wire : o === 'in-process' ? !wire : v.name.includes(o)));
};

export async function benchFalseAlarms(seeds = SEEDS): Promise<BenchLine[]> {
  let runs = 0;
  const alarms: string[] = [];
  const variants = VALID_SERVERS.filter(variantChosen);
  for (const v of variants) {
    for (const seed of seeds) {
      // Wire variants are about framing on a real socket; the others run on simulated time.
      const run = await runSuiteAgainst(v.options, { real: !!v.options.variants?.wire, env: { ANIMAL_STORE_SEED: seed } });
      runs++;
      for (const p of run.problems()) alarms.push(`${v.name}, seed ${seed}: ${p.slice(0, 160)}`);
    }
  }
  return [
    {
      name: `explore: false alarms over ${variants.length === VALID_SERVERS.length ? 'every valid variant' : `${variants.length} of the ${VALID_SERVERS.length} valid variants (BENCH_VARIANTS)`} and seed`,
      value: alarms.length,
      unit: 'alarms',
      goal: '0',
      met: alarms.length === 0,
      detail: alarms.length
        ? alarms.slice(0, 3).join(' | ')
        : `${runs} runs (${runs / seeds.length} variants × ${seeds.length} seeds; wire variants on real sockets)`,
    },
  ];
}

function npmStart(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, nodeArgs('src/cli/main.ts'), { cwd: ROOT, env: benchEnv(env), stdio: 'ignore' });
    const killer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(killer);
      done(performance.now() - started);
    });
  });
}

export async function benchWallTime(): Promise<BenchLine[]> {
  const dir = tempDir('bench-explore');
  try {
    const off = await npmStart({
      ANIMAL_STORE_REPORTS_DIR: join(dir, 'off'),
      ANIMAL_STORE_EXPLORE_BUDGET: '0',
      ANIMAL_STORE_ENGINE: 'node',
    });
    const on = await npmStart({ ANIMAL_STORE_REPORTS_DIR: join(dir, 'on'), ANIMAL_STORE_ENGINE: 'node' });
    const added = on - off;
    return [
      {
        name: 'explore: wall time added to npm start (embedded server, default budget)',
        value: Math.round(added),
        unit: 'ms',
        goal: '≤ 10000 ms',
        met: added <= 10_000,
        detail: `${Math.round(on)} ms with the phase, ${Math.round(off)} ms with --explore-budget 0`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
