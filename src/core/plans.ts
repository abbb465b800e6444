/**
 * The plans of the spec's "Rate limits by plan" table. Pure module (bundled for k6).
 */
export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

/** The two periods the plans count in: "requests per minute" and "requests per day". */
export const MINUTE_MS = 60000;
export const DAY_MS = 86400000;

export interface PlanLimits {
  plan: PlanName;
  /** Requests per minute; undefined for an enterprise plan whose limits were not configured. */
  perMinute?: number;
  perDay?: number;
}

export const PLAN_NAMES: readonly PlanName[] = ['free', 'pro', 'business', 'enterprise'];

/** The plan names as a usage line offers them: "free|pro|business|enterprise". */
export const PLAN_CHOICES = PLAN_NAMES.join('|');

/** The plan names in a sentence: "free, pro, business or enterprise". */
export const PLAN_NAMES_TEXT = `${PLAN_NAMES.slice(0, -1).join(', ')} or ${PLAN_NAMES[PLAN_NAMES.length - 1]}`;

export const PLANS: Record<Exclude<PlanName, 'enterprise'>, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 300, perDay: 10000 },
  business: { perMinute: 1000, perDay: 100000 },
};

export function isPlanName(v: string): v is PlanName {
  return (PLAN_NAMES as readonly string[]).indexOf(v) >= 0;
}

/** Limits of a plan; enterprise limits come from configuration (ANIMAL_STORE_RPM / _RPD). */
export function planLimits(plan: PlanName, custom: { perMinute?: number; perDay?: number } = {}): PlanLimits {
  if (plan === 'enterprise') return { plan, perMinute: custom.perMinute, perDay: custom.perDay };
  return { plan, ...PLANS[plan] };
}
