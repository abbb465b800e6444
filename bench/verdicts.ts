/**
 * `npm run bench:verdicts -- [--root <dir>] [--label <name>] [--only <group,…> | --full] [--filter <text,…>]
 * [--parallel N] [--attempts N]`: every verdict the suite gives, collected from a checkout (default: this one) into
 * `reports/verdicts-<label>.json` — the proof that a refactoring of how verdicts are built changed none (issue 26):
 * collect both checkouts, then `npm run bench:verdicts-diff -- before.json after.json`.
 *
 * Per run: each requirement's aggregated status and the distinct (requirement, outcome, title) of its findings, per
 * scope (bench/verdicts-model.ts); the runs are named from the checkout's own tables (bench/verdicts-runs.ts lists
 * the groups: by default the conformance suite and the load scenarios on both engines, all on simulated time;
 * --full adds the real k6 binary on real sockets). Each configuration runs twice (--attempts) in the same
 * checkout: a key whose verdict differs between the two is recorded as unstable, which the diff lists apart.
 * A few workers at a time (--parallel, default 2: a shared 2-core machine), each run bounded (bench/verdicts-pool.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBundles, tablesOf } from './verdicts-checkout.ts';
import { unstableOf, type RunEntry, type VerdictsFile } from './verdicts-model.ts';
import { runPool } from './verdicts-pool.ts';
import { DEFAULT_GROUPS, GROUPS, runsOf, type Group, type RunSpec } from './verdicts-runs.ts';
import type { Answer, Task } from './verdicts-worker.ts';

const HERE = resolve(import.meta.dirname, '..');
const USAGE =
  'usage: npm run bench:verdicts -- [--root <dir>] [--label <name>] [--out <file>] [--only <group,…> | --full] [--filter <text,…>] [--parallel 1-4] [--attempts 1-3]';

interface Args {
  root: string;
  label?: string;
  out?: string;
  groups: Group[];
  filter?: string;
  parallel: number;
  attempts: number;
}

function parseArgs(argv: string[]): Args {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i >= 0 && !argv[i + 1]) throw new Error(`${flag} needs a value\n${USAGE}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = value('--only')?.split(',').filter(Boolean);
  const unknown = (only ?? []).filter((g) => !(GROUPS as readonly string[]).includes(g));
  if (unknown.length) throw new Error(`unknown group(s) ${unknown.join(', ')}; groups: ${GROUPS.join(', ')}`);
  const groups = only ? (only as Group[]) : argv.includes('--full') ? [...DEFAULT_GROUPS, 'k6-real' as const] : [...DEFAULT_GROUPS];
  const parallel = Number(value('--parallel') ?? 2);
  const attempts = Number(value('--attempts') ?? 2);
  if (![1, 2, 3, 4].includes(parallel)) throw new Error(`--parallel must be 1 to 4\n${USAGE}`);
  if (![1, 2, 3].includes(attempts)) throw new Error(`--attempts must be 1 to 3\n${USAGE}`);
  const root = resolve(value('--root') ?? HERE);
  if (!existsSync(join(root, 'package.json'))) throw new Error(`--root ${root} is no checkout of the suite`);
  return { root, label: value('--label'), out: value('--out'), groups, filter: value('--filter'), parallel, attempts };
}

const git = (root: string, ...a: string[]): string => {
  try {
    return execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

/** The checkout's commit, and whether the suite's own files differ from it. */
function checkout(root: string): { commit: string; describe: string; dirty: boolean } {
  const dirty = !!git(root, 'status', '--porcelain', '--', 'src', 'conformance', 'load', 'reference', 'schemas', 'bench/support');
  return { commit: git(root, 'rev-parse', 'HEAD'), describe: git(root, 'log', '-1', '--format=%h %s').slice(0, 120), dirty };
}

