/**
 * A load run of `npm run bench:verdicts`: the rate-limit scenarios of one server on one engine, through the
 * checkout's own orchestrator. On simulated time (load-node, load-k6) as the load self-tests run them
 * (engines-agree.test.ts, plans.test.ts): the reference app on a virtual clock, the Node engine on the in-process
 * transport or the k6 bundles in the emulator — the same judgements on any machine, whatever its load. On real
 * sockets (k6-real): the k6 binary against the reference server listening on 127.0.0.1, in 2 s windows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App, AppOptions } from '../reference/app.ts';
import type { EngineResult, LoadEngine, LoadJob } from '../load/node/engine.ts';
import type { Orchestrated } from '../load/node/orchestrator.ts';
import type { ScenarioName } from '../src/core/scenarios.ts';
import type { VirtualClock } from './support/virtual.ts';
import type { LoadApi } from './verdicts-checkout.ts';
import { appOptions, type LoadKind, type RunSpec } from './verdicts-runs.ts';

const PER_MINUTE: ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload'];
/** Each kind's scenarios, as the self-tests run them: plans side by side as plans.test.ts (sustained, then ceiling) on simulated time, as real-k6.test.ts (the ceiling) on real sockets. */
const SCENARIOS: Record<LoadKind, ScenarioName[]> = { load: PER_MINUTE, daily: ['daily'], plans: ['sustained', 'ceiling'] };
const REAL_SCENARIOS: Record<LoadKind, ScenarioName[]> = { ...SCENARIOS, plans: ['ceiling'] };

/** The worlds of the simulated load self-tests: the spec's minute at 20 a minute; a 20-minute day of 30. */
const SIM_WORLD: Record<LoadKind, AppOptions> = {
  load: { windowMs: 60_000, enterprise: { perMinute: 20, perDay: 100_000 } },
  daily: { windowMs: 60_000, dayMs: 20 * 60_000, enterprise: { perMinute: 20, perDay: 30 } },
  plans: { windowMs: 60_000 },
};
/** The worlds of the real-socket ones (real-k6.test.ts): 20 per 2 s window; a 10 s day of 30; free and pro on a 5 s window. */
const REAL_WORLD: Record<LoadKind, AppOptions> = {
  load: { windowMs: 2000, enterprise: { perMinute: 20, perDay: 100_000 } },
  daily: { windowMs: 2000, dayMs: 10_000, enterprise: { perMinute: 20, perDay: 30 } },
  plans: { windowMs: 5000 },
};

/**
 * `run` with Math.random seeded (the emulator runs the bundle in this realm): a bundle's retry jitter is Math.random,
 * which made the emulated k6 runs differ now and then (load-k6/fault/wrong-plan-limit: the overload scenario met a
 * 429 in one attempt, not in the other) — the Node engine's runs are seeded through their jobs' tuning.
 */
function seededRandom<T>(api: LoadApi, run: () => T): T {
  const real = Math.random;
  Math.random = api.jobs.seeded(7);
  try {
    return run();
  } finally {
    Math.random = real;
  }
}

/** The k6 bundles in the emulator, on the virtual clock, completed as the k6 engine completes them (test/support/k6-shim/engine.ts, from the checkout's primitives). */
class EmulatedK6 implements LoadEngine {
  readonly name = 'k6' as const;
  constructor(
    private readonly api: LoadApi,
    private readonly dist: string,
    private readonly app: App,
    private readonly clock: VirtualClock,
  ) {}

  async run(j: LoadJob): Promise<EngineResult> {
    return (await this.runBatch([j]))[0];
  }

  runBatch(jobs: readonly LoadJob[]): Promise<EngineResult[]> {
    return new Promise((resolve) => resolve(this.batch(jobs))); // run at once; a throw rejects, as in an async function
  }

