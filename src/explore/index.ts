/**
 * The exploration phase as the conformance specs see it: its parts in the order a run takes them (EXPLORATION_PHASES,
 * phases.ts), one Explorer per session (the phase's budget, seed and counters shared by its parts), and the summary
 * the run's report carries as a note.
 */
import type { TestContext } from '../harness/context.ts';
import type { SpecTest } from '../harness/define-spec.ts';
import { Explorer } from './explorer.ts';
import { EXPLORE_TIME_MS, SOURCES } from './explorer.ts';
import type { PhaseSpec } from './phases.ts';

export { EXPLORATION_PHASES, INVARIANTS, type PhaseSpec } from './phases.ts';
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

/** One line saying what the phase did, for the report's notes. */
export function summary(x: Explorer): string {
  const parts = Object.values(SOURCES)
    .map((s) => [s.replace('explore: ', ''), x.pace.tally[s]] as const)
    .filter(([, t]) => t && t.requests)
    .map(([name, t]) => `${name} ${t.cases} case${t.cases === 1 ? '' : 's'} in ${t.requests} request${t.requests === 1 ? '' : 's'}`);
  const found = Object.values(x.pace.tally).reduce((n, t) => n + t.counterexamples, 0);
  const time = `${Math.round(x.pace.elapsedMs() / 1000)} s of the server's time, up to ${x.pace.widest} request${x.pace.widest === 1 ? '' : 's'} at a time`;
  const stopped = x.pace.outOfTime() ? `, stopped at its time limit of ${EXPLORE_TIME_MS / 1000} s (the server answers slowly)` : '';
  return `Exploration (generated inputs): seed ${x.settings.seed} (--seed ${x.settings.seed} replays it), ${x.pace.spent} of its ${x.settings.budget} requests (--explore-budget)${x.settings.writes ? '' : ', GET only (writes are off)'} in ${time}${stopped}: ${parts.join('; ') || 'nothing sent'}; ${found} counterexample${found === 1 ? '' : 's'}.`;
}

/**
 * A part of the exploration phase as a spec test: runs it on the session's explorer (nothing when the phase is off)
 * and leaves the phase's summary in the report's notes, whatever happens.
 */
export function explorationTest(phase: PhaseSpec): SpecTest {
  return {
    title: phase.title,
    requirements: phase.requirements,
    ...(phase.writes ? { writes: true } : {}),
    // The parts follow one another, after the specs (the pages they read are the store the specs left): each alone.
    alone: true,
    async run(t) {
      const x = await explorerOf(t);
      if (!x) return;
      try {
        await phase.run(x, t);
      } finally {
        t.session.notes.set('exploration', summary(x));
      }
    },
  };
}

/** The parts of the phase grouped as spec files declare them (one per behaviour), in the order a run takes them. */
export function explorationSpecs(phases: readonly PhaseSpec[]): { behaviour: string; tests: SpecTest[] }[] {
  const out: { behaviour: string; tests: SpecTest[] }[] = [];
  for (const p of phases) {
    const last = out[out.length - 1];
    if (last?.behaviour === p.behaviour) last.tests.push(explorationTest(p));
    else out.push({ behaviour: p.behaviour, tests: [explorationTest(p)] });
  }
  return out;
}
