// A minimal k6 runtime for the self-tests and the benchmarks: runs a bundled scenario script
// (an ES module, as load/build.ts writes it; turned into CommonJS here) with k6's synchronous http, sleep and
// checks on top of an `io` object, so that the same emulator serves two modes:
// in process on a virtual clock (io.http calls the reference app directly and
// sleep only moves the clock: scenario logic independent of the machine's
// speed), and in a worker thread on real time and real HTTP (test/load/k6-shim/worker.mjs).
// Implements what the bundles use: open() (a file's text), k6 (check, sleep), k6/http (get, request, batch — at most
// the `batch` / `batchPerHost` options' requests at once, as k6 —, expectedStatuses), k6/metrics (Counter, Gauge), k6/execution (test.abort), console.log (k6's log), the
// per-vu-iterations and constant-arrival-rate executors (execution segments
// included), thresholds on counters and checks, and handleSummary.

import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';

const ABORT = Symbol('abort');

/** The bundle as a CommonJS function body (k6 runs the ES module natively; the emulator evaluates it with new Function). */
const commonJs = new Map();
function asCommonJs(code) {
  if (!commonJs.has(code)) commonJs.set(code, transformSync(code, { format: 'cjs', loader: 'js' }).code);
  return commonJs.get(code);
}

function canonical(h) {
  const out = {};
  for (const [k, v] of Object.entries(h || {}))
    out[
      k
        .split('-')
        .map((p) => p.charAt(0).toUpperCase() + p.slice(1).toLowerCase())
        .join('-')
    ] = v;
  return out;
}

function evalThreshold(samples, key, expr) {
  // metric or metric{tag:value,tag:value} (k6's submetric syntax)
  const m = /^([a-z_]+)(?:\{([^}]*)\})?$/.exec(key);
  const [, metric, sel0] = m;
  const want = (sel0 ? sel0.split(',') : []).map((kv) => [kv.slice(0, kv.indexOf(':')), kv.slice(kv.indexOf(':') + 1)]);
  const sel = samples.filter((s) => s.metric === metric && want.every(([k, v]) => String(s.tags[k]) === v));
  const count = sel.reduce((a, s) => a + s.value, 0);
  const rate = sel.length ? sel.filter((s) => s.value).length / sel.length : 0;
  const e = /^(count|rate|value)\s*(==|>=|<=|<|>)\s*([\d.]+)$/.exec(expr);
  if (e[1] === 'value') {
    // a Gauge: its last value, and k6's min and max
    const values = sel.map((s) => s.value);
    const g = { value: values.length ? values[values.length - 1] : 0, min: Math.min(0, ...values), max: Math.max(0, ...values) };
    const n = Number(e[3]);
    return { ok: { '==': g.value === n, '>=': g.value >= n, '<=': g.value <= n, '<': g.value < n, '>': g.value > n }[e[2]], values: g };
  }
  const v = e[1] === 'count' ? count : rate;
  const n = Number(e[3]);
  const ok = { '==': v === n, '>=': v >= n, '<=': v <= n, '<': v < n, '>': v > n }[e[2]];
  return { ok, values: { count, rate } };
}

const dur = (s) => (s.endsWith('ms') ? Number(s.slice(0, -2)) : Number(s.slice(0, -1)) * 1000);

/** An execution segment "a:b" (fractions like 1/2) → [from, to] in [0, 1]. */
function segment(s) {
  if (!s) return [0, 1];
  const frac = (x) => {
    const [p, q] = x.split('/');
    return q === undefined ? Number(p) : Number(p) / Number(q);
  };
  const [a, b] = s.split(':');
  return [a === '' ? 0 : frac(a), b === undefined || b === '' ? 1 : frac(b)];
}

/**
 * Run a bundle. io: { http(reqs, parallel = 1) → [{status, headers, body, error, durationMs}] (at most `parallel` at
 * once, the rest as slots free), sleep(seconds), now() → ms,
 * virtual?: boolean (Date.now follows io.now while the bundle runs) }. opts: { segment?: "0:1/2" }.
 */
export function runBundle(code, env, io, opts = {}) {
  return runBundles(code, env, io, [opts.segment])[0];
}

/**
 * Several k6 instances of one bundle side by side, one per execution segment (a
 * distributed run: k6-operator's parallelism, `k6 run --execution-segment`): each
 * runs its own setup(), then their arrival-rate iterations run merged on one
 * schedule in time order, as they would against one server; each gives its own
 * exit code and handleSummary files.
 */
