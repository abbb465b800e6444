/**
 * Distributed runs merged into one verdict, on simulated time: the sustained and
 * overload bundles run as two k6 instances side by side on execution segments
 * 0:1/2 and 1/2:1 (the emulator, one reference server, one clock); their share
 * reports, merged, must give the verdict one process gives — on every valid
 * variant and every rate-limit fault mode. The merge refuses shares of
 * different runs and judges a run with a missing share as partial.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeShares } from '../../load/lib/merge.ts';
import { bundlePath, jobEnv } from '../../load/node/k6.ts';
import { mergeMain } from '../../load/node/merge-cli.ts';
import type { AppOptions } from '../../reference/app.ts';
import { FAULTS, faultsFor } from '../../reference/faults.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { VirtualClock } from '../support/virtual.ts';
import { job, outcomesOf, T0, virtualApp } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { reportOfRun, runK6Virtual, runK6VirtualSegments, type K6Run } from '../support/k6-shim/run.ts';
import { tempDir } from '../support/temp.ts';

const DISTRIBUTED: ScenarioName[] = ['sustained', 'overload'];
const SEGMENTS = ['0:1/2', '1/2:1'];

const VALID: Record<string, AppOptions> = {
  'the reference server': {},
  'Retry-After as an HTTP-date': { variants: { retryAfter: 'http-date' } },
  'a sliding-window limiter': { variants: { limiter: 'sliding' } },
  'a token-bucket limiter': { variants: { limiter: 'token-bucket' } },
  'headers counting the per-day quota': { variants: { rateLimitHeaders: 'day' } },
  'Retry-After padded 1 s beyond Reset': { variants: { retryAfterPaddingS: 1 } },
  'a server that bans a key retried before Retry-After': { variants: { banOnEarlyRetry: true } },
};
const LOAD_FAULTS = faultsFor('load').filter((f) => FAULTS[f].expect.requirement !== 'RL-DAILY-QUOTA' && !FAULTS[f].sideBySide);
/** The faults a distributed scenario exists to catch. */
const CAUGHT_HERE: Partial<Record<string, ScenarioName>> = { 'window-10s': 'overload', 'sustained-throttle': 'sustained' };

const bundles = builtBundles('merge-dist');

/** The report a k6 process wrote, completed with its log (a share's requests travel there). */
const parse = (r: K6Run): LoadReport => reportOfRun(r)!;

/** One k6 process, or two on execution segments: the report(s) each wrote. */
function run(scenario: ScenarioName, options: AppOptions, segments?: readonly string[]): LoadReport[] {
  const clock = new VirtualClock(T0);
  const app = virtualApp(options, clock);
  const j = job(scenario, { baseUrl: 'http://127.0.0.1:4010/v1', apiKey: app.keys.enterprise, distributed: !!segments });
  const env = jobEnv(j, tempDir('merge'));
  if (!segments) return [parse(runK6Virtual(bundlePath(scenario, bundles.dir), env, app, clock))];
  return runK6VirtualSegments(bundlePath(scenario, bundles.dir), env, { app, clock }, segments).map(parse);
}

/** Single process vs merged shares: outcome per requirement of each. */
function compare(scenario: ScenarioName, options: AppOptions) {
  const [single] = run(scenario, options);
  const shares = run(scenario, options, SEGMENTS);
  const merged = mergeShares(shares);
  expect(merged.refused).toBeUndefined();
  return { single: outcomesOf(single.judgements), merged: outcomesOf(merged.report!.judgements), shares, report: merged.report! };
}

