/**
 * Running a k6 bundle (load/dist/<scenario>.js) without k6, in one of two modes:
 * - `runK6Real`: in a worker thread on real time, with undici doing the HTTP on
 *   behalf of the blocked worker (the CLI's stand-in `k6` uses it);
 * - `runK6Virtual`: in process on a virtual clock, every request answered by a
 *   reference app in process — deterministic, whatever the machine's speed.
 * Both return the exit code k6 would give and the files handleSummary returns.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import type { App } from '../../../reference/app.ts';
import { completeReport } from '../../../load/lib/carriage.ts';
import type { LoadReport } from '../../../src/core/load-report.ts';
import type { VirtualClock } from '../virtual.ts';
// @ts-expect-error a plain-JS module shared with the worker
import { runBundle, runBundles } from './emulator.mjs';

export interface K6Run {
  exitCode: number;
  files: Record<string, string>;
  checks: Array<{ name: string; passes: number; fails: number }>;
  /** k6's log: the lines the bundle printed with console.log. */
  log: string[];
  /** Each metric with its tags, as a metrics store would keep them (emulated runs only). */
  series?: string[];
  error?: string;
}

async function doHttp(r: { url: string; headers: Record<string, string>; timeout?: string }) {
  const t0 = Date.now();
  const ms = r.timeout ? Number(r.timeout.replace(/ms$/, '')) : 10000;
  try {
    const res = await request(r.url, { method: 'GET', headers: r.headers, headersTimeout: ms, bodyTimeout: ms });
    const body = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, body, durationMs: Date.now() - t0 };
  } catch (e) {
    return { status: 0, headers: {}, body: null, error: String((e as Error).message), durationMs: Date.now() - t0 };
  }
}

/** Requests at most `parallel` at once (k6's batch and batchPerHost), the rest as slots free; the answers in request order. */
async function inSlots(reqs: Array<{ url: string; headers: Record<string, string>; timeout?: string }>, parallel: number) {
  const out: Awaited<ReturnType<typeof doHttp>>[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < reqs.length; i = next++) out[i] = await doHttp(reqs[i]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, reqs.length) }, lane));
  return out;
}

/**
 * A report handleSummary returned (the first, or the one whose file name ends with `suffix`), completed with
 * the run's log as the suite's k6 engine completes it (`tagged`: several plans in one process).
 */
export function reportOfRun(run: K6Run, suffix = '.json', tagged = false): LoadReport | undefined {
  const file = Object.entries(run.files).find(([k]) => k.endsWith(suffix) && k.endsWith('.json'));
  return file ? completeReport(JSON.parse(file[1]) as LoadReport, run.log, tagged) : undefined;
}

/** Write the files handleSummary returned (not stdout). */
export async function writeSummaryFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files || {})) {
    if (path === 'stdout' || path === 'stderr') continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

export async function runK6Real(
  bundle: string,
  env: Record<string, string>,
  o: { timeoutMs?: number; segment?: string } = {},
): Promise<K6Run> {
  const ctrlBuf = new SharedArrayBuffer(8);
  const dataBuf = new SharedArrayBuffer(8 * 1024 * 1024);
  const ctrl = new Int32Array(ctrlBuf);
  const workerFile = join(dirname(fileURLToPath(import.meta.url)), 'worker.mjs');
  const worker = new Worker(workerFile, { workerData: { bundle, env, ctrlBuf, dataBuf, segment: o.segment } });
  try {
    const done = await new Promise<K6Run>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('k6 emulator timed out')), o.timeoutMs ?? 120000);
      worker.on('error', (e) => (clearTimeout(timer), reject(e)));
      worker.on(
        'message',
        (
          msg: {
            kind: string;
            reqs?: Array<{ url: string; headers: Record<string, string>; timeout?: string }>;
            parallel?: number;
          } & Record<string, unknown>,
        ) => {
          if (msg.kind === 'done') {
            clearTimeout(timer);
            resolve({
              exitCode: msg.exitCode as number,
              files: (msg.files as Record<string, string>) || {},
              checks: (msg.checks as K6Run['checks']) || [],
              log: (msg.log as string[]) || [],
              ...(msg.error ? { error: String(msg.error) } : {}),
            });
            return;
          }
          void inSlots(msg.reqs || [], msg.parallel || 1).then((out) => {
            const bytes = new TextEncoder().encode(JSON.stringify(out));
            new Uint8Array(dataBuf).set(bytes.subarray(0, dataBuf.byteLength));
            ctrl[1] = Math.min(bytes.length, dataBuf.byteLength);
            Atomics.store(ctrl, 0, 1);
            Atomics.notify(ctrl, 0);
          });
        },
      );
    });
    await writeSummaryFiles(done.files);
    return done;
  } finally {
    await worker.terminate();
  }
}

/**
 * The bundle in process on a virtual clock: each request is answered by `app`
 * (built on the same clock) half a latency after it is sent, and arrives a
 * latency after; k6's sleep moves the clock. Files are returned, not written.
 */
export function runK6Virtual(
  bundle: string,
  env: Record<string, string>,
  app: App,
  clock: VirtualClock,
  o: { latencyMs?: number; segment?: string } = {},
): K6Run {
  return runBundle(readFileSync(bundle, 'utf8'), env, virtualIo(app, clock, o.latencyMs), { segment: o.segment }) as K6Run;
}

/** Several instances of the bundle side by side on their execution segments (a distributed run), on the virtual clock. */
export function runK6VirtualSegments(
  bundle: string,
  env: Record<string, string>,
  app: App,
  clock: VirtualClock,
  segments: readonly string[],
): K6Run[] {
  return runBundles(readFileSync(bundle, 'utf8'), env, virtualIo(app, clock), segments) as K6Run[];
}

function virtualIo(app: App, clock: VirtualClock, latency = 2) {
  return {
    virtual: true,
    now: () => clock.now(),
    sleep: (s: number) => clock.advance(s * 1000),
    /**
     * A batch as k6 sends it: `parallel` requests at once, each of the rest when a slot frees; each is counted
     * half a latency plus the delay the app's latency variants draw for it after it starts (in that order on
     * the app's clock) and answered its own delay later; the batch returns when its last response has come.
     */
    http: (reqs: Array<{ url: string; headers: Record<string, string> }>, parallel = 1) => {
      const t0 = clock.now();
      const slots: number[] = [];
      const timed = reqs.map((r, i) => {
        const d = app.delay();
        const start = slots.length < parallel ? t0 : (slots.sort((a, b) => a - b).shift() as number);
        const at = start + latency / 2 + d.beforeMs;
        const done = at + latency / 2 + d.afterMs;
        slots.push(done);
        return { r, i, at, done };
      });
      const out: Array<{ status: number; headers: Record<string, string>; body: string; durationMs: number }> = [];
      let end = t0;
      for (const x of timed.slice().sort((a, b) => a.at - b.at || a.i - b.i)) {
        clock.advance(x.at - clock.now());
        const u = new URL(x.r.url);
        const lower: Record<string, string> = {};
        for (const [k, v] of Object.entries(x.r.headers)) lower[k.toLowerCase()] = v;
        const res = app.call({
          method: 'GET',
          url: u.pathname + u.search,
          headers: { ...lower, host: u.host },
          socket: { remoteAddress: '127.0.0.1' },
        });
        end = Math.max(end, x.done);
        out[x.i] = { status: res.status, headers: res.headers, body: res.body, durationMs: x.done - t0 };
      }
      clock.advance(end - clock.now());
      return out;
    },
  };
}
