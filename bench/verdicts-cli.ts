/**
 * A cli run of `npm run bench:verdicts`: `npm start -- --only conformance` of the checkout, in a child process of its
 * own process group, against the reference server listening on 127.0.0.1 with the run's options — as a user runs
 * it, exploration at seed 1 — then its certification.json read. Any checkout with that command can be collected
 * so; its JSON report keeps, per requirement, the status and a sample of the findings (the raw rows are that sample).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../src/results/types.ts';
import type { SuiteApi } from './verdicts-checkout.ts';
import { sortedRows, type RawRow, type StatusRow, type Verdicts } from './verdicts-model.ts';
import { appOptions, type RunSpec } from './verdicts-runs.ts';

/** The command's own bound (--deadline-ms); the child is killed a minute after it. */
const DEADLINE_MS = 150_000;

/** The compared part of a certification.json. */
export function fromCertificate(cert: RunReport): Verdicts {
  const status: StatusRow[] = [['run', '*outcome', cert.outcome]];
  const raw: RawRow[] = [];
  for (const r of cert.requirements) {
    if (r.status !== 'skip') status.push(['run', r.id, r.status]);
    for (const f of r.findings) raw.push(['run', f.requirement, f.outcome, f.title]);
  }
  return { status: sortedRows(status), raw: sortedRows(raw) };
}

/** The environment without the developer's ANIMAL_STORE_* settings (as test/support/cli.ts). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ANIMAL_STORE_') && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/**
 * `npm start`'s command in the checkout: from its JavaScript build (bin/run.mjs) when it has one, as its package.json
 * runs it, else under tsx (a checkout from before issue 32).
 */
function commandArgs(root: string): string[] {
  return existsSync(join(root, 'bin/run.mjs'))
    ? [join(root, 'bin/run.mjs'), 'src/cli/main.ts']
    : ['--import', 'tsx', join(root, 'src/cli/main.ts')];
}

function runCli(root: string, env: Record<string, string>): Promise<{ code: number | null; tail: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...commandArgs(root), '--only', 'conformance'], {
      cwd: root,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, DEADLINE_MS + 60_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, tail: out });
    });
  });
}

export async function cliRun(api: SuiteApi, root: string, spec: RunSpec): Promise<{ verdicts: Verdicts; requests: number }> {
  const app = api.app.buildApp({ windowMs: 3000, ...appOptions(spec.app) });
  const server = await api.server.listen(app, { host: '127.0.0.1', port: 0 });
  const reports = mkdtempSync(join(tmpdir(), 'animal-store-verdicts-cli-'));
  try {
    const cli = await runCli(root, {
      ANIMAL_STORE_TIMEOUT_MS: '3000',
      ...spec.env,
      ANIMAL_STORE_SEED: '1',
      ANIMAL_STORE_DEADLINE_MS: String(DEADLINE_MS),
      ANIMAL_STORE_API_KEY: app.keys[spec.plan],
      ANIMAL_STORE_PLAN: spec.plan,
      ANIMAL_STORE_BASE_URL: server.url,
      ANIMAL_STORE_REPORTS_DIR: reports,
      ANIMAL_STORE_NO_PROGRESS: 'true',
    });
    let cert: RunReport;
    try {
      cert = JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8')) as RunReport;
    } catch {
      throw new Error(`no certification.json (exit ${cli.code}): ${cli.tail}`);
    }
    return { verdicts: fromCertificate(cert), requests: cert.requestsSent };
  } finally {
    await server.close();
    rmSync(reports, { recursive: true, force: true });
  }
}
