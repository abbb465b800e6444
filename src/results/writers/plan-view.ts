/**
 * What the writers read from a run that certified several plans at once
 * (`RunReport.plans`, a key per plan): which requirements are judged per plan
 * (the rate-limit areas, and any requirement whose status differs between
 * plans) and which once for all (conformance, judged on `conformanceKey`); a
 * plan's view of a requirement (its status, and the findings of its own
 * scenarios); its limits in words; and the MUSTs each plan failed or left out
 * (what the run left out, plan by plan: not-exercised.ts).
 */
import { emptyCounts, loadFindings } from '../aggregate.ts';
import type { Finding, PlanResult, RequirementResult, RunReport, Status } from '../types.ts';
import { plansOf } from './common.ts';
import { loadReportOf } from './load-runs.ts';

/** What the run's counts mean for a requirement judged per plan (said under the counts of a run over several plans). */
export const ACROSS_PLANS_NOTE =
  'A rate-limit requirement counts once here, at its worst status over the plans (failed if it failed on any plan, not exercised if any plan left it out, passed only if it passed on every plan): the plans give each plan’s own status.';

/** The catalogue areas judged on each plan's own key. */
export const PER_PLAN_AREAS: readonly string[] = ['rate-limit-headers', 'rate-limit-load'];

export type PlanEntry = PlanResult['requirements'][number];

export function planEntry(p: PlanResult, id: string): PlanEntry | undefined {
  return p.requirements.find((q) => q.id === id);
}

/** True when a requirement is shown per plan: a rate-limit one, or one whose status is not the same on every plan. */
export function isPerPlan(r: Pick<RequirementResult, 'id' | 'area'>, plans: readonly PlanResult[]): boolean {
  if (PER_PLAN_AREAS.includes(r.area)) return true;
  return new Set(plans.map((p) => planEntry(p, r.id)?.status)).size > 1;
}

/** The requirements judged per plan, in catalogue order. */
export function perPlanRequirements(report: RunReport, plans: readonly PlanResult[]): RequirementResult[] {
  return report.requirements.filter((r) => isPerPlan(r, plans));
}

/** The requirements judged once for every plan (conformance), in catalogue order. */
export function sharedRequirements(report: RunReport, plans: readonly PlanResult[]): RequirementResult[] {
  return report.requirements.filter((r) => !isPerPlan(r, plans));
}

const num = (n: number) => n.toLocaleString('en-US');

/** "60/min · 1,000/day", or what is missing. */
export function limitsText(p: Pick<PlanResult, 'perMinute' | 'perDay'>): string {
  if (p.perMinute === undefined && p.perDay === undefined) return 'limits not given';
  return `${p.perMinute === undefined ? '?' : num(p.perMinute)}/min · ${p.perDay === undefined ? '?' : num(p.perDay)}/day`;
}

/** The ids of a plan's MUST requirements with this status. */
export function planMusts(p: PlanResult, status: Status): string[] {
  return p.requirements.filter((q) => q.level === 'MUST' && q.status === status).map((q) => q.id);
}

/** The plans in words: "every plan", or their names. */
export function onPlans(names: readonly string[], all: readonly PlanResult[]): string {
  return names.length === all.length ? 'every plan' : names.join(', ');
}

/**
 * A requirement as one plan saw it: the plan's status and reason, the findings
 * of that plan's scenarios (with the conformance findings, which every plan
 * shares), and what would exercise it.
 */
export function planRequirement(r: RequirementResult, p: PlanResult): RequirementResult {
  const entry = planEntry(p, r.id);
  const own = p.load.flatMap(loadFindings).filter((f) => f.requirement === r.id);
  const findings = [...own.filter((f) => f.outcome !== 'observe'), ...r.findings.filter((f) => !f.source.startsWith('load: '))];
  const counts = emptyCounts();
  for (const f of own) counts[f.outcome]++;
  const observed = [...new Set(own.filter((f) => f.outcome === 'observe').map((f) => f.message))];
  const status = entry?.status ?? 'skip';
  const remedy = entry?.remedy ?? p.notExercised.find((n) => n.id === r.id)?.remedy;
  const { waiver: _waiver, notExercised: _gap, ...rest } = r;
  return {
    ...rest,
    status,
    counts,
    findings,
    observations: observed.length || status !== 'observed' ? observed : r.observations,
    ...(status === 'skip'
      ? { notExercised: { reason: entry?.reason ?? 'not exercised on this plan', ...(remedy ? { remedy } : {}) } }
      : {}),
  };
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variable a replayed request reads its key from, in a run over several
 * plans: the key of the plan whose scenario sent it, else the conformance key
 * (undefined — the default variable — for a single-plan run, or a key that did
 * not come from a variable, such as the embedded server's demo keys).
 */
export function replayKey(report: RunReport, plan?: string): string | undefined {
  const plans = plansOf(report);
  if (!plans) return undefined;
  const source = plan === undefined ? report.conformanceKey : plans.find((p) => p.plan === plan)?.keySource;
  return source && VARIABLE.test(source) ? source : undefined;
}

/** The key variable of a finding's request: that of the plan whose scenario found it, else the conformance key. */
export const replayKeyOf = (report: RunReport, f: Pick<Finding, 'requirement' | 'message' | 'evidence'>): string | undefined =>
  plansOf(report) && replayKey(report, loadReportOf(report, f)?.plan);

/** The plans on which a requirement has this status. */
export function plansWith(plans: readonly PlanResult[], id: string, status: Status): string[] {
  return plans.filter((p) => planEntry(p, id)?.status === status).map((p) => p.plan);
}
