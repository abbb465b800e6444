/**
 * Hostile and broken servers: against each, the run ends by itself (its deadline and the transport's timeouts bound it),
 * names the expected failure, and the API key appears nowhere in the reports or
 * in the captured output. Every hostile fault is judged in process (the whole
 * suite against the broken server, then every report format written); the
 * command line itself — bounded time, exit code, redacted console — is run
 * against the faults that stress it most (a server that hangs, one that streams
 * a huge body, one that echoes the key).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { FAULTS, faultsFor, type FaultName } from '../../reference/faults.ts';
import { buildReport } from '../../src/results/aggregate.ts';
import { writeReports } from '../../src/results/writers/index.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { SMALL_EXPLORATION, SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';
import { filesContaining, LOADED_TEST_MS, runCli, tempReports, withReference } from '../support/cli.ts';
import { harProblems } from '../support/har.ts';

/** The run's own deadline (ANIMAL_STORE_DEADLINE_MS): the run ends by itself, long before the test kills it. */
const DEADLINE_MS = 45_000;

/** `requirement` and `status`: what the report must say (default: the fault's requirement, failed). */
const CASES: { fault: FaultName; code: number; requirement?: string; status?: 'fail' | 'warn' }[] = [
  { fault: 'huge-body', code: 1 },
  { fault: 'hang', code: 1 },
  // The echo is no conformance failure (exit 0), but the user is told: a hygiene warning, with redacted evidence.
  { fault: 'echo-key', code: 0, requirement: 'HYGIENE-CREDENTIAL-NOT-REFLECTED', status: 'warn' },
];

describe('every hostile fault, in process', () => {
  test.each(faultsFor('hostile').filter((f) => FAULTS[f].expect.requirement !== 'REDACTION'))(
    'With fault %s the suite reports the requirement that should catch it as failed, and no report holds the key.',
    async (fault) => {
      // Every request meets the fault, so the specs catch it: the exploration phase runs on a small budget.
      const run = await runSuiteAgainst(
        { faults: [fault] },
        { real: true, env: { ANIMAL_STORE_TIMEOUT_MS: '1000' }, exploreBudget: SMALL_EXPLORE_BUDGET },
      );
      expect(run.status(FAULTS[fault].expect.requirement), run.problems().join('\n')).toBe('fail');
      const report = buildReport({
        kind: 'certification',
        suiteVersion: 'test',
        specSha256: 'x',
        target: { env: 'local', baseUrl: 'http://127.0.0.1/v1', plan: 'business', embedded: false },
        startedAt: new Date(),
        endedAt: new Date(),
        requestsSent: run.requests,
        findings: run.findings,
      });
      expect(report.outcome).toBe('not-conformant');
      const dir = tempReports();
      writeReports(report, dir, undefined, makeRedactor([DEMO_KEYS.business]));
      expect(filesContaining(dir, DEMO_KEYS.business)).toEqual([]);
    },
    90_000,
  );
});

function certifyEnv(baseUrl: string, key: string, reports: string): Record<string, string> {
  return {
    ANIMAL_STORE_BASE_URL: baseUrl,
    ANIMAL_STORE_API_KEY: key,
    ANIMAL_STORE_PLAN: 'business',
    ANIMAL_STORE_TIMEOUT_MS: '1500',
    ANIMAL_STORE_DEADLINE_MS: String(DEADLINE_MS),
    ANIMAL_STORE_REPORTS_DIR: reports,
    // Every request meets the fault: the exploration phase runs (its traffic is searched for the key too), on a small budget.
    ...SMALL_EXPLORATION,
  };
}

describe('a certification run against a hostile server', () => {
  test.concurrent.each(CASES)(
    'Against a server with fault $fault the run ends in time with exit code $code, names the failure or warning and never leaks the key.',
    async ({ fault, code, requirement, status = 'fail' }) => {
      const reports = tempReports();
      const expected = requirement ?? FAULTS[fault].expect.requirement;
      await withReference({ faults: [fault] }, async (baseUrl, keys) => {
        const run = await runCli('src/cli/main.ts', ['--only', 'conformance'], {
          env: certifyEnv(baseUrl, keys.business, reports),
        });
        // Ended by itself (not killed after LOADED_KILL_MS): how long it took depends on the machine, not asserted.
        expect(run.signal).toBeNull();
        expect(run.code, run.stderr + run.stdout.slice(-2000)).toBe(code);
        const cert = JSON.parse(readFileSync(`${reports}/certification.json`, 'utf8'));
        const r = cert.requirements.find((x: { id: string }) => x.id === expected);
        expect(r.status, JSON.stringify(r.findings[0] ?? {})).toBe(status);
        expect(run.stdout).toContain(expected);
        expect(filesContaining(reports, keys.business)).toEqual([]);
        expect(run.stdout.includes(keys.business) || run.stderr.includes(keys.business)).toBe(false);
        // The run's traffic is among the files searched: written, valid, holding the responses that echoed the key.
        const traffic = JSON.parse(readFileSync(`${reports}/traffic.har`, 'utf8'));
        expect(harProblems(traffic)).toBe('valid');
        expect(traffic.log.entries.length).toBe(cert.traffic.entries);
        expect(run.stdout).toMatch(/reports: .*traffic\.har/);
      });
    },
    LOADED_TEST_MS,
  );
});

test('A refused connection ends the run at once with exit code 3 and one clear line.', async () => {
  const port = await new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
  const reports = tempReports();
  const run = await runCli('src/cli/main.ts', [], {
    env: certifyEnv(`http://127.0.0.1:${port}/v1`, 'as_secret_key_for_refused_test', reports),
    killAfterMs: 60_000,
  });
  expect(run.code).toBe(3);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(/unreachable.*connection refused/);
  expect(run.stderr + run.stdout).not.toContain('as_secret_key_for_refused_test');
}, 90_000);

test('A bad configuration gets one clear line and exit code 2, never a stack trace.', async () => {
  const run = await runCli('src/cli/main.ts', [], { env: { ANIMAL_STORE_ENV: 'production' }, killAfterMs: 30_000 });
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain('ANIMAL_STORE_PRODUCTION_URL');
  expect(run.stderr).not.toMatch(/\n\s+at /);
}, 90_000);
