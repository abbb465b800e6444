/**
 * Runs that meet each other or the user's Ctrl-C: concurrent runs into one
 * reports folder do not corrupt each other's reports, and an interrupted run
 * leaves a report that says it was interrupted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli, tempReports, withReference } from '../support/cli.ts';
import { harProblems } from '../support/har.ts';
import { SMALL_EXPLORATION } from '../support/explore-budget.ts';

const har = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

const env = (baseUrl: string, key: string, reports: string) => ({
  ANIMAL_STORE_BASE_URL: baseUrl,
  ANIMAL_STORE_API_KEY: key,
  ANIMAL_STORE_PLAN: 'business',
  ANIMAL_STORE_REPORTS_DIR: reports,
  // What these runs meet (each other, a Ctrl-C) is not the exploration phase's concern: it runs on a small budget.
  ...SMALL_EXPLORATION,
});

test('Two certification runs into the same reports folder each leave a complete run folder and whole top-level files.', async () => {
  const reports = tempReports();
  // A 1 s window (the embedded server's short world), which the runs are told: the two runs' unauthenticated requests
  // share one address's 60 a window, and with the default minute the second run waited out the minute (about 55 s of
  // idle wall time); what they meet here is each other's reports, not the window.
  await withReference({ windowMs: 1000 }, async (baseUrl, keys) => {
    const runs = await Promise.all(
      [0, 1].map(() =>
        runCli('src/cli/main.ts', ['--only', 'conformance'], {
          env: { ...env(baseUrl, keys.business, reports), ANIMAL_STORE_WINDOW_MS: '1000' },
          killAfterMs: 90_000,
        }),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
  });
  const runDirs = readdirSync(join(reports, 'runs'));
  expect(runDirs).toHaveLength(2);
  for (const d of runDirs) {
    const files = readdirSync(join(reports, 'runs', d)).sort();
    expect(files).toEqual(['badge.svg', 'certification.json', 'index.html', 'junit.xml', 'summary.md', 'traffic.har']);
    const cert = JSON.parse(readFileSync(join(reports, 'runs', d, 'certification.json'), 'utf8'));
    expect(cert.outcome).toBe('incomplete');
    // Each run's traffic is its own: as many entries as the certificate says, all of them valid HAR.
    const traffic = har(join(reports, 'runs', d, 'traffic.har'));
    expect(harProblems(traffic)).toBe('valid');
    expect(traffic.log.entries.length).toBe(cert.traffic.entries);
    expect(cert.traffic.entries).toBeGreaterThan(100);
  }
  expect(harProblems(har(join(reports, 'traffic.har')))).toBe('valid');
  expect(JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8')).outcome).toBe('incomplete');
  const latest = JSON.parse(readFileSync(join(reports, 'latest.json'), 'utf8'));
  expect(runDirs).toContain(latest.runId);
  expect(readdirSync(reports).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}, 120_000);

test('A run interrupted with Ctrl-C exits 130 and leaves a report that says it was interrupted.', async () => {
  const reports = tempReports();
  await withReference({ variants: { latencyMs: 150 } }, async (baseUrl, keys, onRequest) => {
    // Ctrl-C once the specs are running, as a user would: at the first request the server receives after the
    // CLI said it is running them (the preflight request comes before), however long the start takes.
    let running = false;
    let interrupt: (() => void) | undefined;
    onRequest(() => {
      if (running) interrupt?.();
    });
    const run = await runCli('src/cli/main.ts', ['--only', 'conformance'], {
      env: env(baseUrl, keys.business, reports),
      killAfterMs: 90_000,
      onSpawn: (child) => {
        let stderr = '';
        let sent = false;
        interrupt = () => {
          if (sent) return;
          sent = true;
          child.kill('SIGINT');
        };
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          running ||= stderr.includes('running the conformance specs');
        });
      },
    });
    expect(run.code, run.stderr + run.stdout.slice(-1500)).toBe(130);
  });
  expect(existsSync(join(reports, 'certification.json'))).toBe(true);
  const cert = JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8'));
  expect(cert.interrupted).toBe(true);
  expect(cert.outcome).not.toBe('certified');
  expect(readFileSync(join(reports, 'summary.md'), 'utf8')).toMatch(/interrupted/i);
  // The traffic of the specs that ran before the interruption, as valid HAR.
  expect(harProblems(har(join(reports, 'traffic.har')))).toBe('valid');
}, 120_000);
