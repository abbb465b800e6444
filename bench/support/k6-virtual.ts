/**
 * A k6 bundle (load/dist/<scenario>.js) run without k6, in process on a virtual clock, every request answered by
 * a reference app in process — deterministic, whatever the machine's speed — under the emulator of
 * ./k6-emulator.mjs; the exit code k6 would give and the files handleSummary returns. Shared by the self-tests
 * (test/load/k6-shim/run.ts adds the real-time mode, in a worker thread) and the benchmarks.
 */
import { readFileSync } from 'node:fs';
import type { App } from '../../reference/app.ts';
import { completeReport } from '../../load/lib/k6-log.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { VirtualClock } from './virtual.ts';
import { runBundles } from './k6-emulator.mjs';

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

/**
 * A report handleSummary returned (the first, or the one whose file name ends with `suffix`), completed with
 * the run's log as the suite's k6 engine completes it (`tagged`: several plans in one process).
 */
export function reportOfRun(run: K6Run, suffix = '.json', tagged = false): LoadReport | undefined {
  const file = Object.entries(run.files).find(([k]) => k.endsWith(suffix) && k.endsWith('.json'));
  return file ? completeReport(JSON.parse(file[1]) as LoadReport, run.log, tagged) : undefined;
}

/**
 * The bundle in process on a virtual clock: each request is answered by `app`
 * (built on the same clock) half a latency after it is sent, and arrives a
 * latency after; k6's sleep moves the clock. Files are returned, not written. (`bench:verdicts --root` drives older
 * checkouts through these four parameters.)
 */
export function runK6Virtual(bundle: string, env: Record<string, string>, app: App, clock: VirtualClock): K6Run {
  return runK6VirtualSegments(bundle, env, { app, clock }, [undefined])[0];
}

/**
 * Several instances of the bundle side by side on their execution segments (a distributed run; `undefined`: the
 * whole run), on the virtual clock.
 */
export function runK6VirtualSegments(
  bundle: string,
  env: Record<string, string>,
  { app, clock }: { app: App; clock: VirtualClock },
  segments: readonly (string | undefined)[],
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
    http: (reqs: Array<{ method?: string; url: string; headers: Record<string, string>; body?: string }>, parallel = 1) => {
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
          method: x.r.method ?? 'GET',
          url: u.pathname + u.search,
          headers: { ...lower, host: u.host },
          socket: { remoteAddress: '127.0.0.1' },
          ...(x.r.body !== undefined ? { body: x.r.body } : {}),
        });
        end = Math.max(end, x.done);
        out[x.i] = { status: res.status, headers: res.headers, body: res.body, durationMs: x.done - t0 };
      }
      clock.advance(end - clock.now());
      return out;
    },
  };
}
