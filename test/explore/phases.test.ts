/**
 * The exploration's parts run in the order src/explore/phases.ts writes down (EXPLORATION_PHASES) — saved
 * counterexamples replayed, coverage, generated requests, then what the store kept — not in the order of any file:
 * the one spec file of the phase declares one spec per part, from that table.
 */
import { expect, test } from 'vitest';
import { collectSpecs } from '../../src/harness/define-spec.ts';
import { specPaths } from '../../src/harness/in-process-runner.ts';
import { EXPLORATION_PHASES } from '../../src/explore/index.ts';

test('The run takes the exploration parts in the order of EXPLORATION_PHASES, after every other spec.', async () => {
  const files = await collectSpecs(specPaths());
  const at = files.findIndex((f) => f.operation === 'exploration');
  const exploration = files.slice(at);
  expect(exploration.every((f) => f.operation === 'exploration')).toBe(true);
  expect(exploration.flatMap((f) => f.tests.map((t) => t.title))).toEqual(EXPLORATION_PHASES.map((p) => p.title));
  expect(exploration.map((f) => f.behaviour)).toEqual([
    'counterexamples-replayed',
    'coverage-values',
    'generated-requests',
    'stateful-round-trip',
  ]);
});
