/**
 * Each load fault mode of the reference server is caught by the right verdict
 * (the requirement and outcome its FAULTS entry expects), by the scenario that
 * asks that question; and the opt-in daily scenario passes on a valid server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, faultsFor, type FaultName } from '../../reference/faults.ts';
import type { AppOptions } from '../../reference/app.ts';
import type { ScenarioName } from '../../load/lib/types.ts';
import { alignedNow, outcomes, PER_MINUTE, problems, runOn, startReference, WINDOW_MS, type Ref } from './helpers.ts';

const DAY_MS = 20 * WINDOW_MS;
const daily: Partial<AppOptions> = { dayMs: DAY_MS, now: undefined, enterprise: { perMinute: 20, perDay: 30 } };

/** Which scenario catches which fault, and how its server is set up. */
const CATCHER: Record<string, { scenario: ScenarioName; server?: () => Partial<AppOptions> }> = {
  'never-429': { scenario: 'ceiling' },
  'no-retry-after': { scenario: 'ceiling' },
  'retry-after-negative': { scenario: 'ceiling' },
  'remaining-negative-on-429': { scenario: 'ceiling' },
  'throttle-after-idle': { scenario: 'ceiling' },
  // Retry-After says 1 s: start the run early in a window so that the real wait is longer.
  'retry-after-too-short': { scenario: 'recovery', server: () => ({ now: alignedNow(WINDOW_MS) }) },
  'throttle-early': { scenario: 'ceiling' },
  'window-10s': { scenario: 'overload' },
  'sustained-throttle': { scenario: 'sustained' },
  'remaining-on-429': { scenario: 'ceiling' },
  'daily-ignored': { scenario: 'daily', server: () => ({ ...daily, now: alignedNow(DAY_MS) }) },
  '429-body-not-error': { scenario: 'ceiling' },
  'reset-in-ms': { scenario: 'ceiling' },
  'reset-is-now': { scenario: 'ceiling' },
  'remaining-not-falling': { scenario: 'ceiling' },
};

const refs: Ref[] = [];
afterAll(() => Promise.all(refs.map((r) => r.close())));

const runDaily = (ref: Ref) => runOn(ref, 'daily', { perDay: 30, dayMs: DAY_MS, allowDaily: true });
const validDaily = startReference({ ...daily, now: alignedNow(DAY_MS) }).then((ref) => (refs.push(ref), runDaily(ref)));

describe('fault modes', () => {
  it('every load fault of the reference has a catching scenario', () => {
    expect(faultsFor('load').filter((f) => !CATCHER[f])).toEqual([]);
  });

  describe('caught by the expected verdict', () => {
    // All faulty servers run at once; each test judges its own run.
    const runs = new Map<string, ReturnType<typeof runOn>>();
    beforeAll(() => {
      for (const fault of faultsFor('load')) {
        const c = CATCHER[fault];
        if (!c) continue;
        const started = startReference({ faults: [fault as FaultName], ...(c.server ? c.server() : {}) });
        runs.set(
          fault,
          started.then((ref) => (refs.push(ref), c.scenario === 'daily' ? runDaily(ref) : runOn(ref, c.scenario))),
        );
      }
    });
    for (const fault of faultsFor('load')) {
      const c = CATCHER[fault];
      if (!c) continue;
      const expected = FAULTS[fault].expect;
      it(`${fault} → ${expected.requirement} ${expected.outcome} (${c.scenario})`, async () => {
        const r = await (runs.get(fault) as ReturnType<typeof runOn>);
        expect(outcomes(r, expected.requirement), JSON.stringify(r.report.verdicts, null, 1)).toContain(expected.outcome);
        expect(r.exitCode).toBe(r.report.verdicts.some((v) => v.outcome === 'fail') ? 1 : 0);
        if (expected.outcome === 'fail') expect(r.exitCode).toBe(1);
      }, 30000);
    }
  });

  it('daily: a valid server enforcing 30 requests a day passes, and the run stops at the quota', async () => {
    const r = await validDaily;
    expect(problems(r)).toEqual([]);
    expect(outcomes(r, 'RL-DAILY-QUOTA')).toEqual(['pass']);
    expect(r.report.requestsSent).toBe(31);
  }, 30000);

  it('ceiling: a key left at its limit (first request refused) is measured after an idle window, without a false alarm', async () => {
    const ref = await startReference({ now: alignedNow(WINDOW_MS) });
    refs.push(ref);
    for (let i = 0; i <= PER_MINUTE; i++)
      await fetch(`${ref.url}/pets?limit=1`, { headers: { authorization: `Bearer ${ref.key}` } }).then((r) => r.arrayBuffer());
    const r = await runOn(ref, 'ceiling');
    expect(problems(r)).toEqual([]);
    expect(outcomes(r, 'RL-NOT-EARLY')).toEqual(['pass']);
    expect(outcomes(r, 'RL-CEILING-429')).toEqual(['pass']);
    expect(r.report.requestsSent).toBe(PER_MINUTE + 2); // the refused first request, the limit, the 429
  }, 30000);

  it('daily: refused unless opted in', async () => {
    const ref = await startReference();
    refs.push(ref);
    await expect(runOn(ref, 'daily')).rejects.toThrow(/opt-in/);
  });
});
