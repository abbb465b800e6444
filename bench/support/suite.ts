/**
 * Test support: run the whole conformance suite in process (collection mode)
 * against a reference server started with the given options, and return the
 * aggregated requirement results. By default on simulated time: the app is
 * called in process on a virtual clock (pacing on a Free key's window costs no
 * real time, whatever the machine's speed); `real: true` uses real sockets and
 * the real clock, for what only a socket shows (transport faults, framing).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { AppOptions } from '../../reference/options.ts';
import { EMBEDDED_EXPLORE_BUDGET, readConfig } from '../../src/settings/read-config.ts';
import { MINUTE_MS, type PlanName } from '../../src/core/plans.ts';
import { Session } from '../../src/harness/session.ts';
import type { TrafficOptions } from '../../src/harness/traffic.ts';
import { runSpecs, specPaths, type InProcessResult } from '../../src/harness/in-process-runner.ts';
import { collectSpecs, type SpecFile } from '../../src/harness/define-spec.ts';
import { aggregate } from '../../src/results/aggregate.ts';
import type { RequirementResult } from '../../src/results/types.ts';
import { VirtualClock, virtualSend } from './virtual.ts';

export interface SuiteRun extends InProcessResult {
  results: RequirementResult[];
  status(id: string): string | undefined;
  problems(): string[];
}

export interface RunOptions {
  plan?: PlanName;
  env?: Record<string, string>;
  sleep?: (ms: number) => Promise<void>;
  /** Real sockets and the real clock instead of simulated time. */
  real?: boolean;
  /** Simulated time: the clock and the transport (set by runSuiteAgainst). */
  clock?: VirtualClock;
  send?: ReturnType<typeof virtualSend>;
  /** The target is the suite's own reference server (default true): names without the run's prefix may be tried. */
  embedded?: boolean;
  /** The server's rate-limit window, as a run's target tells its session (runSuiteAgainst: the reference server's). */
  windowMs?: number;
  /** Only the spec files this keeps (default: all). */
  specs?: (f: SpecFile) => boolean;
  /** Simulated time: called with every request sent (method, URL, body). */
  onRequest?: (req: { method: string; url: string; body?: string; headers?: Record<string, string> }) => void;
  /** Record the run's traffic (the lines of its HAR). */
  traffic?: TrafficOptions;
  /** The exploration phase's budget (default: the embedded default, EMBEDDED_EXPLORE_BUDGET; a test may size it: test/support/explore-budget.ts). */
  exploreBudget?: number;
}

/** A reports folder that never exists: no counterexample saved by a developer's run leaks into a self-test. */
export const NO_REPORTS = join(tmpdir(), 'animal-store-self-test-no-reports');

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0) + 250;

export async function runSuiteAgainst(app: AppOptions, opts: RunOptions = {}): Promise<SuiteRun> {
  const key = DEMO_KEYS[opts.plan ?? 'business'];
  if (opts.real) {
    const server = await listen(buildApp(app), { host: '127.0.0.1', port: 0 });
    try {
      return await runSuiteAt(server.url, key, { windowMs: app.windowMs ?? MINUTE_MS, ...opts });
    } finally {
      await server.close();
    }
  }
  const clock = new VirtualClock(T0);
  const server = buildApp({ ...app, now: () => clock.now() });
  // the latency variants are waited on the virtual clock by the transport (app.delay())
  const virtual = virtualSend(server, clock);
  const send: typeof virtual = (req) => {
    opts.onRequest?.({ method: req.method, url: req.url, body: req.body, headers: req.headers });
    return virtual(req);
  };
  return runSuiteAt('http://127.0.0.1:4010/v1', key, { windowMs: app.windowMs ?? MINUTE_MS, ...opts, clock, send });
}

export async function runSuiteAt(baseUrl: string, apiKey: string, opts: RunOptions = {}): Promise<SuiteRun> {
  const config = readConfig(
    {
      ANIMAL_STORE_BASE_URL: baseUrl,
      ANIMAL_STORE_API_KEY: apiKey,
      ANIMAL_STORE_PLAN: opts.plan ?? 'business',
      ANIMAL_STORE_TIMEOUT_MS: '3000',
      // The exploration phase: a fixed seed, and no counterexamples saved by the developer's own runs.
      ANIMAL_STORE_SEED: '1',
      ANIMAL_STORE_EXPLORE_BUDGET: String(opts.exploreBudget ?? EMBEDDED_EXPLORE_BUDGET),
      ANIMAL_STORE_REPORTS_DIR: NO_REPORTS,
      ...opts.env,
    },
    {},
    'conformance',
  );
  const clock = opts.clock;
  const embedded = opts.embedded ?? true;
  const session = clock
    ? new Session({
        config,
        baseUrl: config.baseUrl!,
        embedded,
        windowMs: opts.windowMs,
        now: () => clock.now(),
        sleep: (ms) => clock.wait(ms).done,
        send: opts.send,
        traffic: opts.traffic,
      })
    : new Session({ config, baseUrl: config.baseUrl!, embedded, windowMs: opts.windowMs, sleep: opts.sleep, traffic: opts.traffic });
  const files = await collectSpecs(specPaths());
  const out = clock ? await clock.run(() => runSpecs(session, files, opts.specs)) : await runSpecs(session, files, opts.specs);
  const results = aggregate(out.findings);
  return {
    ...out,
    results,
    status: (id) => results.find((r) => r.id === id)?.status,
    problems: () =>
      results
        .filter((r) => r.status === 'fail' || r.status === 'warn')
        .map((r) => `${r.id} ${r.status}: ${r.findings.map((f) => f.message).join(' | ')}`),
  };
}
