/**
 * The exploration phase as the conformance specs see it: one Explorer per
 * session (the phase's budget, seed and counters shared by its spec files), and
 * the summary the run's report carries as a note.
 */
import type { TestContext } from '../harness/context.ts';
import type { SpecTest } from '../harness/spec.ts';
import { Explorer } from './explorer.ts';
import { EXPLORE_TIME_MS, SOURCES } from './explorer.ts';
import { loadCounterexamples, storeKey, type SavedCounterexample } from './counterexample-store.ts';

export { coveragePhase, generatedPhase, replayPhase } from './phases.ts';
export { bulkReadBack, statefulPhase, storedPhase } from './stateful.ts';
export { keepCounterexamples, loadCounterexamples, saveCounterexamples, storeKey, STORE_FILE } from './counterexample-store.ts';

/** The session's explorer, or undefined when the phase is off (budget 0). */
export function explorerOf(t: TestContext): Promise<Explorer | undefined> {
  return t.session.once('explorer', () => {
    const { explore } = t.config;
    if (!explore || explore.budget <= 0) return Promise.resolve(undefined);
    const explorer = new Explorer(t.session, {
      budget: explore.budget,
      seed: explore.seed,
      writes: t.config.allowWrites,
      prefix: t.config.namePrefix,
      embedded: !!t.session.opts.embedded,
    });
    return Promise.resolve(explorer);
  });
}

/** Counterexamples saved by earlier runs against this session's target. */
export function savedFor(t: TestContext): SavedCounterexample[] {
  return loadCounterexamples(t.config.reportsDir, storeKey(t.session.opts.baseUrl, !!t.session.opts.embedded));
}

/** One line saying what the phase did, for the report's notes. */
export function summary(x: Explorer): string {
  const parts = Object.values(SOURCES)
    .map((s) => [s.replace('explore: ', ''), x.tally[s]] as const)
    .filter(([, t]) => t && t.requests)
    .map(([name, t]) => `${name} ${t.cases} case${t.cases === 1 ? '' : 's'} in ${t.requests} request${t.requests === 1 ? '' : 's'}`);
  const found = Object.values(x.tally).reduce((n, t) => n + t.counterexamples, 0);
  const time = `${Math.round(x.elapsedMs() / 1000)} s of the server's time, up to ${x.widest} request${x.widest === 1 ? '' : 's'} at a time`;
  const stopped = x.outOfTime() ? `, stopped at its time limit of ${EXPLORE_TIME_MS / 1000} s (the server answers slowly)` : '';
  return `Exploration (generated inputs): seed ${x.settings.seed} (--seed ${x.settings.seed} replays it), ${x.spent} of its ${x.settings.budget} requests (--explore-budget)${x.settings.writes ? '' : ', GET only (writes are off)'} in ${time}${stopped}: ${parts.join('; ') || 'nothing sent'}; ${found} counterexample${found === 1 ? '' : 's'}.`;
}

/**
 * A spec test of the exploration phase: runs one part of it on the session's
 * explorer (nothing when the phase is off) and leaves the phase's summary in
 * the report's notes, whatever happens.
 */
export function explorationTest(spec: Omit<SpecTest, 'run'> & { part: (x: Explorer, t: TestContext) => Promise<void> }): SpecTest {
  const { part, ...rest } = spec;
  return {
    ...rest,
    async run(t) {
      const x = await explorerOf(t);
      if (!x) return;
      try {
        await part(x, t);
      } finally {
        t.session.notes.set('exploration', summary(x));
      }
    },
  };
}
