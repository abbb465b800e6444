/**
 * Many judgements of one requirement folded into the one a report shows. Every judgement is built by its section's
 * constructor (src/core/sections/define.ts: the titles from the entry, the level mapped to the outcome in one place).
 *
 * Pure module (bundled for k6): no Node built-ins, no timers.
 */
import type { Judgement, Outcome } from './sections/define.ts';

/**
 * Many judgements of one run folded into one per requirement (first-seen order):
 * the first failure (else warning, suite error, pass, skip) stands for the
 * requirement, with how many judgements agreed; distinct observations are kept.
 */
export function foldJudgements(all: readonly Judgement[], keepObservations = 3): Judgement[] {
  const order: string[] = [];
  const groups: Record<string, Judgement[]> = {};
  for (const j of all) {
    if (!groups[j.requirement]) {
      groups[j.requirement] = [];
      order.push(j.requirement);
    }
    groups[j.requirement].push(j);
  }
  const out: Judgement[] = [];
  for (const id of order) {
    const g = groups[id];
    const judged = g.filter((j) => j.outcome !== 'observe');
    for (const outcome of ['fail', 'warn', 'error', 'pass', 'skip'] as Outcome[]) {
      const same = judged.filter((j) => j.outcome === outcome);
      if (!same.length) continue;
      const first = same[0];
      const n = judged.length;
      const tally =
        n > 1 && (outcome === 'fail' || outcome === 'warn')
          ? ` (${same.length} of ${n} judged responses)`
          : n > 1 && outcome === 'pass'
            ? ` (${same.length} of ${n} judged responses passed)`
            : '';
      out.push(tally ? { ...first, message: first.message + tally } : first);
      break;
    }
    const seen: Record<string, true> = {};
    for (const o of g.filter((j) => j.outcome === 'observe')) {
      if (seen[o.message] || Object.keys(seen).length >= keepObservations) continue;
      seen[o.message] = true;
      out.push(o);
    }
  }
  return out;
}
