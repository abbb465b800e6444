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

export const DEFAULT_ENTERPRISE = { perMinute: 5000, perDay: 1_000_000 } as const;

export interface KeyInfo {
  key: string;
  plan: PlanName;
  perMinute: number;
  perDay: number;
}

/** The key table: API key → its plan and limits (a plan's per-day quota replaced where `dayQuotas` names one). */
export function keyTable(
  enterprise: { perMinute: number; perDay: number } = DEFAULT_ENTERPRISE,
  dayQuotas: Partial<Record<PlanName, number>> = {},
): Map<string, KeyInfo> {
  const limits: Record<PlanName, { perMinute: number; perDay: number }> = { ...SPEC_PLANS, enterprise };
  return new Map(
    (Object.keys(DEMO_KEYS) as PlanName[]).map((plan) => [
      DEMO_KEYS[plan],
      { key: DEMO_KEYS[plan], plan, ...limits[plan], perDay: dayQuotas[plan] ?? limits[plan].perDay },
    ]),
  );
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
