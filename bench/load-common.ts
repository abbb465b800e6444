/**
 * Shared by the load benchmarks: the result line (the same shape as the other
 * benchmarks), a reference server in a child process (so the client measured
 * does not share its event loop), and a paced run at an exact target rate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { scenarioOptions } from '../load/lib/config.ts';
import { PacedPhase } from '../load/lib/phases.ts';
import { ScenarioRun } from '../load/lib/runner.ts';
import { drive } from '../load/node/driver.ts';

export const ROOT = resolve(import.meta.dirname, '..');

export type { BenchLine } from './conformance.ts';

export interface ChildServer {
  url: string;
  key: string;
  close(): Promise<void>;
}

/** The reference server in its own process, enterprise key without a practical limit. */
export function childReference(): Promise<ChildServer> {
  const code = `
    import { buildApp } from ${JSON.stringify(resolve(ROOT, 'reference/app.ts'))};
    import { listen } from ${JSON.stringify(resolve(ROOT, 'reference/server.ts'))};
    const app = buildApp({ enterprise: { perMinute: 1e9, perDay: 1e12 } });
    const s = await listen(app, { host: '127.0.0.1', port: 0 });
    console.log(JSON.stringify({ url: s.url, key: app.keys.enterprise }));
    process.on('SIGTERM', () => s.close().then(() => process.exit(0)));`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), fail(new Error('reference server did not start'))), 20000);
    child.stdout!.once('data', (d: Buffer) => {
      clearTimeout(timer);
      const { url, key } = JSON.parse(String(d).trim().split('\n')[0]) as { url: string; key: string };
      ok({ url, key, close: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
    });
  });
}

/** A run of one paced phase at `perWindow` requests per `windowMs`, through the Node engine's driver. */
export async function pacedRun(target: ChildServer, perWindow: number, windowMs: number, maxInFlight = 64): Promise<ScenarioRun> {
  const o = scenarioOptions({ plan: 'enterprise', perMinute: 1e9, perDay: 1e12, windowMs }, { maxInFlight });
  const run = new ScenarioRun(
    'sustained',
    o,
    [new PacedPhase({ perWindow, windows: 1, gate: false })],
    { maxRequests: perWindow + 5, maxDurationMs: windowMs + 30000 },
    () => [],
  );
  await drive(run, { url: `${target.url}/pets?limit=1`, apiKey: target.key, timeoutMs: 10000, maxBodyBytes: 65536 });
  return run;
}
