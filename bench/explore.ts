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
import { FAULTS, FAULT_NAMES } from '../reference/faults.ts';
import { runSuiteAgainst } from './support/suite.ts';
import { VALID_SERVERS } from './support/valid-servers.ts';
import { benchEnv, ROOT, type BenchLine } from './conformance.ts';
import type { SpecFile } from '../src/harness/define-spec.ts';
import { tempDir } from './support/temp.ts';
import { nodeArgs } from '../bin/build.mjs';

export const SEEDS = Array.from({ length: 20 }, (_, i) => String(1000 + i * 7919));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

/** The generated and stateful parts alone: no specs, no coverage cases (their share of the budget goes to the generators). */
const GENERATORS_ONLY = (f: SpecFile) => f.operation === 'exploration' && f.behaviour !== 'coverage-values';

/**
 * Per fault only generated inputs reach, over `seeds` at the default budget: the share of single runs that find it.
 * `heldOut`: the faults written after the generators were done, with none aimed at them (how general the generators
 * are: reported, not a goal); else the planted ones (goal ≥ 95 % each).
 */
export async function benchPlantedFaults(seeds = SEEDS, generatorsOnly = false, heldOut = false): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  for (const fault of FAULT_NAMES.filter((f) => FAULTS[f].generatedOnly && !!FAULTS[f].heldOut === heldOut)) {
    const { requirement, outcome } = FAULTS[fault].expect;
    const until: number[] = [];
    const parts = new Map<string, number>();
    for (const seed of seeds) {
      const run = await runSuiteAgainst(
        { faults: [fault] },
        { env: { ANIMAL_STORE_SEED: seed }, ...(generatorsOnly ? { specs: GENERATORS_ONLY } : {}) },
      );
      if (run.status(requirement) !== outcome) continue;
      const f = run.findings.find((x) => x.requirement === requirement && x.replay && (x.outcome === 'fail' || x.outcome === 'warn'));
      until.push(f?.replay?.requests ?? 0);
      const part = f?.replay?.phase ?? '?';
      parts.set(part, (parts.get(part) ?? 0) + 1);
    }
    const share = (100 * until.length) / seeds.length;
    out.push({
      name: `explore${generatorsOnly ? ' (generators alone)' : heldOut ? ' (held out)' : ''}: ${fault} found (${requirement})`,
      value: Math.round(share),
      unit: '% of seeds',
      goal: generatorsOnly || heldOut ? 'reported' : '≥ 95 %',
      met: generatorsOnly || heldOut || share >= 95,
      detail: `${until.length}/${seeds.length} seeds; median ${median(until)} requests until reported; by ${[...parts].map(([p, n]) => `${p} ${n}`).join(', ')}`,
    });
  }
  return out;
}

export async function benchFalseAlarms(seeds = SEEDS): Promise<BenchLine[]> {
  let runs = 0;
  const alarms: string[] = [];
  for (const v of VALID_SERVERS) {
    for (const seed of seeds) {
      // Wire variants are about framing on a real socket; the others run on simulated time.
      const run = await runSuiteAgainst(v.options, { real: !!v.options.variants?.wire, env: { ANIMAL_STORE_SEED: seed } });
      runs++;
      for (const p of run.problems()) alarms.push(`${v.name}, seed ${seed}: ${p.slice(0, 160)}`);
    }
  }
  return [
    {
      name: 'explore: false alarms over every valid variant and seed',
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