describe('distributed runs merged into one verdict', () => {
  for (const scenario of DISTRIBUTED)
    describe(scenario, () => {
      it.each(Object.keys(VALID))('%s: the merged shares pass, with the single process’s outcome per requirement.', (name) => {
        const c = compare(scenario, VALID[name]);
        expect(c.merged).toEqual(c.single);
        expect(c.report.verdict).toBe('pass');
        // Each share alone judged only what its own requests show; the merge judged the whole on every request.
        expect(c.shares.map((s) => s.share?.segment)).toEqual(SEGMENTS);
        expect(c.report.requestsSent).toBe(c.shares.reduce((n, s) => n + s.requestsSent, 0));
        // Shares that cannot see each other's 429s still never retried early: no 429 ever banned the key.
        for (const p of c.report.timeline.filter((x) => x.status === 429)) expect(p.retryAfter).toBeLessThanOrEqual(61);
      });

      it.each(LOAD_FAULTS)('%s: the merged shares give the single process’s outcome per requirement.', (fault) => {
        const c = compare(scenario, { faults: [fault] });
        expect(c.merged).toEqual(c.single);
        // A fault this scenario exists to catch is caught by the merge (no share alone judges it).
        const { requirement, outcome } = FAULTS[fault].expect;
        if (CAUGHT_HERE[fault] === scenario) {
          expect(c.merged[requirement]).toBe(outcome);
          for (const s of c.shares) expect(outcomesOf(s.judgements)[requirement]).not.toBe('pass');
        }
      });
    });

  it('Shares of different runs are refused, and two shares of one segment too.', () => {
    const a = run('sustained', {}, SEGMENTS);
    const b = run('overload', {}, SEGMENTS);
    expect(mergeShares([a[0], b[1]]).refused).toMatch(/different runs/);
    expect(mergeShares([a[0], a[0]]).refused).toMatch(/same part of the run/);
    expect(mergeShares([]).refused).toMatch(/no share/);
  });

  it('npm run load:merge writes the merged report into a run folder of its own and ends with one verdict line; bad input is a usage error.', () => {
    const dir = tempDir('merge-cli');
    const files = run('overload', { faults: ['window-10s'] }, SEGMENTS).map((r, i) => {
      const f = join(dir, `share-${i}.json`);
      writeFileSync(f, JSON.stringify(r));
      return f;
    });
    const lines: string[] = [];
    const out = { say: (s: string) => lines.push(s), warn: (s: string) => lines.push(`stderr: ${s}`) };
    expect(mergeMain([...files, '--reports-dir', dir], out)).toBe(1);
    expect(lines.join('').trim().split('\n').at(-1)).toMatch(
      /^load:merge: FAIL — overload failed a MUST requirement \(2 shares, \d+ requests\)$/,
    );
    const folder = readdirSync(join(dir, 'load')).find((f) => f.startsWith('merged-'))!;
    const merged = JSON.parse(readFileSync(join(dir, 'load', folder, 'load-overload-enterprise.json'), 'utf8')) as LoadReport;
    expect(outcomesOf(merged.judgements)['RL-WINDOW-PER-MINUTE']).toBe('fail');
    // Usage errors: nothing named, an unreadable file, no share, two shares of one segment.
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ scenario: 'overload' }));
    for (const argv of [[], [join(dir, 'missing.json')], [bad], [files[0], files[0]]]) {
      lines.length = 0;
      expect(mergeMain(argv, out)).toBe(2);
      expect(lines.join('')).toMatch(/^stderr: load:merge: /);
    }
  });

  it("npm run load:merge completes the shares k6 wrote with each instance's k6 log, and refuses shares without their log.", () => {
    const dir = tempDir('merge-logs');
    const clock = new VirtualClock(T0);
    const app = virtualApp({ faults: ['window-10s'] }, clock);
    const env = jobEnv(job('overload', { apiKey: app.keys.enterprise, distributed: true }), dir);
    const runs = runK6VirtualSegments(bundlePath('overload', bundles.dir), env, { app, clock }, SEGMENTS);
    const files = runs.flatMap((r, i) => {
      const [name, text] = Object.entries(r.files).find(([k]) => k.endsWith('.json'))!;
      expect((JSON.parse(text) as LoadReport).share?.samples).toEqual([]); // handleSummary gets no request: they are in the log
      const share = join(dir, `${i}-${name.replace(/^.*\//, '')}`);
      const log = join(dir, `instance-${i}.log`);
      writeFileSync(share, text);
      // k6's own JSON log format, with a line of k6's between the carried ones
      writeFileSync(
        log,
        [
          '{"level":"warning","msg":"Request Failed"}',
          ...r.log.map((msg) => JSON.stringify({ level: 'info', msg, source: 'console' })),
        ].join('\n'),
      );
      return [share, log];
    });
    const lines: string[] = [];
    const out = { say: (s: string) => lines.push(s), warn: (s: string) => lines.push(`stderr: ${s}`) };
    expect(mergeMain([...files, '--reports-dir', dir], out), lines.join('')).toBe(1);
    expect(lines.join('')).toMatch(/load:merge: FAIL — overload failed a MUST requirement \(2 shares, \d+ requests\)/);
    lines.length = 0;
    expect(mergeMain([files[0], files[2], '--reports-dir', dir], out)).toBe(2);
    expect(lines.join('')).toMatch(/carries no request: give the k6 log of each instance too/);
  });

  it('A missing share leaves what needs the whole view not judged, and says which part of the run is missing.', () => {
    const [first] = run('overload', {}, SEGMENTS);
    const m = mergeShares([first]);
    expect(m.report?.notes?.join(' ')).toMatch(/do not cover 0\.5 to 1 of the run/);
    expect(outcomesOf(m.report!.judgements)['RL-WINDOW-PER-MINUTE']).toBe('skip');
  });
});
