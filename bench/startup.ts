/**
 * What a command costs before it does anything (issue 32), in CPU time of its whole process tree — npm, the shell,
 * the CLI, Vitest's worker, esbuild's service — read from /proc (bench/support/tree-cpu.ts), never wall time: the
 * machine is shared. Median of several runs each.
 *
 * - `npm run conformance` against a server: its fixed cost is the tree's CPU time until the first request of the
 *   specs reaches the server (the server, started here on 127.0.0.1, reads the tree's /proc stats as that request
 *   arrives, then the run is killed). The request before it is the CLI's preflight (src/http/preflight.ts): the
 *   detail splits the cost into the command up to its preflight and Vitest's start-up up to the first spec request.
 *   The server: the reference server with a business key and a one-second window (no wait on the rate limit).
 *   Goal: ≤ 1.5 CPU-seconds.
 * - `npm start -- --help`: the whole command, npm included, read from the shell that waited for it. Goal: ≤ 0.3
 *   CPU-seconds.
 */
import { spawn } from 'node:child_process';
import type http from 'node:http';
import { loadavg } from 'node:os';
import { buildApp } from '../reference/app.ts';
import { listen } from '../reference/server.ts';
import { benchEnv, ROOT, type BenchLine } from './conformance.ts';
import { median } from './load-common.ts';
import { SHELL_REPORTING_CPU, treeCpuMs, treeCpuOfShell } from './support/tree-cpu.ts';
import { tempDir } from './support/temp.ts';

export const CONFORMANCE_GOAL_MS = 1500;
export const HELP_GOAL_MS = 300;
const RUNS = { conformance: 5, help: 7 };
const FIRST_REQUEST_TIMEOUT_MS = 120_000;

interface FirstRequests {
  /** The tree's CPU milliseconds when the preflight arrived. */
  preflight: number;
  /** … when the first request of the specs arrived. */
  firstSpec: number;
}

/** Runs `npm run conformance` against a fresh reference server until its second request; the tree's CPU at each. */
async function conformanceUntilFirstSpec(): Promise<FirstRequests> {
  const app = buildApp({ windowMs: 1000 });
  const seen: number[] = [];
  let root = 0;
  let reached: () => void = () => {};
  const second = new Promise<void>((resolve) => (reached = resolve));
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (seen.length < 2) seen.push(treeCpuMs(root));
    if (seen.length === 2) reached();
    app.handler(req, res);
  };
  const server = await listen({ ...app, handler }, { host: '127.0.0.1', port: 0 });
  const reports = tempDir('bench-startup');
  const child = spawn('sh', ['-c', '"$@"', 'sh', 'npm', 'run', 'conformance', '--', '--base-url', server.url, '--plan', 'business'], {
    cwd: ROOT,
    env: benchEnv({ ANIMAL_STORE_API_KEY: app.keys.business, ANIMAL_STORE_REPORTS_DIR: reports }),
    stdio: 'ignore',
    detached: true,
  });
  root = child.pid ?? 0;
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    await Promise.race([second, ended, new Promise((r) => setTimeout(r, FIRST_REQUEST_TIMEOUT_MS).unref())]);
    if (seen.length < 2) throw new Error(`npm run conformance sent ${seen.length} request(s) and no spec request`);
    return { preflight: seen[0], firstSpec: seen[1] };
  } finally {
    try {
      process.kill(-root, 'SIGKILL');
    } catch {
      // Already ended.
    }
    await ended;
    await server.close();
  }
}

/** `npm start -- --help`'s whole tree, npm included: CPU milliseconds. */
function helpCpu(): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', SHELL_REPORTING_CPU, 'sh', 'npm', 'start', '--', '--help'], {
      cwd: ROOT,
      env: benchEnv(),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) fail(new Error(`npm start -- --help exited ${code}`));
      else done(treeCpuOfShell(out));
    });
  });
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;

export async function benchStartup(): Promise<BenchLine[]> {
  const load = loadavg()[0];
  const runs: FirstRequests[] = [];
  for (let i = 0; i < RUNS.conformance; i++) runs.push(await conformanceUntilFirstSpec());
  const helps: number[] = [];
  for (let i = 0; i < RUNS.help; i++) helps.push(await helpCpu());
  const fixed = median(runs.map((r) => r.firstSpec));
  const toPreflight = median(runs.map((r) => r.preflight));
  const vitest = median(runs.map((r) => r.firstSpec - r.preflight));
  const help = median(helps);
  const loads = `load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
  return [
    {
      name: 'npm run conformance against a server: CPU before its first spec request',
      value: seconds(fixed),
      unit: 'CPU-s (median)',
      goal: `≤ ${CONFORMANCE_GOAL_MS / 1000} CPU-s`,
      met: fixed <= CONFORMANCE_GOAL_MS,
      detail: `${RUNS.conformance} runs: ${runs.map((r) => seconds(r.firstSpec)).join(', ')}; up to the preflight ${seconds(toPreflight)}, then Vitest to the first spec request ${seconds(vitest)} (medians); ${loads}`,
    },
    {
      name: 'npm start -- --help: CPU',
      value: seconds(help),
      unit: 'CPU-s (median)',
      goal: `≤ ${HELP_GOAL_MS / 1000} CPU-s`,
      met: help <= HELP_GOAL_MS,
      detail: `${RUNS.help} runs: ${helps.map(seconds).join(', ')}; npm included; ${loads}`,
    },
  ];
}
