/**
 * The proof that the suite's checks can fail: for every conformance fault mode
 * of the reference server, the run reports the requirement that should catch it
 * (fail for MUST, warn for SHOULD). And every MUST requirement judged by the
 * conformance suite has a fault mode proving it, unless the catalogue says why not.
 * The faults only generated inputs reach are proven in test/explore/faults.test.ts
 * (caught with the phase on, missed with it off): each fault is run once in npm test.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { FAULTS, FAULT_NAMES, type FaultName } from '../../reference/faults.ts';
import { REQUIREMENTS } from '../../src/core/catalogue.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';
import { specFilesJudging, specName } from '../support/specs-judging.ts';
import type { SpecFile } from '../../src/harness/define-spec.ts';

// Held-out faults (written after the generators) are measured by the benchmark, not required here. The generated-only
// faults are test/explore/faults.test.ts's: it proves each caught, by the same requirement and outcome, on the
// embedded default's budget (a run of their own here cost about 15 s of npm test's CPU time for nothing more).
const isConformance = (f: FaultName) => FAULTS[f].suite === 'conformance' || FAULTS[f].alsoSuite === 'conformance';
const conformanceFaults = FAULT_NAMES.filter((f) => isConformance(f) && !FAULTS[f].heldOut && !FAULTS[f].generatedOnly);

describe('every conformance fault mode is caught by the requirement that should catch it', () => {
  // A short window keeps pacing waits (e.g. when every key is refused and the per-address bucket runs out) to a few
  // seconds. A fault the table-driven specs catch is caught whatever the exploration phase sends, which then runs on a
  // small budget (most of a run's CPU time is the phase's).
  const server = { windowMs: 3000 };
  const opts = { exploreBudget: SMALL_EXPLORE_BUDGET };
  // Each fault is run against the spec files that judge the requirement it breaks (as a run of each file alone against
  // the correct server shows it: a requirement of the response checks is judged by every file), not the whole suite:
  // half the CPU time. A requirement no file judges against the correct server gets the whole suite.
  let judging: Map<string, Set<string>>;
  beforeAll(async () => {
    judging = await specFilesJudging(server, opts);
  });

  test.each(conformanceFaults.map((f) => [f, FAULTS[f].expect.requirement, FAULTS[f].expect.outcome] as const))(
    'With fault %s the suite reports %s as %s.',
    async (fault, requirement, outcome) => {
      const files = judging.get(requirement);
      const specs = files && ((f: SpecFile) => files.has(specName(f)));
      const run = await runSuiteAgainst({ ...server, faults: [fault] }, { ...opts, specs });
      expect(run.status(requirement), run.problems().join('\n')).toBe(outcome);
    },
    90_000,
  );
});

test('Every MUST requirement of the conformance suite is proven by a fault mode or says why none can exist.', () => {
  const proven = new Set(FAULT_NAMES.map((f) => FAULTS[f].expect.requirement));
  const unproven = REQUIREMENTS.filter((r) => r.level === 'MUST' && !proven.has(r.id) && !r.noFault).map((r) => r.id);
  expect(unproven).toEqual([]);
});
