/**
 * Test support: the suite as an implementer gets it — `npm pack` of this checkout, installed from the tarball into
 * an empty project of its own (its runtime dependencies only: npm never installs a dependency's devDependencies),
 * and its commands run there with `npx`, as a user would, from that project's folder.
 *
 * npm reads the packages from its cache first (`--prefer-offline`): after `npm ci` every one of them is there, so
 * the install sends nothing; a cold cache would fetch them from the registry.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/temp.ts';
import { STARTED } from '../support/cli-cases.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment as it started, without the suite's variables nor npm's of an enclosing `npm test`. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(STARTED))
    if (!/^(ANIMAL_STORE_|VITEST|npm_|NODE_OPTIONS$|INIT_CWD$)/i.test(k) && !/^(GITHUB_|RUNNER_)/.test(k)) env[k] = v;
  return {
    ...env,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  killAfterMs?: number;
}

/** Runs a command (no shell) in `cwd`; killed after `killAfterMs`. */
export function run(cmd: string, args: string[], { cwd, env, killAfterMs = 200_000 }: RunOptions): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', (e) => (stderr += e.message));
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr });
    });
  });
}

export interface Packed {
  /** The tarball `npm pack` wrote. */
  tarball: string;
  /** Every path the tarball holds (relative, as `npm pack --json` lists them). */
  files: string[];
  size: number;
}

/** `npm pack` of this checkout into a temporary folder (no script: `prepare` builds nothing the tarball holds). */
export async function pack(): Promise<Packed> {
  const dest = tempDir('animal-store-pack');
  const r = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: ROOT, env: userEnv() });
  if (r.code !== 0) throw new Error(`npm pack failed (${r.code}): ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as [{ filename: string; size: number; files: { path: string }[] }];
  return { tarball: join(dest, info.filename), files: info.files.map((f) => f.path), size: info.size };
}

/** An empty project (package.json only) with the tarball installed in it; its folder. */
export async function installInto(tarball: string): Promise<string> {
  const project = tempDir('animal-store-implementer');
  // The README's advice for npm 11: the suite does not need esbuild's install script, so deny it (no warning).
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'implementer', private: true, allowScripts: { esbuild: false } })}\n`,
  );
  const r = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: userEnv() });
  if (r.code !== 0) throw new Error(`npm install of the tarball failed (${r.code}): ${r.stderr}`);
  return project;
}
