/**
 * explore-stacks: the conformance part and its exploration phase (`npm start -- --only conformance`, the
 * default exploration budget of a base URL) against each example server of examples/servers/ — servers
 * written apart from the suite, each certified — over 20 seeds, on a Free key with a 2 s window. Reported per
 * stack: MUST false alarms (any MUST failure against these correct servers; goal 0, with titles and seeds),
 * warnings (count and which requirements), requests sent and wall time per run.
 *
 * Each run gets a server of its own, started for it and stopped after it: a fresh store and a fresh rate-limit
 * window and day, so every seed sees the same server state whatever the seeds before it created (pages of a
 * status fill up over runs, which changes what the stateful part judges), and a finding belongs to its seed
 * alone. The stacks run side by side (one lane each, its seeds in turn): most of a run waits for the Free
 * key's windows, so the lanes share the two cores well; wall times are measured that way. A stack whose
 * directory or toolchain is missing is skipped with the reason (`run.sh check`). Every run is bounded: the
 * server's start (3 min: a first javac or go build), the suite's deadline (3 min) and a kill at 4 min.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { benchEnv, ROOT, type BenchLine } from './conformance.ts';
import { SEEDS } from './explore.ts';
import { tempDir } from './support/temp.ts';
import { nodeArgs } from '../bin/build.mjs';

export const STACKS = ['python-fastapi', 'node', 'go', 'java-jackson'] as const;
const RUN_SH = join(ROOT, 'examples/servers/run.sh');
const FREE_KEY = 'as_demo_free_5f1c9e27a8b34d60';
const WINDOW_MS = 2000;
const START_TIMEOUT_MS = 180_000;
const DEADLINE_MS = 180_000;
const KILL_AFTER_MS = 240_000;

interface Run {
  seed: string;
  ms: number;
  requests: number;
  /** MUST failures: "REQ-ID: title — message". */
  alarms: string[];
  /** Requirements that warned: "REQ-ID: title". */
  warnings: string[];
  /** The run did not end with a report (exit code, timeout, suite error). */
  problem?: string;
  /** What the report says of each requirement of WATCHED (its status), to show it exercised on every stack. */
  watched?: string[];
}

/** Requirements whose status on each stack is reported: refused creates read back (issue 39 §2), HEAD as GET. */
const WATCHED = ['CREATE-400-NOTHING-STORED', 'METHOD-HEAD-AS-GET'];

interface Report {
  outcome: string;
  requestsSent: number;
  suiteErrors?: unknown[];
  requirements: { id: string; level: string; status: string; findings?: { outcome: string; title: string; message: string }[] }[];
}

/** Why the stack cannot run here, or undefined when it can (run.sh check: its directory and toolchain). */
export function stackMissing(stack: string): string | undefined {
  const r = spawnSync('bash', [RUN_SH, 'check', stack], { encoding: 'utf8' });
  return r.status === 0 ? undefined : (r.stdout || r.stderr).trim() || `run.sh check exited ${r.status}`;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** Starts a stack in a process group of its own; resolves once it printed its `listening on` line. */
async function startStack(stack: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const env = {
    ...benchEnv(),
    HOST: '127.0.0.1',
    PORT: String(port),
    WINDOW_MS: String(WINDOW_MS),
    DAY_MS: '86400000',
    API_KEY_FREE: FREE_KEY,
  };
  const child = spawn('bash', [RUN_SH, 'start', stack], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}/v1`;
  let out = '';
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no 'listening on' within ${START_TIMEOUT_MS} ms: ${out.slice(-300)}`)),
      START_TIMEOUT_MS,
    );
    const read = (d: Buffer) => {
      out += d.toString();
      if (out.includes(`listening on ${url}`)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (clearTimeout(timer), fail(new Error(`exited ${code} before listening: ${out.slice(-300)}`))));
  }).catch(async (e: unknown) => {
    await stopStack(child);
    throw e;
  });
  return { url, child };
}

function stopStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((done) => {
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal); // the group: start.sh's build steps and the server
      } catch {
        /* already gone */
      }
    };
    const hard = setTimeout(() => kill('SIGKILL'), 10_000);
    child.on('exit', () => (clearTimeout(hard), done()));
    kill('SIGTERM');
  });
}

/** The suite's conformance part against `url` with `seed`: its exit code, wall time and report. */
function suite(url: string, seed: string, reports: string): Promise<{ code: number | null; ms: number }> {
  const args = [...nodeArgs('src/cli/main.ts'), '--only', 'conformance', '--base-url', url, '--plan', 'free'];
  args.push(
    '--window-ms',
    String(WINDOW_MS),
    '--seed',
    seed,
    '--deadline-ms',
    String(DEADLINE_MS),
    '--reports-dir',
    reports,
    '--no-progress',
  );
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: benchEnv({ ANIMAL_STORE_API_KEY: FREE_KEY }), stdio: 'ignore' });
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.on('error', fail);
    child.on('close', (code) => (clearTimeout(killer), done({ code, ms: performance.now() - started })));
  });
}

