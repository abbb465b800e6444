/**
 * Running a k6 bundle (load/dist/<scenario>.js) without k6, in one of two modes:
 * - `runK6Real`: in a worker thread on real time, with undici doing the HTTP on
 *   behalf of the blocked worker (the CLI's stand-in `k6` uses it);
 * - `runK6Virtual`: in process on a virtual clock, every request answered by a
 *   reference app in process — deterministic, whatever the machine's speed
 *   (bench/support/k6-virtual.ts, which the benchmarks share; re-exported here).
 * Both return the exit code k6 would give and the files handleSummary returns.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import type { K6Run } from '../../../bench/support/k6-virtual.ts';
import { closeGoDispatchers, goDispatcher, type K6Tls } from './go-network.ts';

export { reportOfRun, runK6Virtual, runK6VirtualSegments, type K6Run } from '../../../bench/support/k6-virtual.ts';

type HttpReq = { method?: string; url: string; headers: Record<string, string>; timeout?: string; body?: string };
/** The k6 process's Go variables and the script's TLS options: how it reaches the server (go-network.ts). */
type Net = { env: Record<string, string | undefined>; tls?: K6Tls };

async function doHttp(r: HttpReq, net: Net) {
  const t0 = Date.now();
  const ms = r.timeout ? Number(r.timeout.replace(/ms$/, '')) : 10000;
  try {
    const dispatcher = goDispatcher(r.url, net.env, net.tls);
    const method = (r.method ?? 'GET') as 'GET';
    const res = await request(r.url, { method, headers: r.headers, body: r.body, headersTimeout: ms, bodyTimeout: ms, dispatcher });
    const body = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, body, durationMs: Date.now() - t0 };
  } catch (e) {
    return { status: 0, headers: {}, body: null, error: String((e as Error).message), durationMs: Date.now() - t0 };
  }
}

/** Requests at most `parallel` at once (k6's batch and batchPerHost), the rest as slots free; the answers in request order. */
async function inSlots(reqs: HttpReq[], parallel: number, net: Net) {
  const out: Awaited<ReturnType<typeof doHttp>>[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < reqs.length; i = next++) out[i] = await doHttp(reqs[i], net);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, reqs.length) }, lane));
  return out;
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
  o: { timeoutMs?: number; segment?: string; goEnv?: Record<string, string | undefined> } = {},
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
            reqs?: HttpReq[];
            parallel?: number;
            tls?: K6Tls;
          } & Record<string, unknown>,
        ) => {
          if (msg.kind === 'done') {
            clearTimeout(timer);
            resolve({
              exitCode: msg.exitCode as number,
              files: (msg.files as Record<string, string>) || {},
              checks: (msg.checks as K6Run['checks']) || [],
              log: (msg.log as string[]) || [],
              ...(msg.error ? { error: msg.error as string } : {}),
            });
            return;
          }
          void inSlots(msg.reqs || [], msg.parallel || 1, { env: o.goEnv ?? {}, tls: msg.tls }).then((out) => {
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
    await closeGoDispatchers();
  }
}
