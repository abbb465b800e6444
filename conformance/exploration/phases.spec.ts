/**
 * The exploration phase (generated inputs), after the specs: its parts as spec tests, one spec per part, in the order
 * src/explore/phases.ts writes down (EXPLORATION_PHASES) — saved counterexamples replayed, the coverage cases, the
 * generated requests, then what the store kept. Each part's title says what it proves.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { EXPLORATION_PHASES, explorationSpecs } from '../../src/explore/index.ts';

for (const { behaviour, tests } of explorationSpecs(EXPLORATION_PHASES)) defineSpec({ operation: 'exploration', behaviour, tests });
