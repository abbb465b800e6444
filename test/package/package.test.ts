/**
 * The package an implementer installs (issue 38): `npm pack` ships what a user runs and nothing else, and the tarball,
 * installed into an empty project with its runtime dependencies only, certifies with `npx animal-store-certify` run
 * from that project's folder: `.env` read from there, the reports written there, the suite's name and version in
 * them and in `--version`.
 *
 * What the run proves, kept cheap for `npm test` (about 15 s of install from npm's cache and 12 s of run on a quiet
 * machine): the embedded reference server, the conformance specs, the exploration and the ceiling and recovery
 * scenarios on the Node engine — every part of the suite's machinery (the build from the shipped sources, Vitest,
 * the reference server, the load engine, every writer) — end PASSED, INCOMPLETE with no failure and exit 0; the
 * sustained, overload and daily scenarios are left out (the default `npx animal-store-certify` runs them too and
 * ends CERTIFIED, in about 40 s: measured by hand, not here).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installInto, pack, ROOT, run, userEnv, type Packed } from './packed.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
const LONG = 240_000;

let packed: Packed;
let project: string;

beforeAll(async () => {
  packed = await pack();
  project = await installInto(packed.tarball);
}, LONG);

describe('npm pack', () => {
  it('Ships the sources a user runs: the command, the suite, the conformance specs, the k6 sources, the reference server, the schemas and the spec.', () => {
    for (const f of [
      'package.json',
      'README.md',
      '.env.example',
      'bin/certify.mjs',
      'bin/run.mjs',
      'bin/build.mjs',
      'src/cli/main.ts',
      'conformance/auth/rejects-bad-credentials.spec.ts',
      'load/k6/plan-run.ts',
      'load/build.ts',
      'reference/main.ts',
      'schemas/openapi.json',
      'schemas/certification.schema.json',
      'spec/animal-store-spec.md',
      'tsconfig.json',
    ])
      expect(packed.files, f).toContain(f);
  });

  it('Ships no test, benchmark, fixture, example server, workflow, build output or report.', () => {
    const unwanted =
      /^(test|bench|examples|\.github|\.ci|reports|node_modules|load\/dist)\/|fixture|\.test\.ts$|^(waivers\.json|vitest\.config\.ts|conformance\.config\.ts|eslint\.config\.js)$/;
    expect(packed.files.filter((f) => unwanted.test(f))).toEqual([]);
    expect(packed.files.length).toBeLessThan(320);
  });
});

describe('The installed tarball, run from an empty project', () => {
  it('Names the package and its version with --version.', async () => {
    const r = await run('npx', ['animal-store-certify', '--version'], { cwd: project, env: userEnv() });
    expect([r.code, r.stdout.trim()]).toEqual([0, `${pkg.name} ${pkg.version}`]);
    expect(Object.keys(pkg.bin)).toEqual([pkg.name]);
  });

  it(
    'Certifies the embedded reference server with one npx command: .env read from the project, the reports written in it, exit 0.',
    async () => {
      // .env of the caller's folder: the exploration's seed, which the run prints.
      writeFileSync(join(project, '.env'), 'ANIMAL_STORE_SEED=424242\n');
      const r = await run('npx', ['animal-store-certify', '--scenarios', 'ceiling,recovery', '--no-progress'], {
        cwd: project,
        env: userEnv(),
        killAfterMs: LONG,
      });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(r.stdout + r.stderr).toContain('seed 424242');
      expect(r.stdout).toContain('animal-store certification: PASSED, INCOMPLETE');
      for (const f of ['index.html', 'certification.json', 'junit.xml', 'summary.md', 'badge.svg', 'traffic.har'])
        expect(existsSync(join(project, 'reports', f)), f).toBe(true);
      const cert = JSON.parse(readFileSync(join(project, 'reports/certification.json'), 'utf8')) as {
        suiteName: string;
        suiteVersion: string;
        outcome: string;
        counts: { fail: number; pass: number };
        requirements: { id: string; status: string }[];
      };
      expect([cert.suiteName, cert.suiteVersion, cert.outcome, cert.counts.fail]).toEqual([pkg.name, pkg.version, 'incomplete', 0]);
      const status = (id: string) => cert.requirements.find((q) => q.id === id)?.status;
      expect(['AUTH-MISSING-401', 'RL-CEILING-429', 'RL-RECOVERY'].map(status)).toEqual(['pass', 'pass', 'pass']);
      expect(readFileSync(join(project, 'reports/summary.md'), 'utf8')).toContain(`${pkg.name} ${pkg.version}`);
    },
    LONG,
  );
});
