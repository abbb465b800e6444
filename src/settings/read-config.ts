/**
 * The one configuration reader: flags (parsed from a command line by
 * src/config/args.ts, none in k6) over an environment map (process.env after
 * .env, or k6's __ENV) → one `Config`, by the settings table. Flags win over the
 * environment; ANIMAL_STORE_BASE_URL always wins over the per-environment URLs.
 * A bad value throws ConfigError, which every entry point prints as one line
 * (exit 2). Pure (bundled for k6).
 */
import { MINUTE_MS, PLAN_CHOICES, type PlanLimits, type PlanName } from '../core/plans.ts';
import { FULL_SCENARIOS, isScenarioName, SCENARIO_NAMES, type ScenarioName } from '../core/scenarios.ts';
import { resolveKeys, type Keys, type PlanKey } from './plan-keys.ts';
import { findSetting, type Command, type Setting } from './settings.ts';
import type { NetworkConfig } from './network.ts';
import { readNetwork, servedTls } from './read-network.ts';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type EnvMap = Record<string, string | undefined>;
export type Flags = Record<string, string | boolean>;
export type EnvName = 'local' | 'staging' | 'production';

/** The plan of the embedded reference server's key unless one is given: Pro (300 a window) keeps a local run light. */
export const EMBEDDED_PLAN = 'pro';
const PRODUCTION_DEFAULT_MAX_REQUESTS = 1000;
/** The embedded reference server is the suite's own: a budget that lets every per-minute scenario through on its business key. */
const EMBEDDED_DEFAULT_MAX_REQUESTS = 50000;

/** The exploration phase's budget on the embedded reference server. */
export const EMBEDDED_EXPLORE_BUDGET = 400;
/**
 * The exploration budgets of a real target: enough for every coverage case of its environment in every run (every
 * class of every dimension; about 210 with writes, 80 GET only), the rest for generated inputs and sequences.
 */
export const BASE_URL_EXPLORE_BUDGET = 400;
export const PRODUCTION_EXPLORE_BUDGET = 120;
const MAX_SEED = 4294967295;

/** The seed given, or a new one (k6 and Node both have Math.random). */
function seedOf(r: Reader): number {
  const v = r.get('seed');
  if (v === undefined) return Math.floor(Math.random() * MAX_SEED);
  if (Number(v) > MAX_SEED) throw new ConfigError(`${r.from('seed')} must be at most ${MAX_SEED}, got ${v}`);
  return Number(v);
}

export interface LoadSettings {
  /** Scenarios named (undefined: the command's default). */
  scenarios?: ScenarioName[];
  engine: 'auto' | 'k6' | 'node';
  /** The server's rate-limit window, when given. */
  windowMs?: number;
  dayMs?: number;
  allowDaily: boolean;
  maxVus: number;
  distributed: boolean;
}

export interface Config {
  command: Command;
  env: EnvName;
  /** Undefined: the embedded reference server is started. */
  baseUrl?: string;
  /** The network between the suite and the target (proxy, CA, client certificate, HTTP/2), for every phase and both engines. */
  network: NetworkConfig;
  apiKey?: string;
  /** The plan of the key; undefined when none was given for a real target (never guessed). */
  plan?: PlanName;
  /** Its limits (enterprise: perMinute/perDay from --rpm/--rpd, possibly undefined). */
  limits?: PlanLimits;
  /** Several plans certified in one run: each plan, its key and its limits (keys per plan, or --plans). */
  plans?: PlanKey[];
  /** Which key the conformance run uses, when several are given (a variable's name, never the key). */
  conformanceKeySource?: string;
  allowWrites: boolean;
  /** Was allow-writes given explicitly (flag or variable)? */
  writesGiven: boolean;
  timeoutMs: number;
  maxBodyBytes: number;
  deadlineMs: number;
  maxRequests: number;
  /** Was the request budget given (flag or variable), or is it the default? */
  maxRequestsGiven: boolean;
  maxWaitMs: number;
  /** Was the longest wait given? If not, a run on the embedded server may wait for its whole short day (src/target). */
  maxWaitGiven: boolean;
  reportsDir: string;
  namePrefix: string;
  load: LoadSettings;
  /** The exploration phase: its request budget (0: off) and seed (given, or a new one per run). */
  explore: { budget: number; seed: number };
  certify: {
    profile: 'quick' | 'full';
    only?: 'conformance' | 'load';
    requireComplete: boolean;
    waivers?: string;
    allowMustWaivers: boolean;
    baseline?: string;
    dryRun: boolean;
  };
  output: { verbose: boolean; progress: boolean };
  /** npm run reference: where it listens, its fault modes and variants, and its enterprise key's --rpm / --rpd. */
  reference: { host: string; port: number; faults?: string; variants?: string; rpm?: number; rpd?: number; tls?: 'https' | 'mutual' };
  help: boolean;
  /** --version: print the suite's package name and version, then exit. */
  version: boolean;
}

