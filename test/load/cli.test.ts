/**
 * `npm run load`: exit codes (0 pass, 1 verdict failed, 2 configuration error,
 * 3 target unreachable), the embedded reference server when no base URL is set,
 * engine selection, and the progress line on stderr for runs longer than a few
 * seconds.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6, mapK6Exit } from '../../load/node/k6.ts';
import { reportsDir, startReference, type Ref } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const refs: Ref[] = [];
afterAll(() => Promise.all(refs.map((r) => r.close())));

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const clean: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(clean)) if (k.startsWith('ANIMAL_STORE_')) delete clean[k];
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'load', 'node', 'cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...clean, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent('load CLI', () => {
  it('exit 2 on a configuration error, one line, no stack trace', async () => {
    for (const args of [
      ['--scenario', 'ceiling', '--plan', 'gold'],
      ['--scenario', 'nope'],
      ['--scenario', 'ceiling,nope'],
      ['--scenario', 'ceiling', '--bogus'],
      ['--scenario', 'ceiling', '--engine', 'k7'],
      ['--scenario', 'daily', '--plan', 'enterprise', '--rpm', '20', '--rpd', '30'],
      ['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'abcdefgh'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 30000);

  it('exit 3 when the target is unreachable', async () => {
    const dir = reportsDir();
    const r = await cli([
      '--scenario',
      'ceiling',
      '--base-url',
      'http://127.0.0.1:1/v1',
      '--api-key',
      'abcdefgh',
      '--plan',
      'free',
      '--engine',
      'node',
      '--reports-dir',
      dir,
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/unreachable/);
  }, 30000);

  it('exit 0 with the embedded reference server (ANIMAL_STORE_ENV=local), a list of scenarios in turn, reports in the reports dir', async () => {
    const dir = reportsDir();
    const r = await cli(
      [
        '--scenario',
        'ceiling,recovery',
        '--plan',
        'enterprise',
        '--rpm',
        '20',
        '--rpd',
        '1000',
        '--window-ms',
        '2000',
        '--engine',
        'node',
        '--reports-dir',
        dir,
      ],
      { ANIMAL_STORE_ENV: 'local' },
    );
    expect(r.stdout).toMatch(/ceiling \(enterprise, node\).*PASS/);
    expect(r.stdout).toMatch(/recovery \(enterprise, node\).*PASS/);
    expect(r.code).toBe(0);
    for (const s of ['ceiling', 'recovery']) {
      expect(existsSync(join(dir, `load-${s}-enterprise.json`))).toBe(true);
      expect(existsSync(join(dir, `load-${s}-enterprise.junit.xml`))).toBe(true);
    }
  }, 30000);

  it('with no --scenario against the embedded reference server it runs every default scenario on its short window and passes', async () => {
    const dir = reportsDir();
    const r = await cli(['--plan', 'free', '--engine', 'node', '--no-progress', '--reports-dir', dir], { ANIMAL_STORE_ENV: 'local' });
    expect(r.code, r.stderr).toBe(0);
    for (const s of ['ceiling', 'recovery', 'sustained', 'overload']) {
      expect(r.stdout).toMatch(new RegExp(`${s} \\(free, node\\).*PASS`));
      expect(existsSync(join(dir, `load-${s}-free.json`))).toBe(true);
    }
  }, 60000);

  it('exit 1 when a verdict fails; the key never appears; progress on stderr once the run lasts a few seconds', async () => {
    const ref = await startReference({ faults: ['sustained-throttle', 'echo-key'] });
    refs.push(ref);
    const dir = reportsDir();
    const r = await cli([
      '--scenario',
      'sustained',
      '--base-url',
      ref.url,
      '--api-key',
      ref.key,
      '--plan',
      'enterprise',
      '--rpm',
      '20',
      '--rpd',
      '100000',
      '--window-ms',
      '2000',
      '--engine',
      'auto',
      '--reports-dir',
      dir,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[sustained enterprise\] \d+\.\ds · sent \d+ · 2xx \d+ · 429 \d+ · \d+\/min · ~\d+\.\ds left/);
    for (const text of [r.stdout, r.stderr, readFileSync(join(dir, 'load-sustained-enterprise.json'), 'utf8')])
      expect(text).not.toContain(ref.key);
  }, 30000);

  it('--engine k6 runs the bundle with the k6 on PATH (here a stand-in running the emulator) and maps its exit code', async () => {
    const ref = await startReference({ faults: ['never-429'] });
    refs.push(ref);
    const bin = mkdtempSync(join(tmpdir(), 'fake-k6-'));
    writeFileSync(
      join(bin, 'k6'),
      `#!/bin/sh\nexec "${process.execPath}" --import tsx "${join(ROOT, 'test', 'load', 'k6-shim', 'fake-k6.ts')}" "$@"\n`,
    );
    chmodSync(join(bin, 'k6'), 0o755);
    const dir = reportsDir();
    const args = [
      '--scenario',
      'ceiling',
      '--base-url',
      ref.url,
      '--api-key',
      ref.key,
      '--plan',
      'enterprise',
      '--rpm',
      '20',
      '--rpd',
      '100000',
      '--window-ms',
      '2000',
      '--reports-dir',
      dir,
    ];
    const r = await cli([...args, '--engine', 'auto'], { PATH: `${bin}:${process.env.PATH}` });
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'load-ceiling-enterprise.json'), 'utf8'));
    expect(report).toMatchObject({ engine: 'k6', verdict: 'fail' });
    expect(r.stdout).not.toContain(ref.key);
    expect((await cli([...args, '--engine', 'k6'], { PATH: '/nonexistent' })).code).toBe(2);
  }, 30000);

  it("engine auto picks k6 only when it is on PATH; k6 exit codes map to the suite's", () => {
    expect(findK6('/nonexistent')).toBeUndefined();
    expect([0, 99, 108, 107, 1].map(mapK6Exit)).toEqual([0, 1, 3, 2, 1]);
  });
});
