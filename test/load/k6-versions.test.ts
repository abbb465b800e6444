/**
 * The k6 version policy (load/README.md, k6 versions): a k6 older than the verified releases, a newer major, or one
 * that prints no version is refused — one line and exit 2 when k6 was asked for, the Node engine (saying why) under
 * --engine auto; a verified release runs; a newer release of the newest verified major runs, saying it is not yet
 * verified. Proven with stand-in k6 executables that report each version.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { k6Standing, k6VersionProblem, parseK6Version } from '../../load/node/k6.ts';
import { pickEngine } from '../../load/node/run.ts';
import { ConfigError, readConfig } from '../../src/settings/read-config.ts';
import { versionOnlyK6 } from '../support/k6-shim/bin.ts';
import { nodeArgs } from '../../bin/build.mjs';
import { LOADED_TEST_MS } from '../support/cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const VERSIONS = {
  'v0.49.0': 'k6 v0.49.0 (go1.19.8, linux/amd64)',
  'v1.0.0': 'k6 v1.0.0 (go1.25.12, linux/amd64)',
  'v2.2.0': 'k6 v2.2.0 (commit/devel, go1.25.12, linux/amd64)',
  'v2.3.0': 'k6 v2.3.0 (go1.25.12, linux/amd64)',
  'v3.0.0': 'k6 v3.0.0 (go1.27.1, linux/amd64)',
  unparseable: 'bash: k6: command not found',
} as const;
type Printed = keyof typeof VERSIONS;

describe('the suite’s standing on a k6 release', () => {
  it.each([
    [
      VERSIONS['v0.49.0'],
      'refused',
      /^\/opt\/k6 is k6 v0\.49\.0, older than the versions .*\(k6 v1\.0\.0 to v2\.2\.x\): install .*--engine node$/,
    ],
    ['k6 v0.57.0 (go1.24.1, linux/amd64)', 'refused', /is k6 v0\.57\.0, older than/],
    [VERSIONS['v1.0.0'], 'verified', undefined],
    [VERSIONS['v2.2.0'], 'verified', undefined],
    ['k6 v2.2.9 (go1.25.12, linux/amd64)\nExtensions:\n  github.com/x/xk6-y v0.1.0', 'verified', undefined],
    [
      VERSIONS['v2.3.0'],
      'unverified',
      /^\/opt\/k6 is k6 v2\.3\.0, newer than .*: it runs, not yet verified; to verify it: K6_BIN=\/opt\/k6 npx vitest run test\/load\/real-k6\.test\.ts$/,
    ],
    ['k6 v2.10.1', 'unverified', /is k6 v2\.10\.1, newer than/],
    [
      VERSIONS['v3.0.0'],
      'refused',
      /^\/opt\/k6 is k6 v3\.0\.0, a major release newer than .*: install .*--engine node; to verify it: K6_BIN=\/opt\/k6/,
    ],
    ['k6 v10.0.0', 'refused', /is k6 v10\.0\.0, a major release newer/],
    [VERSIONS.unparseable, 'refused', /^\/opt\/k6 did not print a k6 version to `k6 version` \("bash: k6: command not found"\): install/],
  ] as const)('`k6 version` printing %j stands %s, in one line.', (printed, status, line) => {
    expect(k6Standing('/opt/k6', printed).status).toBe(status);
    const problem = k6VersionProblem('/opt/k6', printed);
    expect(problem === undefined).toBe(status === 'verified');
    if (line) expect(problem).toMatch(line);
    if (problem) expect(problem.split('\n')).toHaveLength(1);
  });

  it('It reads the version from the first line naming the binary and its vX.Y.Z, whatever the binary is called.', () => {
    expect(parseK6Version('k6 v2.2.0 (commit/devel, go1.25.12, linux/amd64)')).toEqual([2, 2, 0]);
    expect(parseK6Version('k6-1.0 v1.0.0 (go1.25.12, linux/amd64)')).toEqual([1, 0, 0]);
    expect(parseK6Version('no version here')).toBeUndefined();
  });
});

/** The engine picked for `engine` with a stand-in k6 printing `printed`: its name and record, its line, or the refusal. */
function pick(engine: 'auto' | 'k6', printed: Printed) {
  const k6 = versionOnlyK6(VERSIONS[printed]);
  try {
    const p = pickEngine(
      readConfig({}, { engine }, 'load'),
      () => undefined,
      () => k6,
    );
    return { name: p.engine.name, record: p.record, line: p.line };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { refused: e.message };
  }
}