function raw(s: Setting, env: EnvMap, flags: Flags): string | undefined {
  const f = flags[s.flag];
  if (f !== undefined) return typeof f === 'boolean' ? String(f) : f;
  if (!s.env) return undefined;
  // The variable, else its other spellings in order (HTTPS_PROXY, then https_proxy: the order Go reads them in).
  for (const name of [s.env].concat(s.envAliases || [])) {
    const v = env[name];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/**
 * Where a setting's value came from, as the user gave it: its flag when given as one (flags win), else its
 * variable (the environment or .env). What every message about the value names.
 */
function source(s: Setting, flags: Flags): string {
  return flags[s.flag] !== undefined || !s.env ? `--${s.flag}` : s.env;
}

function check(s: Setting, v: string, name: string): string {
  if (s.kind === 'int' && (!/^\d{1,15}$/.test(v) || Number(v) <= 0))
    throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(v)}`);
  if (s.kind === 'count' && !/^\d{1,15}$/.test(v))
    throw new ConfigError(`${name} must be 0 or a positive integer, got ${JSON.stringify(v)}`);
  if (s.kind === 'enum' && (s.values || []).indexOf(v.toLowerCase()) < 0)
    throw new ConfigError(`${name} must be ${(s.values || []).join(', ')}, got ${JSON.stringify(v)}`);
  if (s.kind === 'bool' && ['true', 'false', 'yes', 'no', '1', '0', 'on', 'off'].indexOf(v.toLowerCase()) < 0)
    throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(v)}`);
  if (s.kind === 'url') return baseUrl(name, v);
  return v;
}

