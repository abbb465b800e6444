/**
 * The rate-limit half of a run, the same for `npm run load` and `npm start`:
 * picks the engine (k6 when asked or on PATH, else the Node engine), turns the
 * configuration into one job per scenario on the key, and lets the one
 * orchestrator run them — within the run's request budget and deadline.
 */
import { ConfigError, requireLimits, type Config } from '../../src/core/config.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import type { Target } from '../../src/target/target.ts';
import { cost, SCENARIOS } from '../lib/scenarios.ts';
import { realClock, type Clock } from './clock.ts';
import { jobOptions, NodeEngine, type LoadEngine, type LoadJob } from './engine.ts';
import { findK6, K6Engine } from './k6.ts';
import { orchestrate, type Orchestrated, type OrchestratorOptions } from './orchestrator.ts';

/** The engine a configuration asks for; a ConfigError when k6 is asked for and absent. */
export function pickEngine(c: Config, log?: (line: string) => void): LoadEngine {
  const k6 = c.load.engine === 'node' ? undefined : findK6();
  if (c.load.engine === 'k6' && !k6)
    throw new ConfigError('--engine k6 but no k6 executable (set K6_BIN, or put k6 on PATH; or use --engine node)');
  return k6 ? new K6Engine(k6, undefined, log) : new NodeEngine({}, log);
}

/** One job per scenario on the target's key. Throws ConfigError without a plan (never guessed) or over the budget. */
export function jobsFor(target: Target, scenarios: readonly ScenarioName[], budget: number, startedAt = Date.now()): LoadJob[] {
  const c = target.config;
  const limits = requireLimits(c);
  if (scenarios.indexOf('daily') >= 0 && !c.load.allowDaily)
    throw new ConfigError(
      "the daily scenario spends the key's whole daily quota: allow it with --allow-daily (or ANIMAL_STORE_LOAD_DAILY=yes)",
    );
  const jobs = scenarios.map((scenario): LoadJob => ({
    scenario,
    plan: limits.plan,
    perMinute: limits.perMinute,
    perDay: limits.perDay,
    baseUrl: c.baseUrl as string,
    apiKey: c.apiKey as string,
    windowMs: target.windowMs,
    dayMs: target.dayMs,
    maxWaitMs: c.maxWaitMs,
    deadlineAt: startedAt + c.deadlineMs,
    timeoutMs: c.timeoutMs,
    maxBodyBytes: c.maxBodyBytes,
    maxVus: c.load.maxVus,
    distributed: c.load.distributed,
    progress: c.output.progress,
    // The embedded server's quota days are aligned on the epoch: the daily scenario can start on a fresh one.
    ...(target.info.embedded ? { nextDayAt: (now: number) => Math.ceil(now / target.dayMs) * target.dayMs } : {}),
  }));
  const most = jobs.reduce((n, j) => n + cost(j.scenario, jobOptions(j)).maxRequests, 0);
  if (most > budget)
    throw new ConfigError(
      `the rate-limit scenarios (${scenarios.join(', ')}) on plan ${limits.plan} may send up to ${most} requests, above the ${budget} left in the run's budget (--max-requests)`,
    );
  return jobs;
}

export interface RateLimitRun extends Orchestrated {
  engine: 'node' | 'k6';
}

export async function runRateLimits(
  target: Target,
  scenarios: readonly ScenarioName[],
  o: { engine: LoadEngine; budget: number; clock?: Clock } & Omit<OrchestratorOptions, 'engine' | 'clock'>,
): Promise<RateLimitRun> {
  const clock = o.clock || realClock;
  const jobs = jobsFor(target, scenarios, o.budget, clock.now());
  const out = await orchestrate(jobs, { ...o, clock });
  return { ...out, engine: o.engine.name };
}

/** The dry run's lines for the rate-limit scenarios: each one's cost (requests and time), taken from its own caps. */
export function costLines(target: Target, scenarios: readonly ScenarioName[]): { lines: string[]; maxRequests: number; typicalMs: number } {
  const limits = requireLimits(target.config);
  const lines: string[] = [];
  let maxRequests = 0;
  let typicalMs = 0;
  for (const s of scenarios) {
    const job = jobsFor(target, [s], Number.MAX_SAFE_INTEGER)[0];
    const c = cost(s, jobOptions(job));
    maxRequests += c.maxRequests;
    typicalMs += c.typicalMs;
    lines.push(
      `  ${s.padEnd(10)} about ${c.typicalRequests} requests in about ${Math.round(c.typicalMs / 1000)} s; at most ${c.maxRequests} requests and ${Math.round(c.maxMs / 1000)} s (its caps)`,
    );
  }
  lines.unshift(`Rate-limit scenarios on plan ${limits.plan} (${limits.perMinute} per ${Math.round(target.windowMs / 1000)} s window):`);
  return { lines, maxRequests, typicalMs };
}

export { SCENARIOS };
