/**
 * What the workflow tests share: the two example GitHub workflows parsed as
 * YAML, their headers, the secrets and variables they use, and their shell
 * steps run with bash and a stand-in for npm (GitHub's default shell on Linux
 * is `bash -e`).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './cli.ts';
import { tempDir } from './temp.ts';

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}
export interface Job {
  name?: string;
  'runs-on': string;
  steps: Step[];
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  environment?: string;
  permissions?: Record<string, string>;
  'timeout-minutes'?: number;
}
export interface Workflow {
  name: string;
  on: Record<string, any>;
  jobs: Record<string, Job>;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
}

export const DIR = join(ROOT, '.github', 'workflows');
export const text = (file: string) => readFileSync(join(DIR, file), 'utf8');
export const load = (file: string): Workflow => parse(text(file), { strict: true, uniqueKeys: true }) as Workflow;

export const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
export const stepUsing = (w: Workflow, action: string) => steps(w).find((s) => s.uses?.startsWith(`${action}@`));
export const certifyJob = (w: Workflow) => w.jobs.certify;
export const stepById = (w: Workflow, id: string): Step => {
  const s = certifyJob(w).steps.find((x) => x.id === id);
  if (!s) throw new Error(`no step with id ${id}`);
  return s;
};
export const indexOf = (w: Workflow, s: Step) => certifyJob(w).steps.indexOf(s);

/** The header: the comment lines before the first line of YAML. */
export function header(file: string): string[] {
  const lines = text(file).split('\n');
  const end = lines.findIndex((l) => !l.startsWith('#'));
  return lines.slice(0, end);
}

/** Names used as ${{ secrets.X }} / ${{ vars.X }} anywhere in the file. */
export function used(file: string, kind: 'secrets' | 'vars'): string[] {
  return [...new Set([...text(file).matchAll(new RegExp(`\\b${kind}\\.([A-Za-z_][A-Za-z0-9_]*)`, 'g'))].map((m) => m[1]))].sort();
}

/** Header entries ("#   NAME   description") with the first line of the paragraph they are listed under. */
export function documented(file: string): Map<string, string> {
  const lines = header(file);
  const out = new Map<string, string>();
  lines.forEach((l, i) => {
    const m = /^#\s+([A-Z][A-Z0-9_]{2,})(?:\s{2,}|$)/.exec(l);
    if (!m) return;
    let j = i;
    while (j > 0 && lines[j - 1].trim() !== '#') j--;
    out.set(m[1], lines[j]);
  });
  return out;
}

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
  output: Record<string, string>;
  summary: string;
  dir: string;
}

/** Run `script` in `dir` (a fresh directory by default) with GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files and a stand-in `npm`. */
export function runShell(script: string, env: Record<string, string>, dir = tempDir('wf')): ShellResult {
  const meta = tempDir('wf-meta');
  const bin = join(meta, 'bin');
  mkdirSync(bin);
  // npm stands in for the suite: records its arguments and the suite's variables, exits with FAKE_EXIT
  writeFileSync(
    join(bin, 'npm'),
    '#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$FAKE_DIR/args"\nenv | grep "^ANIMAL_STORE_" | sort > "$FAKE_DIR/env"\nexit "${FAKE_EXIT:-0}"\n',
  );
  chmodSync(join(bin, 'npm'), 0o755);
  const outFile = join(meta, 'output');
  const summaryFile = join(meta, 'summary');
  writeFileSync(outFile, '');
  writeFileSync(summaryFile, '');
  const scriptFile = join(meta, 'step.sh');
  writeFileSync(scriptFile, script);
  const r = spawnSync('bash', ['-e', scriptFile], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: meta,
      FAKE_DIR: meta,
      GITHUB_OUTPUT: outFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...env,
    },
  });
  const output: Record<string, string> = {};
  for (const line of readFileSync(outFile, 'utf8').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) output[line.slice(0, i)] = line.slice(i + 1);
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, output, summary: readFileSync(summaryFile, 'utf8'), dir: meta };
}

/** The step's env with its ${{ }} expressions replaced by what the test gives; an expression it does not know fails the test. */
export function evaluate(env: Record<string, string>, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    out[k] = v.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_m, expr: string) => {
      if (!(expr in values)) throw new Error(`unknown expression in env ${k}: ${expr}`);
      return values[expr];
    });
  }
  return out;
}

/** Run the configuration check of a workflow with these variables and secrets. */
export function check(w: Workflow, vars: Record<string, string>, secrets: Record<string, boolean>): ShellResult {
  const s = stepById(w, 'config');
  const values: Record<string, string> = {};
  for (const v of Object.values(s.env ?? {})) {
    const m = /^\$\{\{ (vars\.(\w+)|secrets\.(\w+) != '') \}\}$/.exec(v);
    if (m && m[2]) values[m[1]] = vars[m[2]] ?? '';
    if (m && m[3]) values[m[1]] = String(secrets[m[3]] ?? true);
  }
  return runShell(s.run!, evaluate(s.env ?? {}, values));
}
