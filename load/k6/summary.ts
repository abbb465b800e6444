/**
 * What handleSummary can know of a run: k6 gives it metrics only (grafana/k6#4668), so
 * each requirement's outcome travels in a Gauge of a fixed name, `rl_outcome`, tagged
 * with the requirement (and the plan when several plans run in one process) — values
 * the same from run to run, so a metrics store gets no new series. Its value is the
 * outcome's rank (the worst of every VU wins, as foldJudgements folds them); a
 * threshold that always holds makes k6 list each of these series in the summary. The
 * messages, timeline and requests go to k6's log instead (load/lib/k6-log.ts).
 */
import type { Judgement, Outcome } from '../../src/core/sections/define.ts';
import { judgeScenarioRequirement, type ScenarioRequirementId } from '../../src/core/scenarios.ts';
import { METRICS_ONLY_NOTE } from '../lib/k6-log.ts';

/**
 * The system tags k6 puts on the bundles' samples (its `systemTags` option, the same set on k6 v1.0 to v2.2):
 * what the thresholds, the checks and a dashboard read. The requests carry their own `name` (GET /pets, or
 * `reachability` for setup's probe) and, with several plans, `plan`.
 */
export const SYSTEM_TAGS = ['status', 'name', 'scenario', 'check', 'error_code', 'expected_response'];

/** The outcomes by rank: 0 is "not judged"; a higher rank wins over a lower one (fail over warn over error over pass…). */
export const OUTCOME_RANK: readonly Outcome[] = ['observe', 'skip', 'pass', 'error', 'warn', 'fail'];

export const outcomeRank = (o: Outcome): number => OUTCOME_RANK.indexOf(o) + 1;

/** The submetric of a requirement's outcome, as a threshold names it. */
export function outcomeKey(requirement: string, plan?: string): string {
  return `rl_outcome{requirement:${requirement}${plan ? `,plan:${plan}` : ''}}`;
}

export type SummaryMetrics = Record<string, { values?: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;

/** Each judged requirement's outcome from the summary's metrics (one judgement per requirement, pointing at k6's log). */
export function outcomesFromMetrics(metrics: SummaryMetrics, requirements: readonly ScenarioRequirementId[], plan?: string): Judgement[] {
  const out: Judgement[] = [];
  for (const requirement of requirements) {
    const m = metrics[outcomeKey(requirement, plan)];
    const rank = m && m.values ? Math.round(m.values.max || m.values.value || 0) : 0;
    const outcome = OUTCOME_RANK[rank - 1];
    if (outcome) out.push(carried(requirement, outcome));
  }
  return out;
}

/**
 * The outcome a metric carried, as its requirement's judgement: a pass or a failure judged by the level again (its
 * rule's own judgement was: a failure is always a MUST's), any other outcome as it came.
 */
function carried(requirement: ScenarioRequirementId, outcome: Outcome): Judgement {
  const message = `${outcome} (the message is in k6's log: the lines starting with 'animal-store-report')`;
  return outcome === 'pass' || outcome === 'fail'
    ? judgeScenarioRequirement(requirement, { ok: outcome === 'pass', pass: 'carried', fail: 'carried', message })
    : judgeScenarioRequirement(requirement, { outcome, title: 'carried', message });
}

export { METRICS_ONLY_NOTE };
