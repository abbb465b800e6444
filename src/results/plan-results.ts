/**
 * Several plans in one run: each plan's result from the conformance findings
 * (shared: judged once, on one key) and that plan's rate-limit findings, by the
 * same rules as a whole report; and the run's outcome across its plans —
 * certified only when every plan is.
 */
import type { LoadReport } from '../core/load-report.ts';
import { aggregate, countStatuses, loadFindings, notExercisedOf, outcomeOf } from './aggregate.ts';
import type { Finding, PlanResult } from './types.ts';

export interface PlanInput {
  plan: string;
  perMinute?: number;
  perDay?: number;
  keySource: string;
  load: LoadReport[];
  /** Findings of this plan that are not in its load reports (scenarios not run, with their reason). */
  extra?: Finding[];
}

export function planResult(conformance: readonly Finding[], p: PlanInput, stopped: boolean): PlanResult {
  const findings = [...conformance, ...p.load.flatMap(loadFindings), ...(p.extra ?? [])];
  const results = aggregate(findings);
  return {
    plan: p.plan,
    ...(p.perMinute !== undefined ? { perMinute: p.perMinute } : {}),
    ...(p.perDay !== undefined ? { perDay: p.perDay } : {}),
    keySource: p.keySource,
    outcome: outcomeOf('certification', results, stopped),
    counts: countStatuses(results),
    notExercised: notExercisedOf('certification', results),
    requirements: results.map((r) => ({
      id: r.id,
      level: r.level,
      status: r.status,
      ...(r.notExercised ? { reason: r.notExercised.reason } : {}),
      ...(r.notExercised?.remedy ? { remedy: r.notExercised.remedy } : {}),
    })),
    load: p.load,
  };
}