/** What one run's report says: MUST failures and warnings, each with its findings' titles. */
export function judgeReport(r: Report): Pick<Run, 'alarms' | 'warnings' | 'requests' | 'watched'> {
  const titles = (q: Report['requirements'][number], outcome: string) => [
    ...new Set((q.findings ?? []).filter((f) => f.outcome === outcome).map((f) => `${f.title} — ${f.message.slice(0, 200)}`)),
  ];
  const alarms = r.requirements
    .filter((q) => q.level === 'MUST' && q.status === 'fail')
    .flatMap((q) => titles(q, 'fail').map((t) => `${q.id}: ${t}`));
  const warnings = r.requirements
    .filter((q) => q.status === 'warn')
    .flatMap((q) => [...new Set((q.findings ?? []).filter((f) => f.outcome !== 'pass').map((f) => f.title))].map((t) => `${q.id}: ${t}`));
  const watched = WATCHED.map((id) => `${id} ${r.requirements.find((q) => q.id === id)?.status ?? 'absent'}`);
  return { alarms, warnings, requests: r.requestsSent, watched };
}

async function oneRun(stack: string, seed: string): Promise<Run> {
  const reports = tempDir(`bench-stack-${stack}`);
  try {
    const { url, child } = await startStack(stack);
    let res;
    try {
      res = await suite(url, seed, reports);
    } finally {
      await stopStack(child);
    }
    let report: Report;
    try {
      report = JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8')) as Report;
    } catch {
      return { seed, ms: res.ms, requests: 0, alarms: [], warnings: [], problem: `exit ${res.code}, no report` };
    }
    const errors = report.suiteErrors?.length ? `; ${report.suiteErrors.length} suite errors` : '';
    const problem = res.code === 0 || res.code === 1 ? errors || undefined : `exit ${res.code}${errors}`;
    return { seed, ms: res.ms, ...judgeReport(report), ...(problem ? { problem } : {}) };
  } catch (e) {
    return { seed, ms: 0, requests: 0, alarms: [], warnings: [], problem: e instanceof Error ? e.message : String(e) };
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const range = (xs: number[]) => (xs.length ? `${Math.min(...xs)}–${Math.max(...xs)}` : '-');

/** Counts of equal strings, most frequent first: "A ×3; B". */
function tally(xs: string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([x, n]) => (n > 1 ? `${x} ×${n}` : x))
    .join('; ');
}

export function stackLines(stack: string, runs: Run[]): BenchLine[] {
  const name = (what: string) => `explore-stacks: ${stack}, ${what}`;
  const alarms = runs.flatMap((r) => r.alarms.map((a) => `seed ${r.seed}: ${a}`));
  const problems = runs.filter((r) => r.problem).map((r) => `seed ${r.seed}: ${r.problem}`);
  const ran = runs.filter((r) => !r.problem || r.requests > 0);
  const ms = ran.map((r) => Math.round(r.ms));
  const requests = ran.map((r) => r.requests);
  const warnings = runs.flatMap((r) => r.warnings);
  return [
    {
      name: name(`MUST false alarms over ${runs.length} seeds`),
      value: alarms.length,
      unit: 'alarms',
      goal: '0',
      met: alarms.length === 0 && problems.length === 0,
      detail: [alarms.join(' | ') || `none in ${ran.length} runs`, problems.length ? `runs that went wrong: ${problems.join(' | ')}` : '']
        .filter(Boolean)
        .join('; '),
    },
    { name: name('warnings'), value: warnings.length, unit: 'warnings', goal: 'reported', met: true, detail: tally(warnings) || 'none' },
    {
      name: name('requests sent per run'),
      value: median(requests),
      unit: 'requests (median)',
      goal: 'reported',
      met: true,
      detail: `range ${range(requests)}`,
    },
    {
      name: name('wall time per run'),
      value: median(ms),
      unit: 'ms (median)',
      goal: 'reported',
      met: true,
      detail: `range ${range(ms)} ms, server start included`,
    },
    {
      name: name('watched requirements'),
      value: runs.filter((r) => r.watched?.every((w) => w.endsWith(' pass'))).length,
      unit: `of ${runs.length} runs judged and passed`,
      goal: 'reported',
      met: true,
      detail: tally(runs.flatMap((r) => r.watched ?? [])) || 'none',
    },
  ];
}

export async function benchExploreStacks(seeds: readonly string[] = SEEDS): Promise<BenchLine[]> {
  const lanes = STACKS.map(async (stack): Promise<BenchLine[]> => {
    const missing = stackMissing(stack);
    if (missing)
      return [{ name: `explore-stacks: ${stack}`, value: 0, unit: '', goal: '0 MUST false alarms', met: true, skipped: missing }];
    const runs: Run[] = [];
    for (const seed of seeds) {
      runs.push(await oneRun(stack, seed));
      process.stderr.write(`bench: explore-stacks ${stack} seed ${seed} done (${runs.length}/${seeds.length})\n`);
    }
    return stackLines(stack, runs);
  });
  return (await Promise.all(lanes)).flat();
}
