// The emulator on real time and real HTTP, in a worker thread: k6's synchronous
// http and sleep through Atomics.wait while the main thread does the I/O (run.ts).
import { workerData, parentPort } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { runBundle } from './emulator.mjs';

const { bundle, env, ctrlBuf, dataBuf, segment } = workerData;
const ctrl = new Int32Array(ctrlBuf);
const data = new Uint8Array(dataBuf);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function call(msg) {
  Atomics.store(ctrl, 0, 0);
  parentPort.postMessage(msg);
  Atomics.wait(ctrl, 0, 0);
  return JSON.parse(new TextDecoder().decode(data.slice(0, ctrl[1])));
}

const io = {
  http: (reqs, parallel, tls) => call({ kind: 'http', reqs, parallel, tls }),
  sleep: (s) => Atomics.wait(sleeper, 0, 0, s * 1000),
  now: () => Date.now(),
};
try {
  const r = runBundle(readFileSync(bundle, 'utf8'), env, io, { segment });
  parentPort.postMessage({ kind: 'done', ...r });
} catch (e) {
  parentPort.postMessage({ kind: 'done', exitCode: 107, error: String(e?.stack || e), files: {} });
}
