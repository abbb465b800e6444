/**
 * Test support: run a command-line entry point of the suite in a child process
 * (as a user would), with a hard kill after `killAfterMs`, and a reference
 * server started in this process for it to certify.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import type { AppOptions } from '../../reference/options.ts';
import { tempDir } from './temp.ts';
import { nodeArgs } from '../../bin/build.mjs';
import { STARTED } from './cli-cases.ts';

export { runCases } from './cli-cases.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Guards against a hung child or test, not measures of speed. A whole run of the CLI takes 5 to 20 s on a quiet 2-core
 * machine, several at once in a file's concurrent tests; beside eight CPU-bound processes and the rest of npm test (a
 * load average of 10 and more) they take five to ten times as long: issue 37 measured up to 121 s, killed at the 90 s
 * these tests had. A CLI child is killed after LOADED_KILL_MS; a test that runs such children gives itself LOADED_TEST_MS.
 */
export const LOADED_KILL_MS = 240_000;
export const LOADED_TEST_MS = 300_000;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliOptions {
  env?: Record<string, string>;
  killAfterMs?: number;
  /** Called with the child once it has been spawned (e.g. to send SIGINT). */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/**
 * Environment without any ANIMAL_STORE_* variable of the developer's shell: this process's as it started, never that of a
 * command's main() running in it at the time (runCases).
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(STARTED)) if (!k.startsWith('ANIMAL_STORE_') && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

export function runCli(entry: string, args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [...nodeArgs(entry), ...args], {
      cwd: ROOT,
      env: cleanEnv(opts.env ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? LOADED_KILL_MS);
    opts.onSpawn?.(child);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      done({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Called with every request the reference server receives, before it answers (e.g. to interrupt a run once its specs are sending). */
export type OnRequest = (listener: (req: IncomingMessage) => void) => void;

export async function withReference<T>(
  options: AppOptions,
  fn: (baseUrl: string, keys: Record<string, string>, onRequest: OnRequest) => Promise<T>,
): Promise<T> {
  const app = buildApp(options);
  const listeners: ((req: IncomingMessage) => void)[] = [];
  const handler: typeof app.handler = (req, res) => {
    for (const l of listeners) l(req);
    app.handler(req, res);
  };
  const server = await listen({ ...app, handler }, { host: '127.0.0.1', port: 0 });
  try {
    return await fn(server.url, app.keys, (l) => void listeners.push(l));
  } finally {
    await server.close();
  }
}

export function tempReports(): string {
  return tempDir('animal-store-reports');
}

/** Every file below `dir` whose content contains `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath, e.name);
    if (e.isFile() && statSync(p).size < 50_000_000 && readFileSync(p, 'utf8').includes(needle)) hits.push(p);
  }
  return hits;
}