function findK6(): string | undefined {
  for (const c of [process.env.K6_BIN, join(homedir(), '.local/bin/k6')]) if (c && existsSync(c)) return c;
  try {
    return execFileSync('sh', ['-c', 'command -v k6'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Attempts 1 of every run, then attempts 2…: the same run twice never side by side; real sockets last. */
function tasksOf(specs: readonly RunSpec[], attempts: number): Task[] {
  const tasks: Task[] = [];
  for (const real of [false, true])
    for (let attempt = 1; attempt <= attempts; attempt++)
      for (const spec of specs) if ((spec.group === 'k6-real' || spec.group === 'cli') === real) tasks.push({ spec, attempt });
  return tasks;
}

/** A configuration's entry: the first attempt's verdicts, what differed between the attempts, the attempts that failed. */
function entryOf(spec: RunSpec, answers: readonly Answer[]): RunEntry {
  const mine = answers.filter((a) => a.name === spec.name).sort((a, b) => a.attempt - b.attempt);
  const ok = mine.filter((a) => a.verdicts);
  const errors = mine.filter((a) => a.error).map((a) => `attempt ${a.attempt}: ${a.error!.split('\n')[0]}`);
  const unstable = ok.length > 1 ? unstableOf(ok.map((a) => a.verdicts!)) : {};
  return {
    settings: spec,
    ...(ok.length ? { verdicts: ok[0].verdicts } : {}),
    ...(Object.keys(unstable).length ? { unstable } : {}),
    ...(errors.length ? { errors } : {}),
    volatile: { ms: mine.map((a) => a.ms), requests: mine.map((a) => a.requests ?? null) },
  };
}

/** One run per line: a file that diffs and greps well. */
function write(file: string, f: VerdictsFile): void {
  const lines = Object.entries(f.runs).map(([name, e]) => `${JSON.stringify(name)}: ${JSON.stringify(e)}`);
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, `{"meta": ${JSON.stringify(f.meta)},\n"runs": {\n${lines.join(',\n')}\n}}\n`);
}

async function collect(args: Args, specs: RunSpec[], k6: string | undefined): Promise<Answer[]> {
  const dist = mkdtempSync(join(tmpdir(), 'animal-store-verdicts-dist-'));
  const removeDist = () => rmSync(dist, { recursive: true, force: true });
  process.once('exit', removeDist); // an interrupted sweep too (the pool exits on SIGINT)
  try {
    // The bundles once, from the checkout's own sources, before any run reads them.
    if (specs.some((s) => s.group === 'load-k6' || s.group === 'k6-real')) await buildBundles(args.root, dist);
    const tasks = tasksOf(specs, args.attempts);
    return await runPool(tasks, {
      size: args.parallel,
      root: args.root,
      argv: [args.root, dist, k6 ?? ''],
      onAnswer: (a, done) => {
        const what = a.error ? `ERROR ${a.error.split('\n')[0].slice(0, 160)}` : 'ok';
        process.stderr.write(`[${done}/${tasks.length}] ${a.name} #${a.attempt} ${(a.ms / 1000).toFixed(1)} s ${what}\n`);
      },
    });
  } finally {
    removeDist();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tables = await tablesOf(args.root);
  let specs = runsOf(tables, args.groups);
  const filters = args.filter?.split(',').filter(Boolean);
  if (filters) specs = specs.filter((s) => filters.some((f) => s.name.includes(f)));
  const k6 = args.groups.includes('k6-real') ? findK6() : undefined;
  if (args.groups.includes('k6-real') && !k6) throw new Error('--full / k6-real needs a k6 binary: K6_BIN, ~/.local/bin/k6 or PATH');
  const co = checkout(args.root);
  const label = args.label ?? `${co.commit.slice(0, 7) || 'unknown'}${co.dirty ? '-dirty' : ''}`;
  const out = resolve(args.out ?? join(HERE, 'reports', `verdicts-${label}.json`));
  const started = Date.now();
  const load = loadavg()[0];
  process.stderr.write(
    `verdicts: ${specs.length} configurations × ${args.attempts} attempts (${args.groups.join(', ')}), ${args.parallel} at a time, from ${args.root}\n`,
  );
  const answers = await collect(args, specs, k6);
  const runs = Object.fromEntries(specs.map((s) => [s.name, entryOf(s, answers)]));
  const entries = Object.values(runs);
  const totals = {
    configurations: specs.length,
    runs: answers.length,
    errors: entries.filter((e) => e.errors).length,
    unstableConfigurations: entries.filter((e) => e.unstable).length,
    unstableKeys: entries.reduce((n, e) => n + Object.keys(e.unstable ?? {}).length, 0),
  };
  const meta = {
    root: args.root,
    ...co,
    label,
    groups: args.groups,
    ...(args.filter ? { filter: args.filter } : {}),
    attempts: args.attempts,
    parallel: args.parallel,
    node: process.version,
    k6: k6 ? execFileSync(k6, ['version'], { encoding: 'utf8' }).trim() : null,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    loadavg: [load, loadavg()[0]],
    ...totals,
  };
  write(out, { meta, runs });
  process.stderr.write(
    `verdicts: ${totals.configurations} configurations, ${totals.runs} runs in ${((Date.now() - started) / 60_000).toFixed(1)} min; ` +
      `${totals.errors} with errors, ${totals.unstableConfigurations} with unstable verdicts (${totals.unstableKeys} keys) → ${out}\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`verdicts: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
