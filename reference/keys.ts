/**
 * The demo API keys of the reference server: one per plan. The enterprise plan's
 * limits are "custom" in the spec, so they are configurable here.
 */
import { SPEC_PLANS, type PlanName } from './plan-limits.ts';
import type { Has } from './faults.ts';

export const DEMO_KEYS: Readonly<Record<PlanName, string>> = {
  free: 'as_demo_free_5f1c9e27a8b34d60',
  pro: 'as_demo_pro_8b2d4a61c97e3f05',
  business: 'as_demo_business_3e7a0c58d21f94b6',
  enterprise: 'as_demo_enterprise_c4f86b1e09d2a753',
};

/**
 * A second demo key per plan, used by the suite only for the daily scenario of a run on the embedded server: a key of
 * its own, so that no earlier request of the run counts against its quota, which can then be a short one (its own
 * `dailyKeyQuotas`; src/target/world.ts sizes it). Its prefix differs from the demo keys' (fault auth-prefix-match).
 */
export const DAILY_KEYS: Readonly<Record<PlanName, string>> = {
  free: 'as_daily_free_2b7e91c4d05a6f38',
  pro: 'as_daily_pro_6d03f8a2b1c94e57',
  business: 'as_daily_business_9a4c27e0f56b1d83',
  enterprise: 'as_daily_enterprise_e18b5d9c3a7f0624',
};

export const DEFAULT_ENTERPRISE = { perMinute: 5000, perDay: 1_000_000 } as const;

export interface KeyInfo {
  key: string;
  plan: PlanName;
  perMinute: number;
  perDay: number;
}

/**
 * The key table: API key → its plan and limits (a plan's per-day quota replaced where `dayQuotas` names one), the
 * daily keys too (their quota where `dailyKeyQuotas` names one, else the demo key's).
 */
export function keyTable(
  enterprise: { perMinute: number; perDay: number } = DEFAULT_ENTERPRISE,
  dayQuotas: Partial<Record<PlanName, number>> = {},
  dailyKeyQuotas: Partial<Record<PlanName, number>> = {},
): Map<string, KeyInfo> {
  const limits: Record<PlanName, { perMinute: number; perDay: number }> = { ...SPEC_PLANS, enterprise };
  const plans = Object.keys(DEMO_KEYS) as PlanName[];
  const info = (key: string, plan: PlanName, perDay: number | undefined): [string, KeyInfo] => [
    key,
    { key, plan, ...limits[plan], perDay: perDay ?? dayQuotas[plan] ?? limits[plan].perDay },
  ];
  return new Map([
    ...plans.map((plan) => info(DEMO_KEYS[plan], plan, undefined)),
    ...plans.map((plan) => info(DAILY_KEYS[plan], plan, dailyKeyQuotas[plan])),
  ]);
}

/**
 * The key a Bearer token names, if any: an exact match. Fault auth-prefix-match:
 * a token that starts with a key, or shares its first 16 characters, names it.
 */
export function findKey(keys: Map<string, KeyInfo>, token: string, has: Has): KeyInfo | undefined {
  const exact = keys.get(token);
  if (exact || !has('auth-prefix-match')) return exact;
  for (const info of keys.values())
    if (token.startsWith(info.key) || (token.length >= 16 && token.slice(0, 16) === info.key.slice(0, 16))) return info;
  return undefined;
}
