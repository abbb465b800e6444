/**
 * What a k6 run leaves in a metrics store: every check name, metric name and tag
 * value the bundles record is short and the same from run to run (a nightly run
 * adds no series), however the run went; the report's details travel in k6's log
 * instead. On the emulator (simulated time, every scenario); real-k6.test.ts
 * checks the same in k6's own `--out json` output.
 */
import { describe, expect, it } from 'vitest';
import { bundlePath, jobEnv } from '../../load/node/k6.ts';
import type { AppOptions } from '../../reference/app.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { VirtualClock } from '../support/virtual.ts';
import { job, T0, virtualApp, WINDOW_MS } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { reportOfRun, runK6Virtual, type K6Run } from '../support/k6-shim/run.ts';
import { tempDir } from '../support/temp.ts';

const bundles = builtBundles('names-dist');
// The daily scenario on a short quota day (30 requests in 20 windows), as engines-agree.test.ts runs it.
const DAY = 20 * WINDOW_MS;
const SHORT_DAY = { app: { dayMs: DAY, enterprise: { perMinute: 20, perDay: 30 } }, job: { perDay: 30, dayMs: DAY } };

function run(scenario: ScenarioName, start: number, options: AppOptions = {}): K6Run {
  const daily = scenario === 'daily';
  const clock = new VirtualClock(start);
  const app = virtualApp({ ...(daily ? SHORT_DAY.app : {}), ...options }, clock);
  const j = job(scenario, { apiKey: app.keys.enterprise, deadlineAt: start + 3_600_000, ...(daily ? SHORT_DAY.job : {}) });
  return runK6Virtual(bundlePath(scenario, bundles.dir), jobEnv(j, tempDir('names')), app, clock);
}

/** Every name a metrics store would index: check names, metric names and tag values (a requirement's id is one). */
function names(r: K6Run): Set<string> {
  const out = new Set<string>(r.checks.map((c) => c.name));
  for (const s of r.series || []) {
    const at = s.indexOf('[');
    out.add(s.slice(0, at));
    for (const [, v] of JSON.parse(s.slice(at)) as Array<[string, string]>) out.add(String(v));
  }
  return out;
}

describe('k6 output a metrics store can keep', () => {
  it.each(['ceiling', 'recovery', 'sustained', 'overload', 'daily'] as ScenarioName[])(
    '%s: every check, metric and tag is at most 128 characters, at most 50 of them, the same on two runs days apart.',
    (scenario) => {
      const first = run(scenario, T0);
      const second = run(scenario, T0 + 3 * DAY + 12_345);
      const failing = run(scenario, T0, { faults: ['window-10s', 'never-429'] });
      for (const r of [first, second, failing]) expect(r.exitCode, r.error).not.toBe(107);
      const a = names(first);
      expect([...names(second)].sort()).toEqual([...a].sort());
      const all = new Set([...a, ...names(failing)]);
      expect(all.size).toBeLessThanOrEqual(50);
      for (const n of all) expect(n.length, n).toBeLessThanOrEqual(128);
      // …and the report still arrives whole: the judgements' messages and the timeline came through k6's log.
      const report = reportOfRun(first)!;
      expect(report.timeline.length).toBeGreaterThan(0);
      expect(report.judgements.every((j) => j.title !== 'Outcome carried by k6 metrics')).toBe(true);
    },
    90_000,
  );
});
