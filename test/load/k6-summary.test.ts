/**
 * What handleSummary reads back from k6's metrics alone (load/k6/summary.ts): each judged requirement's outcome, as the
 * fixed-name gauge carried it, becomes that requirement's judgement titled by its section — the same outcome, whatever
 * the requirement's level, and nothing for a requirement no metric carried.
 */
import { describe, expect, it } from 'vitest';
import { OUTCOME_RANK, outcomeKey, outcomesFromMetrics, type SummaryMetrics } from '../../load/k6/summary.ts';
import type { Outcome } from '../../src/core/sections/define.ts';
import type { ScenarioRequirementId } from '../../src/core/scenarios.ts';

const carried = (pairs: [ScenarioRequirementId, Outcome][], plan?: string): SummaryMetrics =>
  Object.fromEntries(pairs.map(([id, outcome]) => [outcomeKey(id, plan), { values: { value: OUTCOME_RANK.indexOf(outcome) + 1 } }]));

const message = (outcome: Outcome) => `${outcome} (the message is in k6's log: the lines starting with 'animal-store-report')`;

/** A MUST of the load section, a MUST of the header section, a SHOULD of each: every outcome their rules can give. */
const CASES: [ScenarioRequirementId, readonly Outcome[]][] = [
  ['RL-CEILING-429', ['observe', 'skip', 'pass', 'error', 'fail']],
  ['RL-DAILY-QUOTA', ['warn']],
  ['RL-HEADERS-PRESENT', ['pass', 'fail', 'skip']],
  ['RL-RETRY-AFTER-CONSISTENT', ['pass', 'warn', 'skip']],
  ['RL-429-ERROR-BODY', ['pass', 'warn', 'skip']],
];

describe("handleSummary's outcomes from k6's metrics", () => {
  for (const [id, outcomes] of CASES)
    for (const outcome of outcomes)
      it(`A ${outcome} carried for ${id} comes back as a ${outcome} of ${id}, titled as carried by k6's metrics.`, () => {
        expect(outcomesFromMetrics(carried([[id, outcome]]), [id])).toEqual([
          { requirement: id, outcome, title: 'Outcome carried by k6 metrics', message: message(outcome) },
        ]);
      });

  it('Only the requested requirements of the named plan are read, and one no metric carried gives no judgement.', () => {
    const metrics = { ...carried([['RL-NOT-EARLY', 'fail']], 'free'), ...carried([['RL-CEILING-429', 'pass']], 'pro') };
    expect(outcomesFromMetrics(metrics, ['RL-CEILING-429', 'RL-NOT-EARLY'], 'pro').map((j) => [j.requirement, j.outcome])).toEqual([
      ['RL-CEILING-429', 'pass'],
    ]);
    expect(outcomesFromMetrics({}, ['RL-CEILING-429'])).toEqual([]);
  });
});
