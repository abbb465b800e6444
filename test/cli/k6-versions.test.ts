/**
 * `npm start` whatever k6 is on PATH: with a release newer than the verified ones (a stand-in saying k6 v2.3.0) it
 * runs the rate-limit scenarios on it and ends CERTIFIED, saying the release is not yet verified on the console and in
 * certification.json — proven on simulated time (the engine npm start picks from PATH, the bundles in the emulator
 * on the run's clock), and as a user runs it (a child process, fewer scenarios); with a release the suite refuses
 * (a new major) it runs on the Node engine and records why.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import { findK6 } from '../../load/node/k6.ts';
import { pickEngine } from '../../load/node/run.ts';
import { ajv } from '../../src/schemas/project-ajv.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderJson } from '../../src/results/writers/report-json.ts';
import { certifyVirtually, notPassedMusts } from '../support/certify-virtual.ts';
import { LOADED_TEST_MS, runCli, tempReports } from '../support/cli.ts';
import { emulatedK6, versionOnlyK6 } from '../support/k6-shim/bin.ts';
import { builtBundles } from '../support/bundles.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';

const bundles = builtBundles('k6-versions-dist');
const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;
const valid = (data: unknown) => (validate(data) ? 'valid' : ajv.errorsText(validate.errors));
const UNVERIFIED = /rate limits on the k6 engine \(k6 v2\.3\.0, not yet verified: the suite is verified on k6 v1\.0\.0 to v2\.2\.x\)$/m;

describe('npm start with a k6 newer than the verified releases on PATH', () => {
  it(
    'Runs every scenario on that k6 and ends CERTIFIED, saying on the console and in certification.json that k6 v2.3.0 is not yet verified.',
    async () => {
      const config = readConfig({}, {}, 'start');
      // The k6 npm start finds on PATH (no K6_BIN): a stand-in that says it is k6 v2.3.0.
      const onPath = findK6(dirname(versionOnlyK6('k6 v2.3.0 (go1.25.12, linux/amd64)')), '');
      const picked = pickEngine(
        config,
        () => undefined,
        () => onPath,
      );
      expect(picked.line).toMatch(
        /^Rate limits on the k6 engine \(--engine auto\): \S+ is k6 v2\.3\.0, newer than .*: it runs, not yet verified; /,
      );
      const { report } = await certifyVirtually(
        config,
        {},
        {
          asIs: true,
          engine: { record: picked.record, make: (app, clock) => new EmulatedK6(bundles.dir, app, clock) },
        },
      );
      expect(notPassedMusts(report)).toEqual([]);
      expect(report.load?.map((l) => [l.scenario, l.engine])).toEqual(
        ['ceiling', 'recovery', 'sustained', 'overload', 'daily'].map((s) => [s, 'k6']),
      );
      const text = renderConsole(report);
      expect(text.split('\n')[0]).toMatch(/^animal-store certification: CERTIFIED — /);
      expect(text).toMatch(UNVERIFIED);
      const json = JSON.parse(renderJson(report));
      expect(json.outcome).toBe('certified');
      expect(json.engine).toMatchObject({
        name: 'k6',
        requested: 'auto',
        k6: { version: '2.3.0', status: 'unverified', verifiedOn: 'k6 v1.0.0 to v2.2.x' },
      });
      // certifyVirtually names no spec hash ('x'): the certificate of a run of npm start holds one.
      expect(valid({ ...json, specSha256: '0'.repeat(64) })).toBe('valid');
    },
    LOADED_TEST_MS,
  );
});

describe.concurrent('npm start as a user runs it, whatever k6 is on PATH', () => {
  const args = [
    '--only',
    'load',
    '--scenarios',
    'ceiling',
    '--plan',
    'enterprise',
    '--rpm',
    '20',
    '--rpd',
    '100000',
    '--window-ms',
    '5000',
  ];
  const run = (k6: string) => {
    const reports = tempReports();
    const env = { PATH: `${dirname(k6)}:/usr/bin:/bin`, K6_BIN: '', ANIMAL_STORE_REPORTS_DIR: reports };
    return runCli('src/cli/main.ts', args, { env }).then((r) => ({
      ...r,
      cert: JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8')),
    }));
  };

  it(
    'With k6 v2.3.0 on PATH it runs the scenarios on it, says in one line before them that the release is not yet verified, and records it.',
    async () => {
      const r = await run(emulatedK6('v2.3.0'));
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(r.stderr).toMatch(
        /^Rate limits on the k6 engine \(--engine auto\): \S+\/k6 is k6 v2\.3\.0, newer than .*: it runs, not yet verified; to verify it: K6_BIN=\S+\/k6 npx vitest run test\/load\/real-k6\.test\.ts$/m,
      );
      expect(r.stdout).toMatch(UNVERIFIED);
      expect(r.cert.engine).toMatchObject({ name: 'k6', requested: 'auto', k6: { version: '2.3.0', status: 'unverified' } });
      expect(r.cert.load.map((l: { engine: string }) => l.engine)).toEqual(['k6']);
    },
    LOADED_TEST_MS,
  );

  it(
    'With k6 v3.0.0 on PATH it runs the scenarios on the Node engine, says why in one line before them, and records the k6 it left.',
    async () => {
      const r = await run(versionOnlyK6('k6 v3.0.0 (go1.27.1, linux/amd64)'));
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(r.stderr).toMatch(
        /^Rate limits on the Node engine \(--engine auto\): \S+\/k6 is k6 v3\.0\.0, a major release newer than .*; the Node engine runs the same scenarios$/m,
      );
      expect(r.stdout).toMatch(/rate limits on the node engine$/m);
      expect(r.cert.engine).toMatchObject({ name: 'node', requested: 'auto', k6: { version: '3.0.0', status: 'refused' } });
    },
    LOADED_TEST_MS,
  );
});
