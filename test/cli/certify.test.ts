/**
 * The certification command as a user runs it (a child process): with no
 * configuration it certifies the embedded reference server and writes all five
 * reports; a broken server gives exit 1 and a certificate that names the
 * failure; production with writes off sends no POST; --dry-run sends nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { baseUrlHint } from '../../src/cli/preflight.ts';
import { runCli, tempReports } from '../support/cli.ts';
import { recordingReference, type Recorded } from '../support/recording.ts';

const FILES = ['index.html', 'certification.json', 'junit.xml', 'summary.md', 'badge.svg'];
let server: Recorded | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

describe('npm start', () => {
  test('With no configuration it certifies the embedded reference server, conformance and rate limits, and writes all five reports.', async () => {
    const reports = tempReports();
    const run = await runCli('src/cli/main.ts', [], { env: { ANIMAL_STORE_REPORTS_DIR: reports }, killAfterMs: 120_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toContain('CERTIFIED');
    for (const f of FILES) expect(existsSync(join(reports, f)), f).toBe(true);
    const cert = JSON.parse(read(reports, 'certification.json'));
    expect(cert.verdict).toBe('pass');
    expect(cert.load.map((l: { scenario: string }) => l.scenario)).toEqual(['ceiling', 'recovery']);
    expect(cert.requirements.find((r: { id: string }) => r.id === 'RL-RECOVERY').status).toBe('pass');
  }, 150_000);

  test('Against a broken server it exits 1 and the certificate names the failing requirement with its evidence.', async () => {
    server = await recordingReference({ faults: ['limit-ignored'] });
    const reports = tempReports();
    const run = await runCli('src/cli/main.ts', ['--base-url', server.baseUrl, '--plan', 'business', '--only', 'conformance'], {
      env: { ANIMAL_STORE_API_KEY: server.keys.business, ANIMAL_STORE_REPORTS_DIR: reports },
      killAfterMs: 90_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('LIST-LIMIT-HONOURED');
    const html = read(reports, 'index.html');
    expect(html).toContain('NOT CONFORMANT');
    expect(html).toContain('Page larger than limit');
    expect(read(reports, 'junit.xml')).toMatch(/<failure[^>]*>[^<]*LIST-LIMIT-HONOURED|LIST-LIMIT-HONOURED[\s\S]*?<failure/);
    expect(read(reports, 'summary.md')).toContain('LIST-LIMIT-HONOURED');
  }, 120_000);

  test('In production with writes off it sends no POST, and the skipped specs say why.', async () => {
    server = await recordingReference();
    const reports = tempReports();
    const run = await runCli('src/cli/main.ts', ['--env', 'production', '--plan', 'business'], {
      env: { ANIMAL_STORE_PRODUCTION_URL: server.baseUrl, ANIMAL_STORE_API_KEY: server.keys.business, ANIMAL_STORE_REPORTS_DIR: reports },
      killAfterMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
    const cert = JSON.parse(read(reports, 'certification.json'));
    const created = cert.requirements.find((r: { id: string }) => r.id === 'CREATE-201-PET');
    expect(created.status).toBe('skip');
    expect(JSON.stringify(created)).toContain('ANIMAL_STORE_ALLOW_WRITES');
    expect(cert.load ?? []).toEqual([]);
    expect(cert.notes.join(' ')).toMatch(/budget/i);
  }, 120_000);

  test('A dry run prints the planned requests per operation and the budget, and sends nothing to the target.', async () => {
    server = await recordingReference();
    const run = await runCli('src/cli/main.ts', ['--env', 'staging', '--dry-run'], {
      env: { ANIMAL_STORE_STAGING_URL: server.baseUrl, ANIMAL_STORE_API_KEY: server.keys.free },
      killAfterMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests).toEqual([]);
    expect(run.stdout).toMatch(/listPets \(GET\)\s+\d+/);
    expect(run.stdout).toMatch(/createPet \(POST\)\s+\d+/);
    expect(run.stdout).toMatch(/ceiling\s+at most 61/);
    expect(run.stdout).toMatch(/Budget: 5000 requests/);
  }, 60_000);

  test('--help lists every option and the exit codes; an unknown option is a usage error.', async () => {
    const help = await runCli('src/cli/main.ts', ['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--env', '--base-url', '--plan', '--allow-writes', '--only', '--dry-run', '--scenarios', '--allow-must-waivers'])
      expect(help.stdout).toContain(flag);
    expect(help.stdout).toMatch(/3 target unreachable/);
    const bad = await runCli('src/cli/main.ts', ['--frobnicate', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const key = await runCli('src/cli/main.ts', ['--api-key', 'x']);
    expect(key.code).toBe(2);
  }, 60_000);
});

test.each([
  ['http://127.0.0.1:4010', true],
  ['https://api.example.com/v2', true],
  ['https://api.example.com/v1', false],
  ['https://api.example.com/store/v1/', false],
])('A listPets answered 404 at %s gets a base-URL hint: %s.', (url, hinted) => {
  const { hint } = baseUrlHint(url);
  expect(hint !== undefined).toBe(hinted);
  if (hint) expect(hint).toContain('/v1');
});
