/**
 * `npm run load` as a user runs it (a child process): one line and exit 2 for
 * every configuration error (the key refused as a flag, the plan never guessed
 * for a real target), exit 3 for an unreachable target, its own run folder and
 * one verdict line at the end, the key never printed, k6 run with its REST API
 * off, and a dry run that sends nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6 } from '../../load/node/k6.ts';
import { nodeArgs } from '../../bin/build.mjs';
import { emulatedK6, versionOnlyK6 } from '../support/k6-shim/bin.ts';
import { recordingReference } from '../support/recording.ts';
import { reportsDir, startReference, type Ref } from './helpers.ts';
import { tempDir } from '../support/temp.ts';
import { runCases, STARTED, type Case, type Outcome } from '../support/cli-cases.ts';
import { LOADED_TEST_MS } from '../support/cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const refs: Ref[] = [];
afterAll(() => Promise.all(refs.map((r) => r.close())));

/**
 * The environment of a user's shell without the suite's variables and K6_BIN, with `env` on top: this process's as it
 * started, never that of a main() running in it at the time (runCases).
 */
function cleanEnv(env: Record<string, string>): Record<string, string | undefined> {
  const clean: Record<string, string | undefined> = { ...STARTED };
  for (const k of Object.keys(clean)) if (k.startsWith('ANIMAL_STORE_') || k === 'K6_BIN') delete clean[k];
  return { ...clean, PATH: '/usr/bin:/bin', ...env };
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return node([join(ROOT, 'load', 'node', 'cli.ts'), ...args], env);
}

/**
 * Each case through the main() of `npm run load`, one after another in this process (test/support/cli-cases.ts), in
 * the environment cli() gives a process: a PATH without k6, no K6_BIN unless the case sets it.
 */
async function cliCases(cases: Case[]): Promise<Outcome[]> {
  const named = Object.fromEntries(cases.map((c, i) => [String(i), c]));
  const runs = await runCases('load', named, { PATH: '/usr/bin:/bin', K6_BIN: undefined });
  return cases.map((_, i) => runs[String(i)]);
}

