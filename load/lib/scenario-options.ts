/**
 * The options a scenario runs with, from the plan's limits and the windows (the
 * configuration itself is read by src/settings/read-config.ts, from flags and the
 * environment in Node, from __ENV in k6). Pure (bundled for k6).
 */
import { ConfigError } from '../../src/settings/read-config.ts';
import { DAY_MS, MINUTE_MS, type PlanName } from '../../src/core/plans.ts';
import type { ScenarioOptions } from './types.ts';

/**
 * Requests a scenario keeps in flight at most, on either engine (k6: the largest http.batch, and k6's
 * `batch` and `batchPerHost` options). The ceiling sizes its concurrency from the latency it observes
 * below this cap; a server so slow that its limit needs more is told so (src/core/sections/rate-limit-load/ceiling.ts).
 */
export const MAX_IN_FLIGHT = 64;

export interface ScenarioInputs {
  plan: PlanName;
  /** Requests per window (the plan's per-minute number; the window may be scaled down, the number stays). */
  perMinute: number;
  perDay?: number;
  windowMs?: number;
  dayMs?: number;
  maxWaitMs?: number;
  deadlineAt?: number;
  /** Method and URL of the scenario's requests (evidence). */
  requestUrl?: string;
  /** Requests the run sent on the key before this scenario (the daily quota may have been partly spent by them). */
  earlierRequests?: number;
  /** The scenario starts on a fresh quota day of a server whose days are known (the embedded server). */
  freshQuotaDay?: boolean;
  /** No 429 came on the key earlier in the run (the orchestrator knows). */
  noEarlier429?: boolean;
  /** Writes are allowed (the configuration's allowWrites): the ceiling's POST at the limit. */
  writes?: boolean;
  /** The prefix of the names of the pets the scenario creates. */
  namePrefix?: string;
  /** False: a ceiling leaves its POST at the limit to the recovery after it on the key. */
  postAtLimit?: boolean;
}

export function scenarioOptions(i: ScenarioInputs, overrides: Partial<ScenarioOptions> = {}): ScenarioOptions {
  const windowMs = i.windowMs || MINUTE_MS;
  const base: ScenarioOptions = {
    plan: i.plan,
    limit: i.perMinute,
    perDay: i.perDay,
    windowMs,
    dayMs: i.dayMs || DAY_MS,
    toleranceMs: 2000,
    jitterMs: Math.max(50, Math.min(1000, Math.round(windowMs * 0.05))),
    sustainedFraction: 0.9,
    overloadFactor: 3,
    sustainedWindows: 2,
    overloadWindows: 2,
    backoffAttempts: 3,
    maxWaitMs: i.maxWaitMs || windowMs + 10000,
    deadlineAt: i.deadlineAt,
    maxInFlight: MAX_IN_FLIGHT,
    random: Math.random,
    requestUrl: i.requestUrl,
  };
  if (i.earlierRequests !== undefined) base.earlierRequests = i.earlierRequests;
  if (i.freshQuotaDay) base.freshQuotaDay = true;
  if (i.noEarlier429) base.noEarlier429 = true;
  if (i.writes) base.writes = true;
  if (i.namePrefix) base.namePrefix = i.namePrefix;
  if (i.postAtLimit === false) base.postAtLimit = false;
  const o: ScenarioOptions = Object.assign(base, overrides);
  if (!(o.limit > 0))
    throw new ConfigError(`plan ${i.plan} has no per-minute limit: give --rpm N (ANIMAL_STORE_RPM) for an enterprise plan`);
  if (!(o.overloadFactor > 2))
    throw new ConfigError('the overload factor must be above 2 (a fixed window may legitimately let through up to twice the limit)');
  if (!(o.sustainedFraction > 0 && o.sustainedFraction < 1)) throw new ConfigError('the sustained fraction must be between 0 and 1');
  if (o.sustainedWindows < 1 || o.overloadWindows < 1) throw new ConfigError('paced scenarios last at least one full window');
  return o;
}

/**
 * Internal k6 variable: the per-day quota the server runs with, when the suite's orchestrator runs a bundle
 * (the embedded server's short day has its own quotas; --rpd gives one only for enterprise). With several
 * plans in one process: one per plan, suffixed _FREE, _PRO….
 */
export const DAY_QUOTA_VAR = 'ANIMAL_STORE_DAY_QUOTA';

/**
 * Internal k6 variables of the daily scenario, set by the suite's orchestrator: the requests the run sent on the
 * key before it (with several plans in one process: one per plan, suffixed _FREE, _PRO…), and whether it starts on
 * a fresh quota day of a server whose days are known ('yes': the embedded server).
 */
export const EARLIER_REQUESTS_VAR = 'ANIMAL_STORE_EARLIER_REQUESTS';
export const FRESH_QUOTA_DAY_VAR = 'ANIMAL_STORE_FRESH_QUOTA_DAY';

/**
 * Internal k6 variable set by the suite's orchestrator: 'yes' when no 429 came on the key earlier in the run (with
 * several plans in one process: one per plan, suffixed _FREE, _PRO…), so a ban on the scenario's first 429 was not earned.
 */
export const NO_EARLIER_429_VAR = 'ANIMAL_STORE_NO_EARLIER_429';

/**
 * Internal k6 variable set by the suite's orchestrator: 'no' when a ceiling leaves its POST at the limit to the
 * recovery that follows it on the key (whose probe reads it back at no extra request, and on a window of its own).
 */
export const POST_AT_LIMIT_VAR = 'ANIMAL_STORE_POST_AT_LIMIT';

/** A count written by the orchestrator into an internal variable, or undefined when absent or unreadable. */
export function internalCount(value: string | undefined): number | undefined {
  return /^\d{1,15}$/.test(value || '') ? Number(value) : undefined;
}
