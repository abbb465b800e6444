/**
 * Configuration: environment variables (after loading `.env` with dotenv) and
 * command-line flags that mirror them. Flags win over the environment;
 * ANIMAL_STORE_BASE_URL always wins over the per-environment URLs.
 *
 * A bad configuration throws ConfigError, which the CLIs print as one line and
 * exit 2 — never a stack trace.
 */
import { config as loadDotenv } from 'dotenv';
import { isPlanName, planLimits, type PlanLimits, type PlanName } from '../core/plans.ts';

/** Window of the embedded reference server (certification and npm run load without a base URL): short, so a local run takes seconds. */
export const EMBEDDED_WINDOW_MS = 5000;
export type EnvName = 'local' | 'staging' | 'production';

export interface Config {
  env: EnvName;
  /** Undefined when the embedded reference server is to be started. */
  baseUrl?: string;
  apiKey?: string;
  plan: PlanName;
  limits: PlanLimits;
  allowWrites: boolean;
  timeoutMs: number;
  /** Cap on bytes read from any response body. */
  maxBodyBytes: number;
  /** Overall deadline of a conformance run. */
  deadlineMs: number;
  /** Hard cap on requests sent by the whole run (production safety). */
  maxRequests: number;
  /** Longest wait for a rate-limit window the pacer accepts. */
  maxWaitMs: number;
  reportsDir: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Flags = Record<string, string | boolean | undefined>;

/** Variables and their flag names; README and .env.example document the same list. */
export const VARIABLES = {
  ANIMAL_STORE_ENV: 'env',
  ANIMAL_STORE_BASE_URL: 'base-url',
  ANIMAL_STORE_STAGING_URL: 'staging-url',
  ANIMAL_STORE_PRODUCTION_URL: 'production-url',
  ANIMAL_STORE_API_KEY: 'api-key',
  ANIMAL_STORE_PLAN: 'plan',
  ANIMAL_STORE_RPM: 'rpm',
  ANIMAL_STORE_RPD: 'rpd',
  ANIMAL_STORE_ALLOW_WRITES: 'allow-writes',
  ANIMAL_STORE_TIMEOUT_MS: 'timeout-ms',
  ANIMAL_STORE_MAX_BODY_BYTES: 'max-body-bytes',
  ANIMAL_STORE_DEADLINE_MS: 'deadline-ms',
  ANIMAL_STORE_MAX_REQUESTS: 'max-requests',
  ANIMAL_STORE_MAX_WAIT_MS: 'max-wait-ms',
  ANIMAL_STORE_REPORTS_DIR: 'reports-dir',
} as const;

export type VariableName = keyof typeof VARIABLES;

let dotenvLoaded = false;

/** Load `.env` from the working directory once; existing variables win. */
export function loadDotenvOnce(): void {
  if (dotenvLoaded) return;
  dotenvLoaded = true;
  loadDotenv({ quiet: true } as Parameters<typeof loadDotenv>[0]);
}

function pick(name: VariableName, env: NodeJS.ProcessEnv, flags: Flags): string | undefined {
  const flag = flags[VARIABLES[name]];
  if (flag !== undefined) return typeof flag === 'boolean' ? String(flag) : flag;
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function positiveInt(name: VariableName, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw)))
    throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function bool(name: VariableName, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function url(name: VariableName, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL, got ${u.protocol}`);
  if (u.username || u.password) throw new ConfigError(`${name} must not carry credentials; use ANIMAL_STORE_API_KEY`);
  if (u.search || u.hash) throw new ConfigError(`${name} must not have a query or fragment`);
  return u.toString().replace(/\/+$/, '');
}

/** Free plan's daily quota: the default request budget of a production run. */
const PRODUCTION_DEFAULT_MAX_REQUESTS = 1000;

export function loadConfig(flags: Flags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const envRaw = (pick('ANIMAL_STORE_ENV', env, flags) ?? 'local').toLowerCase();
  if (envRaw !== 'local' && envRaw !== 'staging' && envRaw !== 'production')
    throw new ConfigError(`ANIMAL_STORE_ENV must be local, staging or production, got ${JSON.stringify(envRaw)}`);
  const envName = envRaw as EnvName;

  const explicit = pick('ANIMAL_STORE_BASE_URL', env, flags);
  let baseUrl: string | undefined;
  if (explicit) baseUrl = url('ANIMAL_STORE_BASE_URL', explicit);
  else if (envName === 'staging') {
    const s = pick('ANIMAL_STORE_STAGING_URL', env, flags);
    if (!s) throw new ConfigError('ANIMAL_STORE_ENV=staging needs ANIMAL_STORE_STAGING_URL (or ANIMAL_STORE_BASE_URL)');
    baseUrl = url('ANIMAL_STORE_STAGING_URL', s);
  } else if (envName === 'production') {
    const p = pick('ANIMAL_STORE_PRODUCTION_URL', env, flags);
    if (!p) throw new ConfigError('ANIMAL_STORE_ENV=production needs ANIMAL_STORE_PRODUCTION_URL (or ANIMAL_STORE_BASE_URL)');
    baseUrl = url('ANIMAL_STORE_PRODUCTION_URL', p);
  }

  const apiKey = pick('ANIMAL_STORE_API_KEY', env, flags);
  if (baseUrl && !apiKey)
    throw new ConfigError('ANIMAL_STORE_API_KEY is required when a base URL is set (only the embedded reference server has demo keys)');
  if (apiKey && /[\s\u0000-\u001f\u007f]/.test(apiKey))
    throw new ConfigError('ANIMAL_STORE_API_KEY contains whitespace or control characters');

  const planRaw = (pick('ANIMAL_STORE_PLAN', env, flags) ?? (baseUrl ? 'free' : 'business')).toLowerCase();
  if (!isPlanName(planRaw))
    throw new ConfigError(`ANIMAL_STORE_PLAN must be free, pro, business or enterprise, got ${JSON.stringify(planRaw)}`);
  const rpm = positiveInt('ANIMAL_STORE_RPM', pick('ANIMAL_STORE_RPM', env, flags), undefined);
  const rpd = positiveInt('ANIMAL_STORE_RPD', pick('ANIMAL_STORE_RPD', env, flags), undefined);
  if ((rpm || rpd) && planRaw !== 'enterprise')
    throw new ConfigError('ANIMAL_STORE_RPM / ANIMAL_STORE_RPD apply only to ANIMAL_STORE_PLAN=enterprise');

  const allowWrites = bool('ANIMAL_STORE_ALLOW_WRITES', pick('ANIMAL_STORE_ALLOW_WRITES', env, flags)) ?? envName !== 'production';

  return {
    env: envName,
    baseUrl,
    apiKey,
    plan: planRaw,
    limits: planLimits(planRaw, { perMinute: rpm, perDay: rpd }),
    allowWrites,
    timeoutMs: positiveInt('ANIMAL_STORE_TIMEOUT_MS', pick('ANIMAL_STORE_TIMEOUT_MS', env, flags), 10_000)!,
    maxBodyBytes: positiveInt('ANIMAL_STORE_MAX_BODY_BYTES', pick('ANIMAL_STORE_MAX_BODY_BYTES', env, flags), 1_048_576)!,
    deadlineMs: positiveInt('ANIMAL_STORE_DEADLINE_MS', pick('ANIMAL_STORE_DEADLINE_MS', env, flags), 15 * 60_000)!,
    maxRequests: positiveInt(
      'ANIMAL_STORE_MAX_REQUESTS',
      pick('ANIMAL_STORE_MAX_REQUESTS', env, flags),
      envName === 'production' ? PRODUCTION_DEFAULT_MAX_REQUESTS : 5000,
    )!,
    maxWaitMs: positiveInt('ANIMAL_STORE_MAX_WAIT_MS', pick('ANIMAL_STORE_MAX_WAIT_MS', env, flags), 70_000)!,
    reportsDir: pick('ANIMAL_STORE_REPORTS_DIR', env, flags) ?? 'reports',
  };
}

/** The configuration as it may be shown: no key. */
export function describeTarget(c: Config, baseUrl: string, embedded: boolean) {
  return { env: c.env, baseUrl, plan: c.plan, embedded };
}

/** The environment that reproduces `c` (for Vitest workers, which read the environment). */
export function configToEnv(c: Config): Record<string, string> {
  const env: Record<string, string> = {
    ANIMAL_STORE_ENV: c.env,
    ANIMAL_STORE_PLAN: c.plan,
    ANIMAL_STORE_ALLOW_WRITES: String(c.allowWrites),
    ANIMAL_STORE_TIMEOUT_MS: String(c.timeoutMs),
    ANIMAL_STORE_MAX_BODY_BYTES: String(c.maxBodyBytes),
    ANIMAL_STORE_DEADLINE_MS: String(c.deadlineMs),
    ANIMAL_STORE_MAX_REQUESTS: String(c.maxRequests),
    ANIMAL_STORE_MAX_WAIT_MS: String(c.maxWaitMs),
    ANIMAL_STORE_REPORTS_DIR: c.reportsDir,
  };
  if (c.baseUrl) env.ANIMAL_STORE_BASE_URL = c.baseUrl;
  if (c.apiKey) env.ANIMAL_STORE_API_KEY = c.apiKey;
  if (c.limits.plan === 'enterprise' && c.limits.perMinute) env.ANIMAL_STORE_RPM = String(c.limits.perMinute);
  if (c.limits.plan === 'enterprise' && c.limits.perDay) env.ANIMAL_STORE_RPD = String(c.limits.perDay);
  return env;
}