export function runBundles(code, env, io, segments) {
  const realNow = Date.now;
  if (io.virtual) Date.now = () => io.now();
  try {
    const t0 = io.now();
    const instances = segments.map((seg) => instance(code, env, io, seg));
    for (const x of instances) if (!x.done) x.guard(() => (x.setupData = x.mod.setup ? x.mod.setup() : undefined));
    // Single-iteration scenarios run one after the other (this emulator has no concurrency of VUs; each instance is one VU)…
    const perVu = (later) => {
      for (const x of instances)
        for (const [, sc] of x.scenarios)
          if (sc.executor === 'per-vu-iterations' && !!sc.startTime === later && x.owns(sc.vus || 1)) x.guard(() => x.fn(sc)(x.setupData));
    };
    perVu(false);
    // …arrival-rate scenarios run side by side: every instance's iterations merged on one schedule, in time order.
    const start = io.now();
    const slots = [];
    for (const x of instances) {
      if (x.done) continue;
      for (const [, sc] of x.scenarios) {
        if (sc.executor === 'per-vu-iterations') continue;
        const interval = dur(sc.timeUnit) / sc.rate;
        const end = start + dur(sc.duration);
        for (let i = 0; start + i * interval < end; i++)
          if (x.share(i + 1) !== x.share(i)) slots.push({ at: start + i * interval, interval, sc, x });
      }
    }
    slots.sort((a, b) => a.at - b.at);
    for (const { at, interval, sc, x } of slots) {
      if (x.done) continue;
      const now = io.now();
      if (now < at) io.sleep((at - now) / 1000);
      else if (now - at > interval) continue; // dropped iteration: the single VU was busy
      x.guard(() => x.fn(sc)(x.setupData));
    }
    // …and a scenario that starts later (the flush after an arrival rate) runs after them, at its start time.
    const later = Math.max(0, ...instances.flatMap((x) => x.scenarios.filter(([, sc]) => sc.startTime).map(([, sc]) => dur(sc.startTime))));
    if (later && io.now() < start + later) io.sleep((start + later - io.now()) / 1000);
    perVu(true);
    return instances.map((x) => x.finish(io.now() - t0));
  } finally {
    Date.now = realNow;
  }
}

/**
 * What an instance records, shared by its modules and its end: its checks, metric samples, k6's log (the console's
 * lines, as k6 would print them with --log-format=raw), why it aborted or failed, and the bundle's options once loaded.
 */
function recordOf() {
  return { checks: new Map(), samples: [], log: [], aborted: undefined, failure: undefined, options: {} };
}

/** The `k6` module: check() and sleep(). */
function k6Module(io, st) {
  return {
    check(val, sets, tags) {
      let all = true;
      for (const [name, fn] of Object.entries(sets)) {
        const ok = !!(typeof fn === 'function' ? fn(val) : fn);
        const c = st.checks.get(name) || { name, passes: 0, fails: 0 };
        ok ? c.passes++ : c.fails++;
        st.checks.set(name, c);
        st.samples.push({ metric: 'checks', value: ok ? 1 : 0, tags: { ...(tags || {}), check: name } });
        all = all && ok;
      }
      return all;
    },
    sleep(s) {
      if (s > 0) io.sleep(s);
    },
  };
}

/** The `k6/http` module: get(), request() and batch(), each request counted in http_reqs, answered through `io`. */
function httpModule(io, st) {
  const record = (params) => st.samples.push({ metric: 'http_reqs', value: 1, tags: { ...(params?.tags || {}) } });
  const toResponse = (r) => ({
    status: r.status,
    headers: canonical(r.headers),
    body: r.body ?? null,
    error: r.error || '',
    timings: { duration: r.durationMs || 0 },
  });
  // k6's TLS options of the script (tlsAuth, insecureSkipTLSVerify), which a real-network io applies as k6 would
  const tlsOf = () => ({ tlsAuth: st.options.tlsAuth, insecureSkipTLSVerify: st.options.insecureSkipTLSVerify });
  const request = (method, url, body, params) => {
    record(params);
    const one = { method, url, headers: params?.headers || {}, timeout: params?.timeout, ...(body == null ? {} : { body }) };
    return toResponse(io.http([one], 1, tlsOf())[0]);
  };
  return {
    get: (url, params) => request('GET', url, null, params),
    request,
    batch(reqs) {
      for (const r of reqs) record(r[3]);
      // k6 sends at most `batch` requests of a batch at once, `batchPerHost` to one host (defaults 20 and 6); the rest wait for a slot
      const o = st.options;
      const parallel = Math.max(1, Math.min(o.batch ?? 20, o.batchPerHost ?? 6));
      return io
        .http(
          reqs.map((r) => ({
            method: r[0],
            url: r[1],
            headers: r[3]?.headers || {},
            timeout: r[3]?.timeout,
            ...(r[2] == null ? {} : { body: r[2] }),
          })),
          parallel,
          tlsOf(),
        )
        .map(toResponse);
    },
    expectedStatuses: () => () => true,
  };
}

