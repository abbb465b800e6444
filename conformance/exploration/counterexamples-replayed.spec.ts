/**
 * The exploration phase, first part: counterexamples that earlier runs against
 * this target saved (reports/counterexamples.json) are replayed before anything
 * new is explored — each still fails (reported again, with when it was first
 * found) or is reported fixed. A nightly run re-checks last night's failures.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { explorationTest, replayPhase, savedFor } from '../../src/explore/index.ts';
import { INVARIANTS } from './invariants.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'counterexamples-replayed',
  tests: [
    explorationTest({
      title: 'Counterexamples saved by earlier runs against this target are replayed first, and each still fails or is reported fixed.',
      requirements: INVARIANTS,
      part: (x, t) => replayPhase(x, savedFor(t)),
    }),
  ],
});
