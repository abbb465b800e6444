// A minimal k6 runtime for the self-tests (k6 itself is not installable here): runs a
// bundled scenario script in a worker thread, with k6's synchronous http and sleep
// emulated through Atomics.wait while the main thread does the I/O. Implements just
// what the bundles use: k6 (check, sleep), k6/http (get, batch, expectedStatuses),
// k6/metrics (Counter), k6/execution (test.abort), the per-vu-iterations and
// constant-arrival-rate executors, thresholds on counters/checks, handleSummary.
import { workerData, parentPort } from 'node:worker_threads';

const { bundleUrl, env, ctrlBuf, dataBuf } = workerData;
const ctrl = new Int32Array(ctrlBuf);
const data = new Uint8Array(dataBuf);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const ABORT = Symbol('abort');

function call(msg) {
  Atomics.store(ctrl, 0, 0);
  parentPort.postMessage(msg);
  Atomics.wait(ctrl, 0, 0);
  const len = ctrl[1];
  return JSON.parse(new TextDecoder().decode(data.slice(0, len)));
}

const checks = new Map();
const samples = []; // { metric, value, tags }
let aborted;

function canonical(h) {
  const out = {};
  for (const [k, v] of Object.entries(h))
    out[
      k
        .split('-')
        .map((p) => p.charAt(0).toUpperCase() + p.slice(1).toLowerCase())
        .join('-')
    ] = v;
  return out;
}
function toResponse(r) {
  return {
    status: r.status,
    headers: canonical(r.headers || {}),
    body: r.body ?? null,
    error: r.error || '',
    timings: { duration: r.durationMs },
  };
}
function recordReq(params) {
  samples.push({ metric: 'http_reqs', value: 1, tags: { ...(params?.tags || {}) } });
}

globalThis.__k6shim = {
  check(val, sets) {
    let all = true;
    for (const [name, fn] of Object.entries(sets)) {
      const ok = !!(typeof fn === 'function' ? fn(val) : fn);
      const c = checks.get(name) || { name, passes: 0, fails: 0 };
      ok ? c.passes++ : c.fails++;
      checks.set(name, c);
      samples.push({ metric: 'checks', value: ok ? 1 : 0, tags: {} });
      all = all && ok;
    }
    return all;
  },
  sleep(s) {
    if (s > 0) Atomics.wait(sleeper, 0, 0, s * 1000);
  },
  get(url, params) {
    recordReq(params);
    return toResponse(call({ kind: 'http', reqs: [{ url, headers: params?.headers || {}, timeout: params?.timeout }] })[0]);
  },
  batch(reqs) {
    for (const r of reqs) recordReq(r[3]);
    return call({ kind: 'http', reqs: reqs.map((r) => ({ url: r[1], headers: r[3]?.headers || {}, timeout: r[3]?.timeout })) }).map(
      toResponse,
    );
  },
  expectedStatuses: () => () => true,
  Counter: class {
    constructor(name) {
      this.name = name;
    }
    add(value, tags) {
      samples.push({ metric: this.name, value, tags: tags || {} });
    }
  },
  abort(reason) {
    aborted = String(reason ?? 'aborted');
    throw ABORT;
  },
};

function evalThreshold(key, expr) {
  const m = /^([a-z_]+)(?:\{([^:}]+):([^}]*)\})?$/.exec(key);
  const [, metric, tk, tv] = m;
  const sel = samples.filter((s) => s.metric === metric && (!tk || String(s.tags[tk]) === tv));
  const count = sel.reduce((a, s) => a + s.value, 0);
  const rate = sel.length ? sel.filter((s) => s.value).length / sel.length : 0;
  const e = /^(count|rate)\s*(==|>=|<=|<|>)\s*([\d.]+)$/.exec(expr);
  const v = e[1] === 'count' ? count : rate;
  const n = Number(e[3]);
  const ok = { '==': v === n, '>=': v >= n, '<=': v <= n, '<': v < n, '>': v > n }[e[2]];
  return { ok, values: { count, rate } };
}

async function main() {
  globalThis.__ENV = env;
  const t0 = Date.now();
  let mod;
  try {
    mod = await import(bundleUrl);
  } catch (e) {
    parentPort.postMessage({ kind: 'done', exitCode: 107, error: String(e?.message || e), files: {} });
    return;
  }
  const [name, sc] = Object.entries(mod.options.scenarios)[0];
  let exitCode = 0;
  try {
    const setupData = mod.setup ? mod.setup() : undefined;
    if (sc.executor === 'per-vu-iterations') mod.default(setupData);
    else {
      const dur = (s) => (s.endsWith('ms') ? Number(s.slice(0, -2)) : Number(s.slice(0, -1)) * 1000);
      const interval = dur(sc.timeUnit) / sc.rate;
      const start = Date.now();
      const end = start + dur(sc.duration);
      for (let i = 0; ; i++) {
        const at = start + i * interval;
        if (at >= end) break;
        const now = Date.now();
        if (now < at) globalThis.__k6shim.sleep((at - now) / 1000);
        else if (now - at > interval) continue; // dropped iteration: the single VU was busy
        mod.default(setupData);
      }
    }
  } catch (e) {
    if (e !== ABORT) exitCode = 107;
  }
  if (aborted) exitCode = 108;
  const metrics = {};
  let failed = false;
  for (const [key, exprs] of Object.entries(mod.options.thresholds || {})) {
    metrics[key] = { values: {}, thresholds: {} };
    for (const expr of exprs) {
      const r = evalThreshold(key, expr);
      metrics[key].values = r.values;
      metrics[key].thresholds[expr] = { ok: r.ok };
      if (!r.ok) failed = true;
    }
  }
  if (!metrics.http_reqs) metrics.http_reqs = { values: { count: samples.filter((s) => s.metric === 'http_reqs').length } };
  if (failed && exitCode === 0) exitCode = 99;
  const summary = mod.handleSummary({
    root_group: { name: '', path: '', groups: [], checks: [...checks.values()] },
    metrics,
    state: { testRunDurationMs: Date.now() - t0 },
  });
  parentPort.postMessage({ kind: 'done', exitCode, aborted, files: summary, checks: [...checks.values()], name });
}

main().catch((e) => parentPort.postMessage({ kind: 'done', exitCode: 107, error: String(e?.stack || e), files: {} }));
