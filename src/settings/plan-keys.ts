/**
 * Which keys a run uses, and for which plans: one key (ANIMAL_STORE_API_KEY and
 * its --plan), or a key per plan (ANIMAL_STORE_API_KEY_FREE, _PRO, _BUSINESS,
 * _ENTERPRISE; --plans picks among them) for certifying several plans in one
 * run. Keys come from the environment only, never from a flag; the plan is never
 * guessed for a real target; enterprise limits come from --rpm / --rpd. Pure.
 */
import { envNetworkSecrets, networkSecrets, type NetworkConfig } from './network.ts';
import { isPlanName, PLAN_NAMES, PLAN_NAMES_TEXT, planLimits, type PlanLimits, type PlanName } from '../core/plans.ts';

/** Where the embedded server's demo keys come from, in words that read after "key from". */
export const EMBEDDED_KEY_SOURCE = 'the embedded server';

export interface PlanKey {
  plan: PlanName;
  /** Undefined on the embedded server (its demo key is filled in by the target). */
  key?: string;
  /** Where the key came from: a variable's name — never the key. */
  keySource: string;
  limits: PlanLimits;
}

export interface Keys {
  apiKey?: string;
  plan?: PlanName;
  limits?: PlanLimits;
  /** Several plans in one run, when asked for (--plans) or when keys per plan are set. */
  plans?: PlanKey[];
  /** Which key the conformance run uses (a variable's name), when several are given. */
  conformanceKeySource?: string;
}

export const keyVariable = (plan: PlanName): string => `ANIMAL_STORE_API_KEY_${plan.toUpperCase()}`;

type Fail = (message: string) => never;

function clean(v: string | undefined, name: string, fail: Fail): string | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  if (/[\s\u0000-\u001f\u007f]/.test(v.trim())) fail(`${name} contains whitespace or control characters`);
  return v.trim();
}

/** What the keys are resolved with: the base URL (none: the embedded server), --plan, --plans, enterprise limits. */
export interface KeyOptions {
  base?: string;
  planRaw?: string;
  plansRaw?: string;
  rpm?: number;
  rpd?: number;
  embeddedPlan: PlanName;
  lenient: boolean;
  /** A dry run sends nothing: it needs no key. */
  dryRun?: boolean;
  /** Where a setting's value came from (`--plan` or ANIMAL_STORE_PLAN), for the messages that name it. */
  from?: (flag: string) => string;
}

const fromOf = (o: KeyOptions) => o.from ?? ((flag: string) => `--${flag}`);

export function resolveKeys(env: Record<string, string | undefined>, o: KeyOptions, fail: Fail): Keys {
  const single = clean(env.ANIMAL_STORE_API_KEY, 'ANIMAL_STORE_API_KEY', fail);
  const perPlan: Partial<Record<PlanName, string>> = {};
  for (const p of PLAN_NAMES) {
    const k = clean(env[keyVariable(p)], keyVariable(p), fail);
    if (k) perPlan[p] = k;
  }
  const custom = { perMinute: o.rpm, perDay: o.rpd };
  const plans = o.plansRaw !== undefined || Object.keys(perPlan).length ? plansOf(perPlan, o, fail) : undefined;
  let plan = (o.planRaw ? o.planRaw.toLowerCase() : undefined) as PlanName | undefined;
  if (plan !== undefined && !isPlanName(plan)) fail(`${fromOf(o)('plan')} must be ${PLAN_NAMES_TEXT}, got ${JSON.stringify(plan)}`);
  let apiKey = single;
  let conformanceKeySource: string | undefined = single ? 'ANIMAL_STORE_API_KEY' : undefined;
  if (!single && plans) {
    const first = conformanceKey(plans, plan, o, fail);
    apiKey = first.key;
    plan = plan ?? first.plan;
    conformanceKeySource = first.keySource;
  }
  if (!plan && !o.base) plan = o.embeddedPlan;
  if (o.base && !apiKey && !o.lenient && !o.dryRun)
    fail(
      'ANIMAL_STORE_API_KEY is required when a base URL is set (or a key per plan, ANIMAL_STORE_API_KEY_<PLAN>; only the embedded reference server has demo keys)',
    );
  const enterprise = plan === 'enterprise' || (plans ?? []).some((p) => p.plan === 'enterprise');
  if ((o.rpm || o.rpd) && !enterprise && !o.lenient) {
    const given = [o.rpm ? fromOf(o)('rpm') : '', o.rpd ? fromOf(o)('rpd') : ''].filter(Boolean);
    fail(`${given.join(' and ')} ${given.length > 1 ? 'apply' : 'applies'} only to the enterprise plan`);
  }
  return {
    ...(apiKey ? { apiKey } : {}),
    ...(plan ? { plan, limits: planLimits(plan, custom) } : {}),
    ...(plans ? { plans } : {}),
    ...(conformanceKeySource ? { conformanceKeySource } : {}),
  };
}