/** An http(s) base URL without credentials, query or fragment (no URL class: k6 v0.49 has none). */
export function baseUrl(label: string, v: string): string {
  const m = /^(https?):\/\/([^\s/?#@]+)(\/[^\s?#]*)?$/i.exec(v);
  if (!m) {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(v)) throw new ConfigError(`${label} must not carry credentials; use ANIMAL_STORE_API_KEY`);
    if (/[?#]/.test(v)) throw new ConfigError(`${label} must not have a query or fragment`);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) && !/^https?:/i.test(v))
      throw new ConfigError(`${label} must be an http or https URL, got ${JSON.stringify(v)}`);
    throw new ConfigError(`${label} is not a valid URL: ${JSON.stringify(v)}`);
  }
  return `${m[1].toLowerCase()}://${m[2]}${(m[3] || '').replace(/\/+$/, '')}`;
}

/** One setting's value, checked (undefined when neither a flag nor the environment gives it), and the typed readings of it. */
interface Reader {
  get: (flag: string) => string | undefined;
  /** Where the setting's value came from: `--flag` or its variable. */
  from: (flag: string) => string;
  /** The setting with the value given, as given: `--env staging` or `ANIMAL_STORE_ENV=staging`. */
  given: (flag: string, value: string) => string;
  int: (flag: string, fallback: number) => number;
  bool: (flag: string) => boolean | undefined;
}

function reader(env: EnvMap, flags: Flags): Reader {
  const from = (flag: string): string => source(findSetting(flag) as Setting, flags);
  const get = (flag: string): string | undefined => {
    const s = findSetting(flag) as Setting;
    const v = raw(s, env, flags);
    return v === undefined ? undefined : check(s, v, source(s, flags));
  };
  return {
    get,
    from,
    given: (flag, value) => (from(flag).startsWith('--') ? `${from(flag)} ${value}` : `${from(flag)}=${value}`),
    int: (flag, fallback) => {
      const v = get(flag);
      return v === undefined ? fallback : Number(v);
    },
    bool: (flag) => {
      const v = get(flag);
      return v === undefined ? undefined : ['true', 'yes', '1', 'on'].indexOf(v.toLowerCase()) >= 0;
    },
  };
}

/** The environment and its base URL: --base-url always wins; staging and production need theirs. */
function targetOf(r: Reader): { env: EnvName; base?: string } {
  const env = (r.get('env') || 'local').toLowerCase() as EnvName;
  let base = r.get('base-url');
  if (!base && (env === 'staging' || env === 'production')) {
    base = r.get(`${env}-url`);
    if (!base) throw new ConfigError(`${r.given('env', env)} needs ${either(`${env}-url`)} (or ${either('base-url')})`);
  }
  return { env, base };
}

/** Both ways to give a setting, for a message about a missing one: `--staging-url or ANIMAL_STORE_STAGING_URL`. */
function either(flag: string): string {
  const s = findSetting(flag) as Setting;
  return s.env ? `--${s.flag} or ${s.env}` : `--${s.flag}`;
}

/** The rate-limit scenarios named (`all`: every per-minute one), or undefined for the command's default. */
function scenariosOf(raw: string | undefined): ScenarioName[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const all = list.length === 1 && list[0] === 'all';
  const bad = list.filter((x) => !isScenarioName(x) && !all);
  if (!list.length || bad.length)
    throw new ConfigError(`unknown rate-limit scenario(s) ${bad.join(', ') || '(none)'}; known: ${SCENARIO_NAMES.join(', ')} (or all)`);
  return all ? [...FULL_SCENARIOS] : (list as ScenarioName[]);
}

/** The server's rate-limit window and quota day, when given: a window of at least 500 ms, a day not shorter than it. */
function periodsOf(r: Reader, base: string | undefined): { windowMs?: number; dayMs?: number } {
  const windowMs = r.get('window-ms') ? Number(r.get('window-ms')) : undefined;
  if (windowMs !== undefined && windowMs < 500) throw new ConfigError(`${r.from('window-ms')} must be at least 500, got ${windowMs}`);
  const dayMs = r.get('day-ms') ? Number(r.get('day-ms')) : undefined;
  // The embedded server's window is its short world's (src/target/world.ts): a second or more.
  if (dayMs !== undefined && dayMs < (windowMs || (base ? MINUTE_MS : 1000)))
    throw new ConfigError(`${r.from('day-ms')} must not be shorter than the window`);
  return { windowMs, dayMs };
}

/** The key, plan and limits of the run (one key, or a key per plan), never guessed for a real target. */
function keysFrom(r: Reader, env: EnvMap, o: { base?: string; rpm?: string; rpd?: string; command: Command }): Keys {
  return resolveKeys(
    env,
    {
      base: o.base,
      planRaw: r.get('plan'),
      plansRaw: r.get('plans'),
      rpm: o.rpm ? Number(o.rpm) : undefined,
      rpd: o.rpd ? Number(o.rpd) : undefined,
      embeddedPlan: EMBEDDED_PLAN,
      lenient: o.command === 'reference',
      dryRun: r.bool('dry-run') === true,
      from: r.from,
    },
    (m) => {
      throw new ConfigError(m);
    },
  );
}

/** npm run reference's settings, and how the embedded server serves (--tls, --mutual-tls). */
function referenceOf(r: Reader, o: { rpm?: string; rpd?: string; base?: string }): Config['reference'] {
  const tls = servedTls(r, { base: o.base, fail: configError });
  return {
    host: r.get('host') || '127.0.0.1',
    port: r.int('port', 4010),
    faults: r.get('faults'),
    variants: r.get('variants'),
    ...(o.rpm ? { rpm: Number(o.rpm) } : {}),
    ...(o.rpd ? { rpd: Number(o.rpd) } : {}),
    ...(tls ? { tls } : {}),
  };
}

/** Throw a ConfigError: how the parts of the reader that cannot import it (they are imported by it) fail. */
function configError(message: string): never {
  throw new ConfigError(message);
}

/** Flags over an environment map → the one Config of a command. Throws ConfigError on a bad value. */
export function readConfig(env: EnvMap, flags: Flags, command: Command): Config {
  const r = reader(env, flags);
  const { get, bool } = r;
  const target = targetOf(r);
  const { base } = target;
  const rpm = get('rpm');
  const rpd = get('rpd');
  const keys = keysFrom(r, env, { base, rpm, rpd, command });
  const writes = bool('allow-writes');
  const scenarios = scenariosOf(get('scenarios'));
  const { windowMs, dayMs } = periodsOf(r, base);
  return {
    command,
    env: target.env,
    baseUrl: base,
    network: readNetwork(r, { env, base, envName: target.env, fail: configError }),
    apiKey: keys.apiKey,
    plan: keys.plan,
    limits: keys.limits,
    ...(keys.plans ? { plans: keys.plans } : {}),
    ...(keys.conformanceKeySource ? { conformanceKeySource: keys.conformanceKeySource } : {}),
    allowWrites: writes !== undefined ? writes : target.env !== 'production',
    writesGiven: writes !== undefined,
    ...safetyOf(r, target),
    reportsDir: (get('reports-dir') || 'reports').replace(/\/+$/, '') || '.',
    namePrefix: get('name-prefix') || 'animal-store-conformance-',
    explore: exploreOf(r, target),
    load: loadOf(r, { base, scenarios, windowMs, dayMs }),
    certify: certifyOf(r),
    output: { verbose: bool('verbose') === true, progress: bool('no-progress') !== true },
    reference: referenceOf(r, { rpm, rpd, base }),
    help: bool('help') === true,
    version: bool('version') === true,
  };
}

// The sections of the Config, read in the order their settings are checked (the first bad value is the one reported).

/** The exploration phase: its budget (smaller against production and any URL than on the embedded server) and seed. */
function exploreOf(r: Reader, target: { env: EnvName; base?: string }): Config['explore'] {
  const budget = target.env === 'production' ? PRODUCTION_EXPLORE_BUDGET : target.base ? BASE_URL_EXPLORE_BUDGET : EMBEDDED_EXPLORE_BUDGET;
  return { budget: r.int('explore-budget', budget), seed: seedOf(r) };
}

/** The rate-limit scenarios: those named, the engine, the server's window and day (read before), the limits of a run. */
function loadOf(
  r: Reader,
  { base, scenarios, windowMs, dayMs }: Pick<LoadSettings, 'scenarios' | 'windowMs' | 'dayMs'> & { base?: string },
): LoadSettings {
  return {
    scenarios,
    engine: (r.get('engine') || 'auto') as LoadSettings['engine'],
    windowMs,
    dayMs,
    // The embedded server's key and quota day are the suite's own: its daily scenario spends nobody's quota.
    allowDaily: r.bool('allow-daily') ?? !base,
    maxVus: r.int('max-vus', 1),
    distributed: r.bool('distributed') === true,
  };
}

/** How `npm start` certifies: profile, scope, completeness, waivers, baseline, dry run. */
function certifyOf(r: Reader): Config['certify'] {
  return {
    profile: (r.get('profile') || 'quick') as 'quick' | 'full',
    only: r.get('only') as 'conformance' | 'load' | undefined,
    requireComplete: r.bool('require-complete') === true,
    waivers: r.get('waivers'),
    allowMustWaivers: r.bool('allow-must-waivers') === true,
    baseline: r.get('baseline'),
    dryRun: r.bool('dry-run') === true,
  };
}

/**
 * The run's bounds: timeout, body cap, deadline, request budget (production's small one by default, the embedded
 * server's large one) and the longest wait (on the embedded server, src/target raises it to cover its short day
 * for the daily scenario unless it was given).
 */
function safetyOf(
  r: Reader,
  target: { env: EnvName; base?: string },
): Pick<Config, 'timeoutMs' | 'maxBodyBytes' | 'deadlineMs' | 'maxRequests' | 'maxRequestsGiven' | 'maxWaitMs' | 'maxWaitGiven'> {
  const { base } = target;
  const defaultBudget = target.env === 'production' ? PRODUCTION_DEFAULT_MAX_REQUESTS : base ? 5000 : EMBEDDED_DEFAULT_MAX_REQUESTS;
  return {
    timeoutMs: r.int('timeout-ms', 10000),
    maxBodyBytes: r.int('max-body-bytes', 1048576),
    deadlineMs: r.int('deadline-ms', 15 * MINUTE_MS),
    maxRequests: r.int('max-requests', defaultBudget),
    maxRequestsGiven: r.get('max-requests') !== undefined,
    maxWaitMs: r.int('max-wait-ms', 70000),
    maxWaitGiven: r.get('max-wait-ms') !== undefined,
  };
}

/** The limits a rate-limit scenario needs, or a ConfigError naming the flag that gives them. */
export function requireLimits(c: Config): { plan: PlanName; perMinute: number; perDay?: number } {
  if (!c.plan || !c.limits)
    throw new ConfigError(`the rate-limit scenarios need the plan of the key: --plan ${PLAN_CHOICES} (or ANIMAL_STORE_PLAN)`);
  // Enterprise limits are custom: never assumed, whether enterprise is the key's plan or one of several plans.
  if (c.limits.perMinute === undefined || (c.plans ?? []).some((p) => p.limits.perMinute === undefined))
    throw new ConfigError('the enterprise plan needs its limit: --rpm N (or ANIMAL_STORE_RPM), and --rpd N for the daily quota');
  return { plan: c.plan, perMinute: c.limits.perMinute, perDay: c.limits.perDay };
}
