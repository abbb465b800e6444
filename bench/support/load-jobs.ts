/**
 * The load engines' jobs and reference app on simulated time, as the self-tests (test/load/helpers.ts) and the
 * benchmarks build them: an enterprise key of PER_MINUTE requests per WINDOW_MS, a clock starting at T0.
 */
import { buildApp, type App, type AppOptions } from '../../reference/app.ts';
import type { Judgement } from '../../src/core/sections/define.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import type { LoadJob } from '../../load/node/engine.ts';
import type { VirtualClock } from './virtual.ts';

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

/** Outcome per requirement (observations left out): what two runs must agree on. */
export function outcomesOf(js: readonly Judgement[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const j of js) if (j.outcome !== 'observe') out[j.requirement] = j.outcome;
  return out;
}
