/**
 * Runs a k6 bundle (load/dist/<scenario>.js) under the emulator of worker.mjs:
 * the k6 imports are rewritten to shim modules, HTTP is done here with undici on
 * behalf of the blocked worker. Returns the exit code k6 would give and writes
 * the files handleSummary returns.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';

const SHIMS: Record<string, string> = {
  k6: 'const s = globalThis.__k6shim; export const check = s.check; export const sleep = s.sleep; export default { check, sleep };',
  'k6/http':
    'const s = globalThis.__k6shim; export const get = s.get; export const batch = s.batch; export const expectedStatuses = s.expectedStatuses; export default { get, batch, expectedStatuses };',
  'k6/metrics': 'export const Counter = globalThis.__k6shim.Counter;',
  'k6/execution': 'export default { test: { abort: (r) => globalThis.__k6shim.abort(r) } };',
};

export interface K6Run {
  exitCode: number;
  files: Record<string, string>;
  checks: Array<{ name: string; passes: number; fails: number }>;
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

export async function runK6(bundle: string, env: Record<string, string>, timeoutMs = 60000): Promise<K6Run> {
  const dir = await mkdtemp(join(tmpdir(), 'k6shim-'));
  try {
    let code = await readFile(bundle, 'utf8');
    for (const [mod, src] of Object.entries(SHIMS)) {
      const file = join(dir, `${mod.replace('/', '_')}.mjs`);
      await writeFile(file, src);
      code = code.split(`from "${mod}"`).join(`from ${JSON.stringify(pathToFileURL(file).href)}`);
    }
    const bundleFile = join(dir, 'bundle.mjs');
    await writeFile(bundleFile, code);
    const ctrlBuf = new SharedArrayBuffer(8);
    const dataBuf = new SharedArrayBuffer(8 * 1024 * 1024);
    const ctrl = new Int32Array(ctrlBuf);
    const workerFile = join(dirname(fileURLToPath(import.meta.url)), 'worker.mjs');
    const worker = new Worker(workerFile, { workerData: { bundleUrl: pathToFileURL(bundleFile).href, env, ctrlBuf, dataBuf } });
    const done = await new Promise<{ exitCode: number; files: Record<string, string>; checks?: K6Run['checks']; error?: string }>(
      (resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('k6 emulator timed out')), timeoutMs);
        worker.on('error', (e) => (clearTimeout(timer), reject(e)));
        worker.on(
          'message',
          (
            msg: { kind: string; reqs?: Array<{ url: string; headers: Record<string, string>; timeout?: string }> } & Record<
              string,
              unknown
            >,
          ) => {
            if (msg.kind === 'done') {
              clearTimeout(timer);
              resolve(msg as never);
              return;
            }
            void Promise.all((msg.reqs || []).map(doHttp)).then((out) => {
              const bytes = new TextEncoder().encode(JSON.stringify(out));
              new Uint8Array(dataBuf).set(bytes.subarray(0, dataBuf.byteLength));
              ctrl[1] = Math.min(bytes.length, dataBuf.byteLength);
              Atomics.store(ctrl, 0, 1);
              Atomics.notify(ctrl, 0);
            });
          },
        );
      },
    );
    await worker.terminate();
    for (const [path, text] of Object.entries(done.files || {})) {
      if (path === 'stdout' || path === 'stderr') continue;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }
    return { exitCode: done.exitCode, files: done.files || {}, checks: done.checks || [], ...(done.error ? { error: done.error } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
