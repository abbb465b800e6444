/**
 * The requirements a run did not exercise, as every writer lists them: each requirement counted as "not exercised"
 * (`counts.skip`) once, so that a writer's count and its list always agree. The MUSTs the verdict needs come first
 * (`decisive`: the run's `notExercised`), then the requirements of the run's scope at another level (SHOULD, INFO,
 * ADVISORY), then those outside it (the rate-limit requirements of a conformance-only run). In a run over several
 * plans, each names the plans that left it out and, when they differ, each plan's reason.
 */
import { inScope } from '../aggregate.ts';
import type { Level, PlanResult, RequirementResult, RunReport } from '../types.ts';
import { notExercisedText, plansOf } from './common.ts';
import { planEntry } from './plan-view.ts';

export interface Gap {
  id: string;
  title: string;
  level: Level;
  reason: string;
  remedy?: string;
  /** The plans that left it out (empty in a single-plan run). */
  plans: string[];
  /** A MUST of the run's scope: the run cannot certify while it is not exercised. */
  decisive: boolean;
}

/** 0: a MUST the verdict needs; 1: another level, in the run's scope; 2: outside the run's scope. */
function rankOf(kind: RunReport['kind'], r: RequirementResult): number {
  if (inScope(kind, r)) return 0;
  return inScope(kind, { id: r.id, level: 'MUST' }) ? 1 : 2;
}

/** Why the plans left it out: their reason when they share it, else each plan's. */
function acrossPlans(r: RequirementResult, plans: readonly PlanResult[]): Pick<Gap, 'reason' | 'remedy' | 'plans'> | undefined {
  const left = plans.filter((p) => planEntry(p, r.id)?.status === 'skip');
  if (!left.length) return undefined;
  const why = left.map((p) => {
    const e = planEntry(p, r.id)!;
    const remedy = e.remedy ?? p.notExercised.find((n) => n.id === r.id)?.remedy;
    return { plan: p.plan, reason: e.reason ?? 'not exercised on this plan', ...(remedy ? { remedy } : {}) };
  });
  const names = left.map((p) => p.plan);
  if (why.every((w) => w.reason === why[0].reason && w.remedy === why[0].remedy))
    return { reason: why[0].reason, ...(why[0].remedy ? { remedy: why[0].remedy } : {}), plans: names };
  return { reason: why.map((w) => `on ${w.plan}: ${notExercisedText(w)}`).join('; '), plans: names };
}

/** Every requirement the run counts as not exercised, once each, the MUSTs the verdict needs first. */
export function notExercisedList(report: RunReport): Gap[] {
  const plans = plansOf(report);
  return report.requirements
    .map((r, i) => ({ r, i, rank: rankOf(report.kind, r) }))
    .filter(({ r }) => r.status === 'skip')
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ r, rank }): Gap => {
      const own = { reason: r.notExercised?.reason ?? 'not exercised by this run', remedy: r.notExercised?.remedy, plans: [] as string[] };
      const why = (plans && acrossPlans(r, plans)) || own;
      return {
        id: r.id,
        title: r.title,
        level: r.level,
        reason: why.reason,
        ...(why.remedy ? { remedy: why.remedy } : {}),
        plans: why.plans,
        decisive: rank === 0,
      };
    });
}

/** The MUSTs the verdict needs that the run left out (the run's `notExercised`, with their plans). */
export const decisiveGaps = (report: RunReport): Gap[] => notExercisedList(report).filter((g) => g.decisive);
