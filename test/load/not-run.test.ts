/**
 * Two kinds of "not run", each with its own title: a scenario the run did not start is said of each of its
 * requirements with the title every requirement shares (Not run: {scenario}), and a paced scenario that started but
 * sent no request of its paced phase says so in its own words. An entry's own key named like the shared one would hide
 * the shared title: the paced scenarios' key is 'paced-not-run'.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIO_INFO, SCENARIO_NAMES } from '../../src/core/scenarios.ts';
import { notRunFindings } from '../../src/results/aggregate.ts';
import { judgeSustained, judgeWindow } from '../support/samples.ts';

describe('not run', () => {
  it.each(SCENARIO_NAMES)('Each requirement of the %s scenario, not run, is skipped as "Not run" with the scenario named.', (scenario) => {
    const found = notRunFindings([{ scenario, reason: 'not asked for', remedy: `--scenarios ${scenario}` }]);
    expect(found.map((f) => f.requirement)).toEqual([...SCENARIO_INFO[scenario].requirements]);
    for (const f of found) expect(f).toMatchObject({ outcome: 'skip', title: `Not run: ${scenario}`, message: 'not asked for' });
  });

  it.each([
    ['sustained', () => judgeSustained([]), 'RL-SUSTAINED-BELOW-CEILING', 'Sustained rate not run'],
    ['overload', () => judgeWindow([]), 'RL-WINDOW-PER-MINUTE', 'Overload not run'],
  ] as const)('The %s scenario that sent no paced request skips %s as "%s".', (_name, judge, id, title) => {
    expect(judge().filter((j) => j.requirement === id)).toEqual([
      { requirement: id, outcome: 'skip', title, message: 'no request of the paced phase was sent (stopped)' },
    ]);
  });
});
