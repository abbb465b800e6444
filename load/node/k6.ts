/**
 * `--engine k6`: run the bundled script with the k6 binary on PATH, passing the
 * configuration as environment variables (k6 exposes them as __ENV), then read
 * the report its handleSummary wrote. k6's exit codes map to the suite's:
 * 0 → 0, 99 (thresholds: a verdict failed) → 1, 108 (setup aborted: target
 * unreachable) → 3, 107 (script error, e.g. a bad variable) → 2, else 1.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportBaseName } from '../lib/report.ts';
import type { LoadReport, ScenarioName } from '../lib/types.ts';
import type { LoadResult } from './engine.ts';

/** The k6 executable on PATH, if any. */
export function findK6(path = process.env.PATH || ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const name of process.platform === 'win32' ? ['k6.exe', 'k6'] : ['k6']) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export function mapK6Exit(code: number | null): 0 | 1 | 2 | 3 {
  if (code === 0) return 0;
  if (code === 108) return 3;
  if (code === 107 || code === 104) return 2;
  return 1;
}

const LOAD_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

function exec(cmd: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (c) => resolve(c));
  });
}

/** Rebuild the bundles (`npm run build:load`, in a child process) when missing or older than the k6 sources. */
async function ensureBundle(scenario: ScenarioName): Promise<string> {
  const file = join(LOAD_DIR, 'dist', `${scenario}.js`);
  const src = [join(LOAD_DIR, `${scenario}.ts`), join(LOAD_DIR, 'k6', 'runtime.ts')];
  if (!existsSync(file) || src.some((s) => statSync(s).mtimeMs > statSync(file).mtimeMs)) {
    const code = await exec(process.execPath, ['--import', 'tsx', join(LOAD_DIR, 'build.ts')]);
    if (code !== 0) throw new Error(`building the k6 bundles failed (exit ${code})`);
  }
  return file;
}

export interface K6RunOptions {
  k6: string;
  scenario: ScenarioName;
  /** ANIMAL_STORE_* variables for the script. */
  env: Record<string, string>;
  reportsDir: string;
  plan: string;
}

export async function runWithK6(o: K6RunOptions): Promise<LoadResult & { exitCode: 0 | 1 | 2 | 3 }> {
  const bundle = await ensureBundle(o.scenario);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(o.k6, ['run', '--quiet', bundle], {
      stdio: 'inherit',
      env: { ...process.env, ...o.env, ANIMAL_STORE_REPORTS_DIR: o.reportsDir },
    });
    child.on('error', reject);
    child.on('exit', (c) => resolve(c));
  });
  const json = join(o.reportsDir, `${reportBaseName(o.scenario, o.plan as never)}.json`);
  let report: LoadReport | undefined;
  try {
    report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
  } catch {
    report = undefined;
  }
  const exitCode = mapK6Exit(code);
  const fallback: LoadReport = {
    scenario: o.scenario,
    plan: o.plan as never,
    engine: 'k6',
    target: o.env.ANIMAL_STORE_BASE_URL || '',
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
    verdict: 'fail',
    requestsSent: 0,
    verdicts: [],
    timeline: [],
    stoppedBecause: `k6 exited with code ${code} without a report`,
  };
  return { report: report || fallback, exitCode, files: report ? { json, junit: json.replace(/\.json$/, '.junit.xml') } : {} };
}
