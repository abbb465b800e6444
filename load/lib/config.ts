/**
 * Load settings from an environment map: `__ENV` in k6, `process.env` (plus
 * command-line flags) in the Node engine. Pure (bundled for k6): no dotenv, no
 * Node built-ins. A bad value throws LoadConfigError (exit code 2).
 *
 * Variables (the same names as the rest of the suite, plus the load-only ones):
 *   ANIMAL_STORE_BASE_URL, ANIMAL_STORE_API_KEY, ANIMAL_STORE_PLAN,
 *   ANIMAL_STORE_RPM, ANIMAL_STORE_RPD (enterprise), ANIMAL_STORE_TIMEOUT_MS,
 *   ANIMAL_STORE_REPORTS_DIR,
 *   ANIMAL_STORE_WINDOW_MS   rate-limit window (default 60000: the spec's minute)
 *   ANIMAL_STORE_DAY_MS      quota window (default 86400000)
 *   ANIMAL_STORE_LOAD_DAILY  "yes" to allow the daily scenario (it spends a day's quota)
 *   ANIMAL_STORE_LOAD_MAX_VUS  VUs of the k6 arrival-rate scenarios (default 1)
 */
import { isPlanName, planLimits, type PlanName } from '../../src/core/plans.ts';
import type { ScenarioOptions } from './types.ts';

export class LoadConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadConfigError';
  }
}

export type EnvMap = Record<string, string | undefined>;

export const MINUTE_MS = 60000;
export const DAY_MS = 86400000;

function get(env: EnvMap, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function positiveInt(env: EnvMap, name: string, fallback: number): number;
function positiveInt(env: EnvMap, name: string, fallback: undefined): number | undefined;
function positiveInt(env: EnvMap, name: string, fallback: number | undefined): number | undefined {
  const raw = get(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) <= 0)
    throw new LoadConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function yes(env: EnvMap, name: string): boolean {
  const raw = (get(env, name) || '').toLowerCase();
  if (raw === '' || raw === 'no' || raw === 'false' || raw === '0' || raw === 'off') return false;
  if (raw === 'yes' || raw === 'true' || raw === '1' || raw === 'on') return true;
  throw new LoadConfigError(`${name} must be yes or no, got ${JSON.stringify(raw)}`);
}

/** The load-only settings. */
export interface LoadTuning {
  windowMs: number;
  dayMs: number;
  dailyOptIn: boolean;
  maxVus: number;
  /** ANIMAL_STORE_LOAD_DISTRIBUTED=yes: the script runs as one of several runners (k6-operator, k6 cloud). */
  distributed: boolean;
}

export function readLoadTuning(env: EnvMap): LoadTuning {
  const windowMs = positiveInt(env, 'ANIMAL_STORE_WINDOW_MS', MINUTE_MS);
  const dayMs = positiveInt(env, 'ANIMAL_STORE_DAY_MS', DAY_MS);
  if (windowMs < 500) throw new LoadConfigError(`ANIMAL_STORE_WINDOW_MS must be at least 500, got ${windowMs}`);
  if (dayMs < windowMs) throw new LoadConfigError('ANIMAL_STORE_DAY_MS must not be shorter than ANIMAL_STORE_WINDOW_MS');
  return {
    windowMs,
    dayMs,
    dailyOptIn: yes(env, 'ANIMAL_STORE_LOAD_DAILY'),
    maxVus: positiveInt(env, 'ANIMAL_STORE_LOAD_MAX_VUS', 1),
    distributed: yes(env, 'ANIMAL_STORE_LOAD_DISTRIBUTED'),
  };
}

/** Everything a k6 script needs, from __ENV. */
export interface K6Config extends LoadTuning {
  baseUrl: string;
  apiKey: string;
  plan: PlanName;
  perMinute?: number;
  perDay?: number;
  timeoutMs: number;
  reportsDir: string;
}

export function readK6Config(env: EnvMap): K6Config {
  const baseUrl = get(env, 'ANIMAL_STORE_BASE_URL');
  if (!baseUrl || !/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/.test(baseUrl))
    throw new LoadConfigError(
      `ANIMAL_STORE_BASE_URL must be an http(s) URL without credentials, query or fragment, got ${JSON.stringify(baseUrl || '')}`,
    );
  const apiKey = get(env, 'ANIMAL_STORE_API_KEY');
  if (!apiKey) throw new LoadConfigError('ANIMAL_STORE_API_KEY is required');
  const planRaw = (get(env, 'ANIMAL_STORE_PLAN') || 'free').toLowerCase();
  if (!isPlanName(planRaw))
    throw new LoadConfigError(`ANIMAL_STORE_PLAN must be free, pro, business or enterprise, got ${JSON.stringify(planRaw)}`);
  const rpm = positiveInt(env, 'ANIMAL_STORE_RPM', undefined);
  const rpd = positiveInt(env, 'ANIMAL_STORE_RPD', undefined);
  if ((rpm || rpd) && planRaw !== 'enterprise')
    throw new LoadConfigError('ANIMAL_STORE_RPM / ANIMAL_STORE_RPD apply only to ANIMAL_STORE_PLAN=enterprise');
  const limits = planLimits(planRaw, { perMinute: rpm, perDay: rpd });
  return {
    ...readLoadTuning(env),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    plan: planRaw,
    perMinute: limits.perMinute,
    perDay: limits.perDay,
    timeoutMs: positiveInt(env, 'ANIMAL_STORE_TIMEOUT_MS', 10000),
    reportsDir: (get(env, 'ANIMAL_STORE_REPORTS_DIR') || 'reports').replace(/\/+$/, ''),
  };
}

export interface ScenarioInputs {
  plan: PlanName;
  perMinute?: number;
  perDay?: number;
  windowMs?: number;
  dayMs?: number;
}

/**
 * Scenario options from the plan and the windows. `perMinute` is the limit per
 * window (the window may be scaled down for tests; the limit keeps its number).
 */
export function scenarioOptions(i: ScenarioInputs, overrides: Partial<ScenarioOptions> = {}): ScenarioOptions {
  const limits = planLimits(i.plan, { perMinute: i.perMinute, perDay: i.perDay });
  const limit = overrides.limit !== undefined ? overrides.limit : limits.perMinute;
  if (!limit)
    throw new LoadConfigError(`plan ${i.plan} has no per-minute limit: set ANIMAL_STORE_RPM (and ANIMAL_STORE_RPD) for an enterprise plan`);
  const windowMs = i.windowMs || MINUTE_MS;
  const base: ScenarioOptions = {
    plan: i.plan,
    limit,
    perDay: limits.perDay,
    windowMs,
    dayMs: i.dayMs || DAY_MS,
    toleranceMs: 2000,
    jitterMs: Math.max(50, Math.min(1000, Math.round(windowMs * 0.05))),
    sustainedFraction: 0.9,
    overloadFactor: 3,
    sustainedWindows: 2,
    overloadWindows: 2,
    backoff: { baseMs: 1000, capMs: windowMs, attempts: 6 },
    maxWaitMs: windowMs + 10000,
    maxInFlight: 64,
    random: Math.random,
  };
  const o: ScenarioOptions = { ...base, ...overrides };
  if (!(o.overloadFactor > 2))
    throw new LoadConfigError('the overload factor must be above 2 (a fixed window may legitimately let through up to twice the limit)');
  if (!(o.sustainedFraction > 0 && o.sustainedFraction < 1)) throw new LoadConfigError('the sustained fraction must be between 0 and 1');
  if (o.sustainedWindows < 1 || o.overloadWindows < 1) throw new LoadConfigError('paced scenarios last at least one full window');
  return o;
}
