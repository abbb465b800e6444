/**
 * Load self-test support. Most tests run on simulated time: a reference app on a
 * virtual clock, the Node engine with an in-process transport, the k6 bundles
 * in the emulator on the same clock — the spec's real 60-second window, in
 * milliseconds, with the same result on any machine. A few wall-clock tests use
 * `startReference` (real sockets, a short window, generous margins).
 */
import { buildApp, type App, type AppOptions } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { NodeEngine, type LoadEngine, type LoadJob } from '../../load/node/engine.ts';
import { orchestrate, type Orchestrated } from '../../load/node/orchestrator.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { tempDir } from '../support/temp.ts';
import { job, PER_DAY, PER_MINUTE, T0, virtualApp } from '../../bench/support/load-jobs.ts';

export { job, outcomesOf, PER_DAY, PER_MINUTE, seeded, T0, virtualApp, WINDOW_MS } from '../../bench/support/load-jobs.ts';

export type EngineKind = 'node' | 'k6';

/** Run `scenarios` in order on one key of a fresh reference app, on a fresh virtual clock, with one engine. */
export async function runVirtual(
  kind: EngineKind,
  scenarios: readonly ScenarioName[],
  options: AppOptions = {},
  o: { dist?: string; start?: number; job?: Partial<LoadJob>; before?: (app: App, clock: VirtualClock) => void } = {},
): Promise<Orchestrated & { app: App; clock: VirtualClock }> {
  const clock = new VirtualClock(o.start ?? T0);
  const app = virtualApp(options, clock);
  if (o.before) o.before(app, clock);
  const engine: LoadEngine =
    kind === 'node'
      ? new NodeEngine({ send: virtualSend(app, clock), clock }, () => undefined)
      : new EmulatedK6(o.dist as string, app, clock);
  const jobs = scenarios.map((s) => job(s, { deadlineAt: clock.now() + 3_600_000, ...o.job }));
  const out = await clock.run(() => orchestrate(jobs, { engine, clock }));
  return { ...out, app, clock };
}

export const outcomes = (r: LoadReport, requirement: string): string[] =>
  r.judgements.filter((v) => v.requirement === requirement).map((v) => v.outcome);
export const problems = (r: LoadReport) =>
  r.judgements.filter((v) => v.outcome === 'fail' || v.outcome === 'warn').map((v) => `${v.requirement}: ${v.message}`);

/** A reference server on real sockets and the real clock, with a short window (wall-clock tests only). */
export interface Ref {
  url: string;
  /** The enterprise demo key (PER_MINUTE per window). */
  key: string;
  /** Every plan's demo key. */
  keys: App['keys'];
  close(): Promise<void>;
}

export async function startReference(o: AppOptions = {}, windowMs = 3000): Promise<Ref> {
  const app = buildApp({ windowMs, enterprise: { perMinute: PER_MINUTE, perDay: PER_DAY }, ...o });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return { url: server.url, key: app.keys.enterprise, keys: app.keys, close: () => server.close() };
}

export const reportsDir = (): string => tempDir('load-reports');
