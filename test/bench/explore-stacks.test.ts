/**
 * The explore-stacks benchmark's judgement of its runs (bench/explore-stacks.ts), on made-up reports: a MUST
 * failure is a false alarm that misses the goal, a SHOULD warning is counted by requirement, a run that went
 * wrong misses the goal too, and a stack that cannot run here is named with the reason. No server is started.
 */
import { describe, expect, it } from 'vitest';
import { judgeReport, stackLines, stackMissing } from '../../bench/explore-stacks.ts';

type Requirement = Parameters<typeof judgeReport>[0]['requirements'][number];

const req = (id: string, level: string, status: string, findings: Requirement['findings'] = []): Requirement => ({
  id,
  level,
  status,
  findings,
});

const report = (requirements: Requirement[]) => ({ outcome: 'incomplete', requestsSent: 302, requirements });

const clean = report([req('LIST-200-PETS', 'MUST', 'pass'), req('RL-CEILING-429', 'MUST', 'skip')]);
const alarm = report([
  req('LIST-200-PETS', 'MUST', 'fail', [
    { outcome: 'fail', title: 'Valid listPets query not answered 200', message: 'limit=9: HTTP 500' },
    { outcome: 'fail', title: 'Valid listPets query not answered 200', message: 'limit=9: HTTP 500' },
    { outcome: 'pass', title: 'Page of animals', message: 'ok' },
  ]),
]);
const warned = report([
  req('GET-NON-INTEGER-ID-4XX', 'SHOULD', 'warn', [{ outcome: 'fail', title: 'Non-integer id not rejected', message: 'GET /pets/٧: 200' }]),
]);

describe('explore-stacks judges its runs', () => {
  it('A report without a failed MUST has no alarm and no warning, and its requests are counted.', () => {
    expect(judgeReport(clean)).toMatchObject({ alarms: [], warnings: [], requests: 302 });
  });

  it('A failed MUST is an alarm with its title and message, once per distinct finding; a warning names its requirement.', () => {
    expect(judgeReport(alarm).alarms).toEqual(['LIST-200-PETS: Valid listPets query not answered 200 — limit=9: HTTP 500']);
    expect(judgeReport(warned)).toMatchObject({ alarms: [], warnings: ['GET-NON-INTEGER-ID-4XX: Non-integer id not rejected'] });
  });

  const run = (seed: string, r: ReturnType<typeof report>, problem?: string) => ({
    seed,
    ms: 1000,
    ...judgeReport(r),
    ...(problem ? { problem } : {}),
  });
  const cases: [string, ReturnType<typeof run>[], boolean, number][] = [
    ['clean runs', [run('1', clean), run('2', clean)], true, 0],
    ['a false alarm on one seed', [run('1', clean), run('2', alarm)], false, 1],
    ['a run that went wrong', [run('1', clean), { seed: '2', ms: 0, requests: 0, alarms: [], warnings: [], problem: 'exit 6' }], false, 0],
    ['warnings only', [run('1', warned), run('2', warned)], true, 0],
  ];
  it.each(cases)('The false-alarm line of %s meets its goal only without alarms and problems.', (_what, runs, met, alarms) => {
    const [line, warnings] = stackLines('node', runs);
    expect(line).toMatchObject({ met, value: alarms });
    if (alarms) expect(line.detail).toContain('seed 2: LIST-200-PETS');
    if (!met && !alarms) expect(line.detail).toContain('seed 2: exit 6');
    expect(warnings.value).toBe(runs.flatMap((r) => r.warnings).length);
  });

  it('Warnings are tallied by requirement and title.', () => {
    const [, warnings] = stackLines('node', [run('1', warned), run('2', warned)]);
    expect(warnings.detail).toBe('GET-NON-INTEGER-ID-4XX: Non-integer id not rejected ×2');
  });

  it('A stack that cannot run here is named with the reason; one that can is not.', () => {
    expect(stackMissing('node')).toBeUndefined();
    expect(stackMissing('no-such-stack')).toMatch(/unknown stack 'no-such-stack'/);
  });
});
