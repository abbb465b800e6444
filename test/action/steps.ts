/**
 * Test support for action.yml: its metadata parsed as YAML, and its shell steps run as GitHub's runner runs a
 * composite action's `shell: bash` step (`bash --noprofile --norc -eo pipefail <file>`), with the step's env
 * (its ${{ }} expressions replaced by what the test gives), GITHUB_ACTION_PATH at this checkout, and the files of
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Asynchronous: the reference server the steps certify runs in this process.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { LOADED_KILL_MS, ROOT } from '../support/cli.ts';
import { tempDir } from '../support/temp.ts';
import { evaluate, type Step } from '../support/workflows.ts';

export interface ActionStep extends Step {
  shell?: string;
  'working-directory'?: string;
}
export interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export const ACTION_FILE = join(ROOT, 'action.yml');
export const actionText = () => readFileSync(ACTION_FILE, 'utf8');
export const action = (): Action => parse(actionText(), { strict: true, uniqueKeys: true }) as Action;
export const stepNamed = (name: string): ActionStep => {
  const s = action().runs.steps.find((x) => x.id === name || x.name === name);
  if (!s) throw new Error(`action.yml has no step ${name}`);
  return s;
};

/** Every expression an action step's env may hold: the inputs (given, else their defaults) and what the test adds. */
export function expressions(inputs: Record<string, string>, more: Record<string, string> = {}): Record<string, string> {
  const values: Record<string, string> = { ...more };
  for (const [name, def] of Object.entries(action().inputs)) values[`inputs.${name}`] = inputs[name] ?? def.default ?? '';
  return values;
}

export interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  output: Record<string, string>;
  summary: string;
}

/** GitHub's files of one job: every step of a run appends to the same summary; each step has its own output file. */
export function jobFiles(): { summary: string; dir: string } {
  const dir = tempDir('action-job');
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  return { summary, dir };
}

/** Runs a step's script in `cwd` with its env evaluated against `values`; its output file read back. */
export function runStep(
  step: ActionStep,
  values: Record<string, string>,
  o: { cwd: string; job: { summary: string; dir: string }; killAfterMs?: number; actionPath?: string },
): Promise<StepRun> {
  const script = join(o.job.dir, `step-${Math.random().toString(36).slice(2)}.sh`);
  const output = `${script}.output`;
  writeFileSync(script, step.run ?? '');
  writeFileSync(output, '');
  const env = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    HOME: o.job.dir,
    GITHUB_ACTION_PATH: o.actionPath ?? ROOT,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: o.job.summary,
    ...evaluate(step.env ?? {}, values),
  };
  return new Promise((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: o.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), o.killAfterMs ?? LOADED_KILL_MS);
    child.on('close', (code) => {
      clearTimeout(killer);
      const out: Record<string, string> = {};
      for (const line of readFileSync(output, 'utf8').split('\n')) {
        const i = line.indexOf('=');
        if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
      }
      done({ code, stdout, stderr, output: out, summary: readFileSync(o.job.summary, 'utf8') });
    });
  });
}

/**
 * An action folder with action.yml's scripts and a stand-in for the suite (bin/certify.mjs) that prints, as one JSON
 * line, the arguments and the key it was given, then exits with `exitCode`: what the certify step hands the suite.
 */
export function fakeActionPath(exitCode = 0): string {
  const dir = tempDir('action-path');
  mkdirSync(join(dir, 'bin'));
  cpSync(join(ROOT, 'bin/action'), join(dir, 'bin/action'), { recursive: true });
  writeFileSync(
    join(dir, 'bin/certify.mjs'),
    `console.log(JSON.stringify({ args: process.argv.slice(2), key: process.env.ANIMAL_STORE_API_KEY, input: process.env.KEY_INPUT ?? null })); process.exit(${exitCode});\n`,
  );
  return dir;
}