function node(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs(args[0]), ...args.slice(1)], { cwd: ROOT, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const small = ['--plan', 'enterprise', '--rpm', '20', '--rpd', '100000', '--window-ms', '2000'];

const runFolder = (dir: string) => join(dir, 'load', readdirSync(join(dir, 'load'))[0]);

/** Refused before anything starts: exit 2, one line (the key in ANIMAL_STORE_API_KEY is abcdefgh, never shown). */
const CONFIG_ERRORS: [string[], Record<string, string>, RegExp][] = [
  [['--plan', 'gold'], {}, /^load: --plan must be free, pro, business, enterprise, got "gold"$/m],
  [['--scenarios', 'nope'], {}, /unknown rate-limit scenario/],
  [['--bogus'], {}, /unknown option --bogus/],
  [['--engine', 'k7'], {}, /^load: --engine must be auto, k6, node, got "k7"$/m],
  [[], { ANIMAL_STORE_ENGINE: 'k7' }, /^load: ANIMAL_STORE_ENGINE must be/m],
  [['--api-key', 'abcdefgh'], {}, /not accepted as a flag/],
  // the daily scenario spends a real key's whole quota: refused unless allowed (the embedded server's own key: allowed)
  [['--scenarios', 'daily', '--base-url', 'http://127.0.0.1:1/v1', '--plan', 'pro'], { ANIMAL_STORE_API_KEY: 'abcdefgh' }, /--allow-daily/],
  [['--scenarios', 'ceiling', '--base-url', 'http://127.0.0.1:1/v1'], { ANIMAL_STORE_API_KEY: 'abcdefgh' }, /--plan .*ANIMAL_STORE_PLAN/],
  [
    ['--scenarios', 'ceiling', '--base-url', 'http://127.0.0.1:1/v1', '--plan', 'enterprise'],
    { ANIMAL_STORE_API_KEY: 'abcdefgh' },
    /--rpm/,
  ],
  [['--base-url', 'http://127.0.0.1:1/v1', '--plan', 'free'], { ANIMAL_STORE_API_KEY: 'abcdefgh' }, /name the scenarios/],
  [['--engine', 'k6', ...small], { K6_BIN: '' }, /no k6 executable/],
  // --engine k6 with a k6 the suite refuses (older, a newer major, no version): refused before anything is sent
  [
    ['--engine', 'k6', ...small],
    { K6_BIN: versionOnlyK6('k6 v0.49.0 (go1.19.8, linux/amd64)') },
    /is k6 v0\.49\.0, older than the versions the suite is verified on \(k6 v1\.0\.0 to v2\.2\.x\): install/,
  ],
  [
    ['--scenarios', 'ceiling', '--engine', 'k6', ...small],
    { K6_BIN: versionOnlyK6('k6 v3.0.0 (go1.27.1, linux/amd64)') },
    /is k6 v3\.0\.0, a major release newer than .*--engine node; to verify it: K6_BIN=\S+ npx vitest run test\/load\/real-k6\.test\.ts$/m,
  ],
  [['--engine', 'k6', ...small], { K6_BIN: '/bin/false' }, /did not print a k6 version to `k6 version`/],
];

const ENGINES = ['node', 'k6'] as const;

/**
 * The cases that end before anything is sent — the configuration errors, an unreachable target on either engine, a
 * dry run — through main() one after another in this process (test/support/cli-cases.ts), started by the first test
 * that asks: a process each cost about half a CPU-second more. The entry point around main() (its exit codes, its
 * closed pipes) is proven by the runs below that are processes of their own, and by closed-pipe.test.ts.
 */
let sent: ReturnType<typeof runBeforeSending> | undefined;
const beforeSending = () => (sent ??= runBeforeSending());
async function runBeforeSending() {
  const server = await recordingReference();
  refs.push({ url: server.baseUrl, key: '', keys: server.keys as Ref['keys'], close: () => server.close() });
  const unreachable = ['--scenarios', 'ceiling', '--base-url', 'http://127.0.0.1:1/v1', '--plan', 'free'];
  // The k6 engine never runs a scenario: a stand-in that only answers `k6 version` stands in for k6.
  const K6_BIN = versionOnlyK6('k6 v2.2.0 (stand-in)');
  const cases: Case[] = [
    ...CONFIG_ERRORS.map(([args, env]) => ({ args, env })),
    ...ENGINES.map((e) => ({
      args: [...unreachable, '--engine', e, '--reports-dir', reportsDir()],
      env: { ANIMAL_STORE_API_KEY: 'abcdefgh', K6_BIN },
    })),
    {
      args: ['--dry-run', '--scenarios', 'ceiling,recovery', '--base-url', server.baseUrl, '--plan', 'free'],
      env: { ANIMAL_STORE_API_KEY: server.keys.free },
    },
  ];
  const runs = await cliCases(cases);
  const n = CONFIG_ERRORS.length;
  return { configErrors: runs.slice(0, n), unreachable: runs.slice(n, n + 2), dryRun: runs[n + 2], dryRunRequests: server.requests };
}

describe.concurrent('npm run load', () => {
  it(
    'Every configuration error is one line on stderr and exit 2, never a stack trace.',
    async () => {
      const runs = (await beforeSending()).configErrors;
      runs.forEach((r, i) => {
        expect(r.code, CONFIG_ERRORS[i][0].join(' ')).toBe(2);
        expect(r.stderr.trim().split('\n'), CONFIG_ERRORS[i][0].join(' ')).toHaveLength(1);
        expect(r.stderr).toMatch(CONFIG_ERRORS[i][2]);
        expect(r.stderr).not.toContain('abcdefgh');
      });
    },
    LOADED_TEST_MS,
  );

  it.each(ENGINES)(
    'An unreachable target is exit 3 with one diagnosis line on the %s engine, before any scenario starts.',
    async (engine) => {
      const r = (await beforeSending()).unreachable[engine === 'node' ? 0 : 1];
      expect(r.code).toBe(3);
      expect(r.stderr.trim().split('\n')).toEqual([
        'load: target unreachable: nothing listens at http://127.0.0.1:1/v1 (connection refused): is the server up, and the base URL right?',
      ]);
      expect(r.stdout).toBe('');
    },
    // The batch runs beside this file's other processes: up to 44 s on a 2-core machine at a load average of 30.
    LOADED_TEST_MS,
  );

  it(
    'Against the embedded server it runs the named scenarios in turn into its own run folder and ends with one verdict line.',
    async () => {
      const dir = reportsDir();
      const r = await cli(['--scenarios', 'ceiling,recovery', ...small, '--engine', 'node', '--reports-dir', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n').at(-1)).toMatch(
        /^load: PASS — every scenario passed \(2 scenario\(s\), \d+ requests, node engine\)$/,
      );
      for (const s of ['ceiling', 'recovery']) expect(existsSync(join(runFolder(dir), `load-${s}-enterprise.json`))).toBe(true);
      expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([]); // never over a certificate's files
      expect(r.stderr).toMatch(/waiting \d+\.\d s before recovery/);
    },
    LOADED_TEST_MS,
  );

  it(
    'A failed MUST is exit 1 and a FAIL line; the key never appears, even when the server echoes it.',
    async () => {
      // A 10-second window: the limit and the request after it fit in one window however busy the machine is.
      const ref = await startReference({ faults: ['never-429', 'echo-key'] }, 10_000);
      refs.push(ref);
      const dir = reportsDir();
      const args = [
        '--scenarios',
        'ceiling',
        '--base-url',
        ref.url,
        '--plan',
        'enterprise',
        '--rpm',
        '20',
        '--rpd',
        '100000',
        '--window-ms',
        '10000',
      ];
      const r = await cli([...args, '--engine', 'node', '--reports-dir', dir], { ANIMAL_STORE_API_KEY: ref.key });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/load: FAIL — ceiling failed a MUST requirement/);
      for (const text of [r.stdout, r.stderr, readFileSync(join(runFolder(dir), 'load-ceiling-enterprise.json'), 'utf8')])
        expect(text).not.toContain(ref.key);
    },
    LOADED_TEST_MS,
  );

  it(
    '--engine k6 runs the bundle with the k6 of K6_BIN (here a stand-in, a release newer than the verified ones) with its REST API off, says the release is not yet verified, and maps its exit code.',
    async () => {
      const ref = await startReference({ faults: ['never-429'] }, 2000);
      refs.push(ref);
      const k6 = emulatedK6('v2.3.0');
      const argsFile = join(tempDir('fake-k6-args'), 'args');
      const dir = reportsDir();
      // What main() does with k6 (its arguments, its exit code): in this process; exit 1 as a process is the test above.
      const [r] = await cliCases([
        {
          args: ['--scenarios', 'ceiling', '--base-url', ref.url, ...small, '--engine', 'k6', '--reports-dir', dir],
          env: { ANIMAL_STORE_API_KEY: ref.key, K6_BIN: k6, FAKE_K6_ARGS: argsFile },
        },
      ]);
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(readFileSync(join(runFolder(dir), 'load-ceiling-enterprise.json'), 'utf8'));
      expect(report).toMatchObject({ engine: 'k6', verdict: 'fail' });
      expect(JSON.parse(readFileSync(argsFile, 'utf8').trim())).toEqual(
        expect.arrayContaining(['run', '--address=', '--compatibility-mode=base']),
      );
      expect(r.stderr).toMatch(
        /^Rate limits on the k6 engine \(--engine k6\): \S+ is k6 v2\.3\.0, newer than .*: it runs, not yet verified; to verify it: /m,
      );
      expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^load: FAIL — ceiling failed .*, k6 engine on k6 v2\.3\.0, not yet verified\)$/);
      expect(r.stdout).not.toContain(ref.key);
      expect(findK6('/nonexistent', '')).toBeUndefined();
      expect(findK6('/nonexistent', '/opt/k6')).toBe('/opt/k6');
    },
    LOADED_TEST_MS,
  );

  it(
    "A dry run prints each scenario's cost from its caps and sends nothing.",
    async () => {
      const { dryRun: r, dryRunRequests } = await beforeSending();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /ceiling\s+about 61 requests in about \d+ s; at most 124 requests and \d+ s \(its caps\); up to 64 in flight on a slow server/,
      );
      expect(r.stdout).toMatch(/recovery\s+about 62 requests/);
      expect(dryRunRequests).toEqual([]);
    },
    LOADED_TEST_MS,
  );
});
