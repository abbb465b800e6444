/**
 * `npm run conformance` writes the run's traffic beside its reports: traffic.har in its own run folder
 * (reports/conformance/<run id>/), named in the console's list of reports — also when writes are off and the
 * exploration phase is off, where it holds the specs' reads, and the methods every-method.spec.ts sends without a valid key. The worker's record of the traffic, a
 * hidden file in the reports folder, goes with the run, and one a killed run left is removed by the next.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { filesContaining, runCli, tempReports, withReference } from '../support/cli.ts';
import { harProblems } from '../support/har.ts';
import { openTrafficLog, staleTrafficFiles } from '../../src/cli/traffic-file.ts';

test('With writes off and no exploration, npm run conformance writes a valid traffic.har of its requests, none that could write but to an id no server issued, beside conformance.json.', async () => {
  const reports = tempReports();
  await withReference({}, async (baseUrl, keys) => {
    const run = await runCli('src/cli/conformance.ts', ['--explore-budget', '0', '--allow-writes', 'false'], {
      env: {
        ANIMAL_STORE_BASE_URL: baseUrl,
        ANIMAL_STORE_API_KEY: keys.business,
        ANIMAL_STORE_PLAN: 'business',
        ANIMAL_STORE_REPORTS_DIR: reports,
      },
      killAfterMs: 90_000,
    });
    expect(run.code, run.stderr + run.stdout.slice(-1500)).toBe(0);
    const [id] = readdirSync(join(reports, 'conformance'));
    const folder = join(reports, 'conformance', id);
    expect(readdirSync(folder).sort()).toEqual(['conformance.json', 'junit.xml', 'traffic.har']);
    expect(run.stdout).toMatch(/reports: .*conformance\.json, .*junit\.xml, .*traffic\.har/);
    const har = JSON.parse(readFileSync(join(folder, 'traffic.har'), 'utf8'));
    expect(harProblems(har)).toBe('valid');
    const conformance = JSON.parse(readFileSync(join(folder, 'conformance.json'), 'utf8'));
    expect(har.log.entries.length).toBe(conformance.traffic.entries);
    expect(har.log.entries.length).toBeGreaterThan(20);
    const writes = har.log.entries.filter((e: { request: { method: string } }) =>
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(e.request.method),
    );
    expect(writes.filter((e: { request: { url: string } }) => !e.request.url.endsWith('/pets/9223372036854770001'))).toEqual([]);
    expect(har.log.pages.some((p: { title: string }) => p.title.startsWith('exploration'))).toBe(false);
    expect(filesContaining(reports, keys.business)).toEqual([]);
    // The worker's own record of the traffic is gone with the run.
    expect(readdirSync(reports).filter((f) => f.startsWith('.traffic-'))).toEqual([]);
  });
}, 120_000);

test('A traffic record left by a run that was killed is removed by the next run; that of a run still going is kept.', async () => {
  const reports = tempReports();
  const gone = await new Promise<number>((done) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => done(child.pid!));
  });
  const stale = join(reports, `.traffic-${gone}-0a1b2c3d.jsonl`);
  const running = join(reports, `.traffic-${process.pid}-0a1b2c3d.jsonl`);
  for (const f of [stale, running]) writeFileSync(f, '{"kind":"dropped","count":1}\n');
  expect(staleTrafficFiles(reports)).toEqual([stale]);
  const log = openTrafficLog(reports);
  expect(existsSync(stale)).toBe(false);
  expect(existsSync(running)).toBe(true);
  writeFileSync(log.path, '{"kind":"dropped","count":2}\n');
  expect([...log.lines()]).toEqual([{ kind: 'dropped', count: 2 }]);
  log.close();
  expect(existsSync(log.path)).toBe(false);
});
