/**
 * The plan a conformance run prints as it starts: about how many requests it sends, how many at a time the server's
 * latency needs (src/http/flight.ts), whether the run is bound by the key's rate or by the server's latency, and about
 * how long it takes. An estimate from the preflight's latency and the plan's rate, never a promise.
 */
import { widthFor } from '../http/flight.ts';
import { EXPLORE_TIME_MS } from '../explore/pace.ts';
import type { Target } from '../target/target.ts';

/** Requests the specs send against a correct server (writes on, writes off); test/cli/run-plan.test.ts keeps them true. */
export const SPEC_REQUESTS = { writes: 157, readOnly: 101 } as const;
/** Rounds of the latency the specs and the exploration wait one request after another (alone tests, read-backs, ramp-up). */
const SPEC_ROUNDS = 9;
const EXPLORE_ROUNDS = 10;
/** Vitest's start and the reports, about. */
const START_MS = 5_000;

export interface PlanFacts {
  /** The preflight request's latency (ms). */
  latencyMs: number;
  writes: boolean;
  exploreBudget: number;
  /** The key's requests per window, when the plan says (undefined: not known). */
  perWindow?: number;
  windowMs: number;
}

export interface RunPlan {
  requests: number;
  width: number;
  boundBy: 'rate' | 'latency';
  ms: number;
}

export function runPlan(f: PlanFacts): RunPlan {
  const specs = f.writes ? SPEC_REQUESTS.writes : SPEC_REQUESTS.readOnly;
  const requests = specs + f.exploreBudget;
  const width = widthFor(f.latencyMs);
  const rounds = (n: number, chain: number) => (width === 1 ? n : Math.ceil(n / width) + chain);
  const exploring = f.exploreBudget > 0 ? Math.min(EXPLORE_TIME_MS, f.latencyMs * rounds(f.exploreBudget, EXPLORE_ROUNDS)) : 0;
  const latencyMs = START_MS + f.latencyMs * rounds(specs, SPEC_ROUNDS) + exploring;
  // The first window's Remaining is spent at once; every further window's requests wait for it.
  const rateMs = f.perWindow ? Math.floor(requests / f.perWindow) * f.windowMs : 0;
  return { requests, width, boundBy: rateMs > latencyMs ? 'rate' : 'latency', ms: Math.max(rateMs, latencyMs) };
}

const seconds = (ms: number) => (ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);

/** The facts of a run's plan: the preflight's latency, the configuration's writes, budget and plan. */
export function planFacts(target: Target, latencyMs: number): PlanFacts {
  const c = target.config;
  return {
    latencyMs,
    writes: c.allowWrites,
    exploreBudget: c.explore.budget,
    ...(c.limits?.perMinute ? { perWindow: c.limits.perMinute } : {}),
    windowMs: target.windowMs,
  };
}

/** The plan in one line. */
export function planLine(f: PlanFacts): string {
  const p = runPlan(f);
  const key = f.perWindow
    ? `the key allows ${f.perWindow.toLocaleString('en-US')} requests per ${seconds(f.windowMs)}`
    : 'the key’s rate is not known';
  const bound = p.boundBy === 'rate' ? 'bound by the key’s rate' : 'bound by the server’s latency';
  return `animal-store: plan of the specs and the exploration: about ${p.requests} requests; the server answered in ${Math.round(f.latencyMs)} ms, so up to ${p.width} at a time; ${key}: ${bound}, about ${seconds(p.ms)}.`;
}
