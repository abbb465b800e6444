/**
 * Benchmarks of the conformance suite:
 * - wall time and request count of a full `npm run conformance` against the
 *   embedded reference server, Vitest start-up included (goal: under 10 s);
 * - peak memory (RSS) of a conformance run against the huge-body server next to
 *   the same run against the normal reference server (goal: under 1.5×).
 * Child processes get a clean environment (benchEnv): only servers started here
 * are ever reached, whatever the shell or .env says.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp } from '../reference/app.ts';
import { listen } from '../reference/server.ts';
import type { FaultName } from '../reference/faults.ts';
import { SETTINGS } from '../src/settings/settings.ts';
import { tempDir } from './support/temp.ts';
import { nodeArgs } from '../bin/build.mjs';

export const ROOT = resolve(import.meta.dirname, '..');

/** One result line of `npm run bench` (every group returns these; one table prints them). */
export interface BenchLine {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean;
  detail?: string;
  /** Not measured, and why (e.g. no k6 binary): shown as skipped, never as a missed goal. */
  skipped?: string;
}

/**
 * The environment of a benchmark's child process: no ANIMAL_STORE_* or K6_*
 * variable of the shell, every setting's variable set empty (so .env cannot
 * supply one: dotenv keeps variables that exist; an empty one reads as unset),
 * then `extra`.
 */
export function benchEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ANIMAL_STORE_') && !k.startsWith('K6_')) env[k] = v;
  for (const s of SETTINGS) if (s.env) env[s.env] = '';
  env.ANIMAL_STORE_API_KEY = '';
  return Object.assign(env, extra);
}

/** A command of the suite in a child process with a clean environment: its exit code, stdout and wall time. */
export function run(
  args: string[],
  env: Record<string, string>,
  killAfterMs = 180_000,
): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgs(args[0]), ...args.slice(1)], {
      cwd: ROOT,
      env: benchEnv(env),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stdout, ms: performance.now() - started });
    });
  });
}

export async function fullRun(): Promise<BenchLine[]> {
  const reports = tempDir('bench-conformance');
  const r = await run(['src/cli/conformance.ts'], { ANIMAL_STORE_REPORTS_DIR: reports });
  let report: { requestsSent: number; outcome: string };
  try {
    const dir = join(reports, 'conformance', readdirSync(join(reports, 'conformance'))[0]);
    report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as typeof report;
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
  return [
    {
      name: 'conformance run, wall time (Vitest start-up included)',
      value: Math.round(r.ms),
      unit: 'ms',
      goal: '< 10000 ms',
      met: r.ms < 10_000,
      detail: `exit ${r.code}, outcome ${report.outcome}`,
    },
    { name: 'conformance run, requests sent', value: report.requestsSent, unit: 'requests', goal: 'reported', met: true },
  ];
}

async function rssAgainst(faults: FaultName[]): Promise<{ rss: number; requests: number }> {
  const app = buildApp({ faults });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  try {
    const r = await run(['bench/rss-probe.ts'], {
      ANIMAL_STORE_BASE_URL: server.url,
      ANIMAL_STORE_API_KEY: app.keys.business,
      ANIMAL_STORE_PLAN: 'business',
      ANIMAL_STORE_TIMEOUT_MS: '3000',
    });
    const last = r.stdout.trim().split('\n').pop();
    if (r.code !== 0 || !last) throw new Error(`rss-probe exited ${r.code} without a result`);
    const line = JSON.parse(last) as { maxRssBytes: number; requests: number };
    return { rss: line.maxRssBytes, requests: line.requests };
  } finally {
    await server.close();
  }
}

export async function memory(): Promise<BenchLine[]> {
  const normal = await rssAgainst([]);
  const huge = await rssAgainst(['huge-body']);
  const ratio = huge.rss / normal.rss;
  const mb = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  return [
    {
      name: 'peak RSS, conformance run vs normal server',
      value: Math.round(normal.rss / 1048576),
      unit: 'MiB',
      goal: 'reference',
      met: true,
      detail: `${normal.requests} requests`,
    },
    {
      name: 'peak RSS, conformance run vs 40 MB-body server',
      value: Math.round(huge.rss / 1048576),
      unit: 'MiB',
      goal: '< 1.5× normal',
      met: ratio < 1.5,
      detail: `${mb(huge.rss)} vs ${mb(normal.rss)} = ${ratio.toFixed(2)}×, ${huge.requests} requests`,
    },
  ];
}