/** The plans certified side by side: those --plans names, else every plan with a key; each its own key. */
function plansOf(perPlan: Partial<Record<PlanName, string>>, o: KeyOptions, fail: Fail): PlanKey[] {
  const names = o.plansRaw !== undefined ? o.plansRaw.split(',').map((x) => x.trim().toLowerCase()) : PLAN_NAMES.filter((p) => perPlan[p]);
  const bad = names.filter((n) => !isPlanName(n));
  if (bad.length || !names.length) fail(`${fromOf(o)('plans')} must list ${PLAN_NAMES_TEXT}, got ${JSON.stringify(o.plansRaw)}`);
  const plans = (names as PlanName[])
    .filter((p, i) => names.indexOf(p) === i)
    .map((plan) => {
      const key = perPlan[plan];
      if (!key && o.base && !o.lenient && !o.dryRun)
        fail(`${keyVariable(plan)} is not set: every plan certified in one run needs its own key (from the environment, never a flag)`);
      return {
        plan,
        ...(key ? { key } : {}),
        keySource: key ? keyVariable(plan) : EMBEDDED_KEY_SOURCE,
        limits: planLimits(plan, { perMinute: o.rpm, perDay: o.rpd }),
      };
    });
  // Each plan's key is judged as used by nothing else: one key given for two plans would be counted twice.
  const twice = plans.find((p, i) => p.key && plans.some((q, j) => j < i && q.key === p.key));
  if (twice) fail(`${twice.keySource} is the same key as another plan's: every plan certified in one run needs its own key`);
  return plans;
}

/**
 * With keys per plan and no single key, conformance runs on the given plan's key, else on the key whose plan
 * allows the most requests a minute (its pacing is the shortest).
 */
function conformanceKey(plans: readonly PlanKey[], plan: PlanName | undefined, o: KeyOptions, fail: Fail): PlanKey {
  const usable = plans.filter((p) => p.key || !o.base);
  const fastest = [...usable].sort((a, b) => (b.limits.perMinute ?? 0) - (a.limits.perMinute ?? 0))[0];
  // A dry run of a real target may have no key at all.
  const first = usable.find((p) => p.plan === plan) || fastest || plans[0];
  if (plan && first.plan !== plan && !o.lenient && !o.dryRun)
    fail(`the plan ${plan} (${fromOf(o)('plan')}) is not one of this run's plans with a key: ${usable.map((p) => p.plan).join(', ')}`);
  return first;
}

/**
 * Every secret a configuration holds — the single key, each plan's, the proxies' credentials and the client key's
 * passphrase: what must be redacted everywhere.
 */
export function keysOf(c: { apiKey?: string; plans?: readonly PlanKey[]; network?: NetworkConfig }): string[] {
  return [c.apiKey, ...(c.plans ?? []).map((p) => p.key), ...networkSecrets(c.network)].filter((k): k is string => !!k);
}

/** Every key set in an environment (ANIMAL_STORE_API_KEY and ANIMAL_STORE_API_KEY_<PLAN>), for messages before a configuration exists. */
export function envKeys(env: Record<string, string | undefined>): string[] {
  const keys = ['ANIMAL_STORE_API_KEY', ...PLAN_NAMES.map(keyVariable)].map((n) => env[n]);
  return [...keys, ...envNetworkSecrets(env)].filter((k): k is string => !!k && !!k.trim());
}
