/**
 * The exploration phase, first part: counterexamples that earlier runs against
 * this target saved (reports/counterexamples.json) are replayed before anything
 * new is explored — each still fails (reported again, with when it was first
 * found) or is reported fixed. A nightly run re-checks last night's failures.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { explorerOf, replayPhase, savedFor, summary } from '../../src/explore/index.ts';
import { INVARIANTS } from './invariants.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'counterexamples-replayed',
  tests: [
    {
      title: 'Counterexamples saved by earlier runs against this target are replayed first, and each still fails or is reported fixed.',
      requirements: INVARIANTS,
      async run(t) {
        const x = await explorerOf(t);
        if (!x) return;
        const saved = savedFor(t);
        try {
          if (saved.length) await replayPhase(x, saved);
        } finally {
          t.session.notes.set('exploration', summary(x));
        }
      },
    },
  ],
});
