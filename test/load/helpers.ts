/**
 * Load self-test support. Most tests run on simulated time: a reference app on a
 * virtual clock, the Node engine with an in-process transport, the k6 bundles
 * in the emulator on the same clock — the spec's real 60-second window, in
 * milliseconds, with the same result on any machine. A few wall-clock tests use
 * `startReference` (real sockets, a short window, generous margins).
 */
import { buildApp, type App, type AppOptions } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import type { Judgement } from '../../src/core/judgement.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { NodeEngine, type LoadEngine, type LoadJob } from '../../load/node/engine.ts';
import { orchestrate, type Orchestrated } from '../../load/node/orchestrator.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { tempDir } from '../support/temp.ts';

export const WINDOW_MS = 60_000;
export const PER_MINUTE = 20;
export const PER_DAY = 100_000;
/** 2030-01-01 12:00:00.250 UTC: a quarter second into a window. */
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0) + 250;
export const seeded = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

export function job(scenario: ScenarioName, over: Partial<LoadJob> = {}): LoadJob {
  return {
    scenario,
    plan: 'enterprise',
    perMinute: PER_MINUTE,
    perDay: PER_DAY,
    baseUrl: 'http://127.0.0.1:4010/v1',
    apiKey: 'as_demo_enterprise_c4f86b1e09d2a753',
    windowMs: WINDOW_MS,
    dayMs: 86_400_000,
    maxWaitMs: 10 * WINDOW_MS + 10_000,
    deadlineAt: T0 + 3_600_000,
    timeoutMs: 10_000,
    maxBodyBytes: 65536,
    maxVus: 1,
    distributed: false,
    progress: false,
    tuning: { random: seeded(7) },
    ...over,
  };
}

/** A reference app on a virtual clock (enterprise key: PER_MINUTE per WINDOW_MS). */
export function virtualApp(options: AppOptions, clock: VirtualClock): App {
  return buildApp({ windowMs: WINDOW_MS, enterprise: { perMinute: PER_MINUTE, perDay: PER_DAY }, ...options, now: () => clock.now() });
}

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

/** Outcome per requirement (observations left out): what two runs must agree on. */
export function outcomesOf(js: readonly Judgement[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const j of js) if (j.outcome !== 'observe') out[j.requirement] = j.outcome;
  return out;
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