  private batch(jobs: readonly LoadJob[]): EngineResult[] {
    const { k6, k6Virtual, loadReport } = this.api;
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-verdicts-k6v-'));
    try {
      const env = k6.batchEnv(jobs, dir);
      const r = seededRandom(this.api, () => k6Virtual.runK6Virtual(k6.bundlePath(jobs[0].scenario, this.dist), env, this.app, this.clock));
      return jobs.map((j) => {
        const whole = k6Virtual.reportOfRun(r, `/${loadReport.reportBaseName(j.scenario, j.plan)}.json`, !!env.ANIMAL_STORE_PLANS);
        const report = whole && k6.asOne(j, whole, r.log, env);
        if (!report) throw new Error(`emulated k6 exited ${r.exitCode} without a report for ${j.plan}: ${r.error ?? ''}`);
        return r.exitCode === 108 ? { report, unreachable: 'aborted in setup' } : { report };
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The lanes of a run in its world: one enterprise key, or free and pro side by side on their own keys. */
function lanesOf(
  api: LoadApi,
  { kind, scenarios }: { kind: LoadKind; scenarios: ScenarioName[] },
  { world, app }: { world: AppOptions; app: App },
  base: Partial<LoadJob>,
): LoadJob[][] {
  const windowMs = world.windowMs!;
  if (kind === 'plans')
    return (['free', 'pro'] as const).map((plan) =>
      scenarios.map((s) =>
        api.jobs.job(s, { ...base, plan, apiKey: app.keys[plan], ...api.plans.PLANS[plan], dedicatedKey: true, windowMs }),
      ),
    );
  const e = world.enterprise!;
  const day = kind === 'daily' ? { perDay: e.perDay, dayMs: world.dayMs! } : {};
  return [scenarios.map((s) => api.jobs.job(s, { ...base, perMinute: e.perMinute, ...day, windowMs }))];
}

/** On simulated time: the Node engine on the in-process transport, or the k6 bundles of `dist` in the emulator. */
export async function simLoad(api: LoadApi, spec: RunSpec, engine: 'node' | 'k6', dist: string): Promise<Orchestrated[]> {
  const kind = spec.kind as LoadKind;
  const options: AppOptions = { ...appOptions(spec.app), ...SIM_WORLD[kind] };
  // The daily quota's runs start 30 ms into a quota day (engines-agree.test.ts), the others at T0.
  const T0 = api.jobs.T0;
  const start = spec.kind === 'daily' ? Math.floor(T0 / options.dayMs!) * options.dayMs! + 30 : T0;
  const clock = new api.virtual.VirtualClock(start);
  const app = api.app.buildApp({ ...options, now: () => clock.now() });
  const run: LoadEngine =
    engine === 'k6'
      ? new EmulatedK6(api, dist, app, clock)
      : new api.engine.NodeEngine({ send: api.virtual.virtualSend(app, clock), clock }, () => undefined);
  const lanes = lanesOf(api, { kind, scenarios: SCENARIOS[kind] }, { world: options, app }, { deadlineAt: start + 3_600_000 });
  return clock.run(() => api.orchestrator.orchestrateLanes(lanes, { engine: run, clock }));
}

/** On real sockets: the k6 binary against the reference server on 127.0.0.1, as the embedded server is run (a fresh quota day, one retry). */
export async function realLoad(api: LoadApi, spec: RunSpec, binary: string, dist: string): Promise<Orchestrated[]> {
  const kind = spec.kind as LoadKind;
  const options: AppOptions = { ...appOptions(spec.app), ...REAL_WORLD[kind] };
  const app = api.app.buildApp(options);
  const server = await api.server.listen(app, { host: '127.0.0.1', port: 0 });
  try {
    const dayMs = options.dayMs ?? 86_400_000;
    const base: Partial<LoadJob> = {
      baseUrl: server.url,
      deadlineAt: Date.now() + 150_000,
      maxWaitMs: 30_000,
      nextDayAt: (now) => Math.ceil(now / dayMs) * dayMs,
      retries: 1,
    };
    const lanes = lanesOf(api, { kind, scenarios: REAL_SCENARIOS[kind] }, { world: options, app }, base);
    const engine = new api.k6.K6Engine(binary, dist, () => undefined);
    return await api.orchestrator.orchestrateLanes(lanes, { engine, clock: api.clock.realClock, retryBudget: 10_000 });
  } finally {
    await server.close();
  }
}