/** Every module a bundle may import: k6, k6/http, k6/metrics (Counter, Gauge), k6/execution (its segment, abort()). */
function modulesOf(io, st, seg) {
  class Counter {
    constructor(name) {
      this.name = name;
    }
    add(value, tags) {
      st.samples.push({ metric: this.name, value, tags: tags || {} });
    }
  }
  class Gauge extends Counter {}
  const execution = {
    test: {
      options: seg ? { executionSegment: seg } : {},
      abort(reason) {
        st.aborted = String(reason ?? 'aborted');
        throw ABORT;
      },
    },
  };
  return { k6: k6Module(io, st), 'k6/http': httpModule(io, st), 'k6/metrics': { Counter, Gauge }, 'k6/execution': execution };
}

/** The bundle's exports, run as CommonJS with the modules and k6's globals; a throw is the failure k6 exits 107 with. */
function loadBundle(code, env, modules, st) {
  const require = (name) => {
    if (!(name in modules)) throw new Error(`k6 emulator: unknown module ${name}`);
    const m = modules[name];
    return { ...m, default: m, __esModule: true };
  };
  const module = { exports: {} };
  try {
    // k6's open(): a file's text, in the init context
    const open = (path) => readFileSync(path, 'utf8');
    new Function('require', 'module', 'exports', '__ENV', 'console', 'open', asCommonJs(code))(
      require,
      module,
      module.exports,
      env,
      { log: (...a) => st.log.push(a.map(String).join(' ')), warn: () => undefined, error: () => undefined },
      open,
    );
  } catch (e) {
    st.failure = { exitCode: 107, error: String(e?.message || e), files: {}, checks: [], log: st.log };
  }
  return module.exports;
}

/** The end of an instance's run: its thresholds evaluated, k6's exit code, and the files handleSummary returns. */
function finishRun(st, mod, durationMs) {
  if (st.failure) return st.failure;
  let exitCode = st.aborted ? 108 : 0;
  const metrics = {};
  let failed = false;
  for (const [key, exprs] of Object.entries(mod.options.thresholds || {})) {
    metrics[key] = { values: {}, thresholds: {} };
    for (const expr of exprs) {
      const r = evalThreshold(st.samples, key, expr);
      metrics[key].values = r.values;
      metrics[key].thresholds[expr] = { ok: r.ok };
      if (!r.ok) failed = true;
    }
  }
  if (!metrics.http_reqs) metrics.http_reqs = { values: { count: st.samples.filter((s) => s.metric === 'http_reqs').length } };
  if (failed && exitCode === 0) exitCode = 99;
  const checks = [...st.checks.values()];
  const files = mod.handleSummary({
    root_group: { name: '', path: '', groups: [], checks },
    metrics,
    state: { testRunDurationMs: durationMs },
  });
  // what a metrics store would keep: each metric with its tag set (k6's own tags aside: the emulator has none)
  const series = [...new Set(st.samples.map((s) => `${s.metric}${JSON.stringify(Object.entries(s.tags).sort())}`))].sort();
  return { exitCode, aborted: st.aborted, files, checks: [...st.checks.values()], log: st.log, series };
}

/** One k6 instance: the bundle's module with its own metrics and checks, on its execution segment. */
function instance(code, env, io, seg) {
  const st = recordOf();
  const [from, to] = segment(seg);
  const mod = loadBundle(code, env, modulesOf(io, st, seg), st);
  st.options = (mod && mod.options) || {};
  const x = { checks: st.checks, done: !!st.failure, scenarios: [], setupData: undefined, mod };
  x.scenarios = st.failure ? [] : Object.entries(mod.options.scenarios);
  // A k6 scenario runs the exported function its `exec` names (default: the default export).
  x.fn = (sc) => (sc.exec ? mod[sc.exec] : mod.default);
  // k6 stripes the iterations of an arrival rate across execution segments: iteration i is this
  // segment's when the segment's share of the first i + 1 iterations grows at i.
  x.share = (n) => Math.floor(n * to + 1e-9) - Math.floor(n * from + 1e-9);
  x.owns = (vus) => x.share(vus) > 0;
  x.guard = (f) => {
    if (x.done) return;
    try {
      f();
    } catch (e) {
      x.done = true;
      if (e !== ABORT && !st.aborted)
        st.failure = { exitCode: 107, error: String(e?.stack || e), files: {}, checks: [...st.checks.values()], log: st.log };
    }
  };
  x.finish = (durationMs) => {
    const end = finishRun(st, mod, durationMs);
    return end === st.failure ? end : { ...end, name: x.scenarios[0] && x.scenarios[0][0] };
  };
  return x;
}
