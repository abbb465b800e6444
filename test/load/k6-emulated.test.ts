/**
 * The k6 bundles themselves, executed by a small k6 emulator (k6 is not
 * installable here; see k6-shim/): the same verdicts as the Node engine, the
 * exit code as the verdict (0 / 99 thresholds / 108 aborted / 107 script
 * error), and the reports written by handleSummary.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoad } from '../../load/build.ts';
import type { LoadReport, ScenarioName } from '../../load/lib/types.ts';
import type { FaultName } from '../../reference/faults.ts';
import { runK6 } from './k6-shim/run.ts';
import { PER_MINUTE, startReference, WINDOW_MS, type Ref } from './helpers.ts';

let dist: string;
let reports: string;
const refs: Ref[] = [];
dist = mkdtempSync(join(tmpdir(), 'k6-dist-'));
reports = mkdtempSync(join(tmpdir(), 'k6-reports-'));
const built = buildLoad(dist);
afterAll(async () => {
  await Promise.all(refs.map((r) => r.close()));
  rmSync(dist, { recursive: true, force: true });
  rmSync(reports, { recursive: true, force: true });
});

async function k6(scenario: ScenarioName, options: Parameters<typeof startReference>[0] = {}, env: Record<string, string> = {}) {
  const ref = await startReference(options);
  refs.push(ref);
  const dir = join(reports, `${scenario}-${Math.random().toString(36).slice(2)}`);
  const r = await runK6(join(dist, `${scenario}.js`), {
    ANIMAL_STORE_BASE_URL: ref.url,
    ANIMAL_STORE_API_KEY: ref.key,
    ANIMAL_STORE_PLAN: 'enterprise',
    ANIMAL_STORE_RPM: String(PER_MINUTE),
    ANIMAL_STORE_RPD: '100000',
    ANIMAL_STORE_WINDOW_MS: String(WINDOW_MS),
    ANIMAL_STORE_REPORTS_DIR: dir,
    ...env,
  });
  const file = join(dir, `load-${scenario}-enterprise.json`);
  let report: LoadReport | undefined;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as LoadReport;
  } catch {
    report = undefined;
  }
  return { ...r, report, ref, dir };
}

const VALID = ['ceiling', 'recovery', 'sustained', 'overload'] as const;
const FAULTY: Array<[FaultName, ScenarioName, string, number]> = [
  ['never-429', 'ceiling', 'RL-CEILING-429', 99],
  ['throttle-early', 'ceiling', 'RL-NOT-EARLY', 99],
  ['sustained-throttle', 'sustained', 'RL-SUSTAINED-BELOW-CEILING', 99],
  ['window-10s', 'overload', 'RL-WINDOW-PER-MINUTE', 99],
  ['remaining-on-429', 'ceiling', 'RL-429-REMAINING-ZERO', 0],
];
// Every emulated k6 run starts at once (each in its own worker, on its own server); tests judge them one by one.
const runs = new Map<string, ReturnType<typeof k6>>();

describe('k6 bundles under the emulator', () => {
  beforeAll(async () => {
    await built;
    for (const scenario of VALID) runs.set(scenario, k6(scenario, scenario === 'recovery' ? { variants: { banOnEarlyRetry: true } } : {}));
    for (const [fault, scenario] of FAULTY) runs.set(fault, k6(scenario, { faults: [fault] }));
  }, 60000);

  for (const scenario of VALID) {
    it(`${scenario} passes on the reference server (exit 0, reports written)`, async () => {
      const r = await (runs.get(scenario) as ReturnType<typeof k6>);
      expect(r.error).toBeUndefined();
      expect(r.report?.verdicts.filter((v) => v.outcome !== 'pass' && v.outcome !== 'skip')).toEqual([]);
      expect(r.exitCode).toBe(0);
      expect(r.report).toMatchObject({ scenario, engine: 'k6', verdict: 'pass' });
      expect(readFileSync(join(r.dir, `load-${scenario}-enterprise.junit.xml`), 'utf8')).not.toContain(r.ref.key);
      expect(JSON.stringify(r.report)).not.toContain(r.ref.key);
    }, 30000);
  }

  for (const [fault, scenario, requirement, exit] of FAULTY) {
    it(`${fault}: ${scenario} reports ${requirement} and exits ${exit}`, async () => {
      const r = await (runs.get(fault) as ReturnType<typeof k6>);
      const v = r.report?.verdicts.filter((x) => x.requirement === requirement).map((x) => x.outcome);
      expect(v).toContain(exit === 0 ? 'warn' : 'fail');
      expect(r.exitCode).toBe(exit);
    }, 30000);
  }

  it('an unreachable target aborts in setup (exit 108)', async () => {
    const r = await runK6(join(dist, 'ceiling.js'), {
      ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:1/v1',
      ANIMAL_STORE_API_KEY: 'abcdefgh',
      ANIMAL_STORE_PLAN: 'free',
      ANIMAL_STORE_REPORTS_DIR: reports,
    });
    expect(r.exitCode).toBe(108);
  });

  it('a configuration error stops the script in its init context (exit 107); daily is opt-in', async () => {
    expect(
      (await runK6(join(dist, 'ceiling.js'), { ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:1/v1', ANIMAL_STORE_PLAN: 'free' })).exitCode,
    ).toBe(107);
    const daily = await runK6(join(dist, 'daily.js'), { ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:1/v1', ANIMAL_STORE_API_KEY: 'abcdefgh' });
    expect(daily.exitCode).toBe(107);
    expect(daily.error).toMatch(/opt-in/);
  });
});
