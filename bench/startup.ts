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
 *   Goal: ≤ 1.5 CPU-seconds. Reported beside it: the whole run's CPU (the shell's account of the tree it waited for)
 *   and, from the two, what a request costs after the first spec request (reports included).
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
const RUNS = { conformance: 5, whole: 3, help: 7 };
const RUN_TIMEOUT_MS = 180_000;

interface ConformanceCpu {
  /** The tree's CPU milliseconds when the preflight arrived. */
  preflight: number;
  /** … when the first request of the specs arrived. */
  firstSpec: number;
  /** The whole run's (when it was run to its end). */
  total?: number;
  /** Requests the server received. */
  requests: number;
}

/** A reference server with a business key and a one-second window, reading `rootPid()`'s tree CPU at its first requests. */
async function meteredServer(rootPid: () => number) {
  const app = buildApp({ windowMs: 1000 });
  const seen: number[] = [];
  let requests = 0;
  let reached: () => void = () => {};
  const firstSpec = new Promise<void>((resolve) => (reached = resolve));
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests++;
    if (seen.length < 2) seen.push(treeCpuMs(rootPid()));
    if (seen.length === 2) reached();
    app.handler(req, res);
  };
  const server = await listen({ ...app, handler }, { host: '127.0.0.1', port: 0 });
  return { server, key: app.keys.business, seen, firstSpec, requests: () => requests };
}

/**
 * `npm run conformance` against a fresh reference server, in a shell that reports the CPU of what it waited for: the
 * tree's CPU at its first two requests, then (`whole`) its whole run's, else the run killed at its first spec request.
 */
async function conformanceCpu(whole: boolean): Promise<ConformanceCpu> {
  let root = 0;
  const s = await meteredServer(() => root);
  const command = ['npm', 'run', 'conformance', '--', '--base-url', s.server.url, '--plan', 'business'];
  const child = spawn('sh', ['-c', SHELL_REPORTING_CPU, 'sh', ...command], {
    cwd: ROOT,
    env: benchEnv({ ANIMAL_STORE_API_KEY: s.key, ANIMAL_STORE_REPORTS_DIR: tempDir('bench-startup') }),
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  root = child.pid ?? 0;
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const timeout = new Promise((r) => setTimeout(r, RUN_TIMEOUT_MS).unref());
    await Promise.race([whole ? ended : s.firstSpec, ended, timeout]);
    if (s.seen.length < 2) throw new Error(`npm run conformance sent ${s.seen.length} request(s) and no spec request`);
    if (whole) await Promise.race([ended, timeout]);
    return { preflight: s.seen[0], firstSpec: s.seen[1], requests: s.requests(), ...(whole ? { total: treeCpuOfShell(out) } : {}) };
  } finally {
    if (!whole) killGroup(root);
    await ended;
    await s.server.close();
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already ended.
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

async function repeat<T>(n: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

/** The three lines: the fixed cost (goal), the whole run and its cost per request (reported), --help (goal). */
export async function benchStartup(): Promise<BenchLine[]> {
  const load = loadavg()[0];
  const runs = await repeat(RUNS.conformance, () => conformanceCpu(false));
  const wholes = await repeat(RUNS.whole, () => conformanceCpu(true));
  const helps = await repeat(RUNS.help, helpCpu);
  const loads = `load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
  return [fixedLine(runs, loads), wholeLine(wholes, loads), helpLine(helps, loads)];
}

function fixedLine(runs: ConformanceCpu[], loads: string): BenchLine {
  const fixed = median(runs.map((r) => r.firstSpec));
  const toPreflight = median(runs.map((r) => r.preflight));
  const vitest = median(runs.map((r) => r.firstSpec - r.preflight));
  return {
    name: 'npm run conformance against a server: CPU before its first spec request',
    value: seconds(fixed),
    unit: 'CPU-s (median)',
    goal: `≤ ${CONFORMANCE_GOAL_MS / 1000} CPU-s`,
    met: fixed <= CONFORMANCE_GOAL_MS,
    detail: `${runs.length} runs: ${runs.map((r) => seconds(r.firstSpec)).join(', ')}; up to the preflight ${seconds(toPreflight)}, then Vitest to the first spec request ${seconds(vitest)} (medians); ${loads}`,
  };
}

/** The whole run's CPU, and what each request after the first spec request cost: (whole − fixed) / requests. */
function wholeLine(runs: ConformanceCpu[], loads: string): BenchLine {
  const total = median(runs.map((r) => r.total ?? 0));
  const perRequest = median(runs.map((r) => ((r.total ?? 0) - r.firstSpec) / Math.max(1, r.requests - 1)));
  return {
    name: 'npm run conformance against a server: CPU of the whole run',
    value: seconds(total),
    unit: 'CPU-s (median)',
    goal: 'reported',
    met: true,
    detail: `${runs.length} runs: ${runs.map((r) => `${seconds(r.total ?? 0)} (${r.requests} requests)`).join(', ')}; after the first spec request ${perRequest.toFixed(1)} ms a request (median), the reports included; ${loads}`,
  };
}

function helpLine(helps: number[], loads: string): BenchLine {
  const help = median(helps);
  return {
    name: 'npm start -- --help: CPU',
    value: seconds(help),
    unit: 'CPU-s (median)',
    goal: `≤ ${HELP_GOAL_MS / 1000} CPU-s`,
    met: help <= HELP_GOAL_MS,
    detail: `${helps.length} runs: ${helps.map(seconds).join(', ')}; npm included; ${loads}`,
  };
}