describe('the engine a run takes', () => {
  it.each([
    ['v1.0.0', 'verified', /^Rate limits on the k6 engine \(--engine auto\): k6 v1\.0\.0 at \S+, a version the suite is verified on$/],
    ['v2.2.0', 'verified', /^Rate limits on the k6 engine \(--engine auto\): k6 v2\.2\.0 at /],
    [
      'v2.3.0',
      'unverified',
      /^Rate limits on the k6 engine \(--engine auto\): \S+ is k6 v2\.3\.0, newer than .*: it runs, not yet verified; to verify it: K6_BIN=/,
    ],
  ] as const)('--engine auto with a k6 %s on hand takes k6 (%s), and says so in one line.', (printed, status, line) => {
    const p = pick('auto', printed);
    expect(p).toMatchObject({ name: 'k6', record: { name: 'k6', requested: 'auto', k6: { version: printed.slice(1), status } } });
    expect(p.line).toMatch(line);
    expect(pick('k6', printed)).toMatchObject({ name: 'k6', record: { requested: 'k6', k6: { status } } });
  });

  it.each([
    [
      'v0.49.0',
      /\(--engine auto\): \S+ is k6 v0\.49\.0, older than the versions .*; the Node engine runs the same scenarios$/,
      /is k6 v0\.49\.0, older/,
    ],
    [
      'v3.0.0',
      /\(--engine auto\): \S+ is k6 v3\.0\.0, a major release newer than .*; the Node engine runs the same scenarios$/,
      /is k6 v3\.0\.0, a major/,
    ],
    [
      'unparseable',
      /\(--engine auto\): \S+ did not print a k6 version .*; the Node engine runs the same scenarios$/,
      /did not print a k6 version/,
    ],
  ] as const)(
    '--engine auto with a k6 the suite refuses (%s) takes the Node engine, saying why; --engine k6 refuses it.',
    (printed, line, refusal) => {
      const p = pick('auto', printed);
      expect(p).toMatchObject({ name: 'node', record: { name: 'node', requested: 'auto', k6: { status: 'refused' } } });
      expect(p.line).toMatch(new RegExp(`^Rate limits on the Node engine ${line.source}`));
      expect(pick('k6', printed).refused).toMatch(refusal);
    },
  );

  it('--engine auto without any k6 takes the Node engine, and --engine node never looks for k6.', () => {
    const none = pickEngine(
      readConfig({}, { engine: 'auto' }, 'load'),
      () => undefined,
      () => undefined,
    );
    expect([none.engine.name, none.line]).toEqual(['node', 'Rate limits on the Node engine (--engine auto): no k6 on PATH or in K6_BIN']);
    const node = pickEngine(
      readConfig({}, { engine: 'node' }, 'load'),
      () => undefined,
      () => {
        throw new Error('--engine node looked for k6');
      },
    );
    expect([node.engine.name, node.record]).toEqual(['node', { name: 'node', requested: 'node', reason: 'as asked' }]);
  });
});

function load(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const clean: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(clean)) if (k.startsWith('ANIMAL_STORE_') || k === 'K6_BIN') delete clean[k];
    const child = spawn(process.execPath, [...nodeArgs('load/node/cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...clean, PATH: '/usr/bin:/bin', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent('npm run load with a k6 the suite refuses on PATH', () => {
  it.each(['v3.0.0', 'unparseable'] as const)(
    'With a k6 %s on PATH and no --engine, it runs on the Node engine and says why, instead of refusing.',
    async (printed) => {
      const k6 = versionOnlyK6(VERSIONS[printed]);
      const small = ['--scenarios', 'ceiling', '--plan', 'enterprise', '--rpm', '20', '--rpd', '100000', '--window-ms', '5000'];
      const r = await load([...small, '--reports-dir', join(k6, '..', 'reports')], { PATH: `${join(k6, '..')}:/usr/bin:/bin` });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^Rate limits on the Node engine \(--engine auto\): \S+\/k6 (is k6 v3\.0\.0|did not print).*; the Node engine runs the same scenarios$/m,
      );
      expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^load: PASS — .*, node engine\)$/);
    },
    LOADED_TEST_MS,
  );
});
