/**
 * The spec's "Rate limits by plan" table, as the reference server enforces it
 * (its own copy: the suite's plan table in src/core is what the suite judges by,
 * so the two must agree by the spec, not by sharing code). Enterprise limits are
 * "custom" in the spec: the server's are configurable (keys.ts).
 */
export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

export interface PlanQuota {
  perMinute: number;
  perDay: number;
}

export const PLAN_NAMES: readonly PlanName[] = ['free', 'pro', 'business', 'enterprise'];

/** Requests per minute and per day of the plans the spec fixes. */
export const SPEC_PLANS: Readonly<Record<Exclude<PlanName, 'enterprise'>, PlanQuota>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};
