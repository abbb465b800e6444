/**
 * The exploration phase, generated part: seeded fast-check requests to every
 * operation, valid and invalid by the schema, until the part's share of the
 * budget is spent. Each new kind of failure is shrunk to a minimal request that
 * still fails the same way, and reported with its seed and shrink path.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { explorationTest, generatedPhase } from '../../src/explore/index.ts';
import { INVARIANTS } from './invariants.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'generated-requests',
  tests: [
    explorationTest({
      title:
        'Generated valid and invalid requests to every operation are answered as the schema says, and every failure is shrunk to a minimal replayable request.',
      requirements: INVARIANTS,
      part: generatedPhase,
    }),
  ],
});
