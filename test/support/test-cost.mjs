/**
 * `npm run test:cost` — where `npm test`'s time goes, measured as CPU time, which the machine's load does not change
 * (wall time does): runs `npm test` (the static checks and the tests; arguments go on to it: `npm run test:cost --
 * test/cli`) with SELF_TEST_CPU_LOG set (test/support/cpu-per-file.ts), then prints the test files that cost most —
 * each one's CPU seconds in its worker, in the child processes it waited for (command lines, Chromium, k6 stand-ins),
 * and its wall seconds — and the totals: the whole of `npm test` (user + sys of every process it started, the static
 * checks and Vitest's own work included), the test files' share, the wall time and the load average around it.
 * `TEST_COST_TOP=n` lists n files (default 20); `TEST_COST_LOG=<file>` keeps the per-file log (tab-separated: path,
 * CPU s, children's CPU s, wall s). Linux only (/proc). Exit code: npm test's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const TOP = Number(process.env.TEST_COST_TOP ?? 20);
const keepLog = process.env.TEST_COST_LOG;
const scratch = keepLog ? undefined : mkdtempSync(join(tmpdir(), 'test-cost-'));
const log = keepLog ?? join(scratch, 'cpu.tsv');

/** CPU seconds (user + sys) of the child processes this process waited for, and of their own waited-for children. */
function childrenCpu() {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime, in USER_HZ ticks
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function npmTest(args) {
  const child = spawn('npm', ['test', ...(args.length ? ['--', ...args] : [])], {
    stdio: 'inherit',
    env: { ...process.env, SELF_TEST_CPU_LOG: log },
  });
  return new Promise((done) => child.on('close', (code) => done(code ?? 1)));
}

/** The per-file lines as rows, the costliest first (one row per file: a file run twice is summed). */
function rows() {
  let text;
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return [];
  }
  const byFile = new Map();
  for (const line of text.split('\n').filter(Boolean)) {
    const [path, self, children, wall] = line.split('\t');
    const r = byFile.get(path) ?? { path, self: 0, children: 0, wall: 0 };
    byFile.set(path, { path, self: r.self + Number(self), children: r.children + Number(children), wall: r.wall + Number(wall) });
  }
  return [...byFile.values()].sort((a, b) => b.self + b.children - (a.self + a.children));
}

function print({ code, wall, cpu, loadBefore }) {
  const all = rows();
  const sum = (k) => all.reduce((s, r) => s + r[k], 0);
  const n = (v) => v.toFixed(1).padStart(6);
  const out = [`\nnpm test's cost: the ${Math.min(TOP, all.length)} costliest of ${all.length} test files (seconds)`];
  out.push(`${'CPU'.padStart(6)}${'child'.padStart(6)}${'total'.padStart(6)}${'wall'.padStart(6)}  file`);
  for (const r of all.slice(0, TOP)) out.push(`${n(r.self)}${n(r.children)}${n(r.self + r.children)}${n(r.wall)}  ${r.path}`);
  out.push(`test files: ${sum('self').toFixed(1)} CPU-s in the workers + ${sum('children').toFixed(1)} in their children`);
  out.push(`npm test: ${cpu.toFixed(1)} CPU-s in all (static checks and Vitest's own work included), ${wall.toFixed(1)} s wall`);
  out.push(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after; exit code ${code}`);
  if (keepLog) out.push(`per-file log: ${keepLog}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

const loadBefore = load();
const started = Date.now();
const code = await npmTest(process.argv.slice(2));
print({ code, wall: (Date.now() - started) / 1000, cpu: childrenCpu(), loadBefore });
if (scratch) rmSync(scratch, { recursive: true, force: true });
process.exit(code);
