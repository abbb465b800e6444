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
 * ends CERTIFIED, in about 40 s: measured by hand, not here). On a machine too loaded for the client to keep its
 * pace, the scenarios' MUSTs are reported not exercised, with the reason, never failed: the test takes either.
 *
 * README's shell recipe for any CI runs here too, with bash, as written: the line that certifies a server by its base
 * address, against the reference server (with a 1 s window, which the run is told through the environment, as any
 * variable of a CI job), npx taking the package from the project instead of the registry.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withReference } from '../support/cli.ts';
import { readmeBlock } from '../support/readme-blocks.ts';
import { SMALL_EXPLORATION, SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';
import { installInto, pack, ROOT, run, userEnv, type Packed } from './packed.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
const LONG = 240_000;

/**
 * Whether the ceiling and recovery scenarios' MUSTs passed, or, on a machine too loaded for the client to keep its
 * pace, were reported not exercised with the reason (never failed): measured at a load average of 24, they were.
 */
function scenarioStatuses(cert: {
  requirements: { id: string; status: string }[];
  notExercised: { id: string; reason: string }[];
}): boolean[] {
  return ['RL-CEILING-429', 'RL-RECOVERY'].map((id) => {
    const status = cert.requirements.find((q) => q.id === id)?.status;
    return status === 'pass' || (status === 'skip' && cert.notExercised.some((n) => n.id === id && n.reason.length > 0));
  });
}

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
      // .env of the caller's folder: the exploration's seed, which the run prints, and its budget: the small one, since
      // what is judged here is the package (each part of the phase still runs; its reach is proven in test/explore).
      writeFileSync(join(project, '.env'), `ANIMAL_STORE_SEED=424242\nANIMAL_STORE_EXPLORE_BUDGET=${SMALL_EXPLORE_BUDGET}\n`);
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
        notExercised: { id: string; reason: string }[];
      };
      expect([cert.suiteName, cert.suiteVersion, cert.outcome, cert.counts.fail]).toEqual([pkg.name, pkg.version, 'incomplete', 0]);
      const status = (id: string) => cert.requirements.find((q) => q.id === id)?.status;
      expect(status('AUTH-MISSING-401')).toBe('pass');
      expect(scenarioStatuses(cert)).toEqual([true, true]);
      expect(readFileSync(join(project, 'reports/summary.md'), 'utf8')).toContain(`${pkg.name} ${pkg.version}`);
    },
    LONG,
  );
});

describe("README's shell recipe, run with bash in the project", () => {
  const recipe = readmeBlock('Any runner with Node (a shell recipe)', 'sh');
  const bash = (env: Record<string, string>) =>
    run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', recipe], { cwd: project, env: userEnv(env), killAfterMs: LONG });

  it('It is one npx line of this version of the package.', () => {
    expect(recipe.trim().split('\n')).toHaveLength(1);
    expect(recipe).toContain(`npx --yes ${pkg.name}@${pkg.version} `);
  });

  it(
    'It certifies a server by its base address: the key from the environment, the reports in the folder it ran in, exit 0.',
    async () => {
      await withReference({ windowMs: 1000 }, async (url, keys) => {
        const reports = join(project, 'reports-recipe');
        const env = { ANIMAL_STORE_BASE_URL: url, ANIMAL_STORE_PLAN: 'pro', ANIMAL_STORE_API_KEY: keys.pro };
        const r = await bash({
          ...env,
          ANIMAL_STORE_WINDOW_MS: '1000',
          ANIMAL_STORE_REPORTS_DIR: 'reports-recipe',
          ANIMAL_STORE_SEED: '7',
          // Any variable of a CI job reaches the run: the exploration on the small budget (what is judged is the line).
          ...SMALL_EXPLORATION,
        });
        expect(r.code, r.stderr + r.stdout.slice(-3000)).toBe(0);
        const cert = JSON.parse(readFileSync(join(reports, 'certification.json'), 'utf8')) as {
          target: { baseUrl: string; plan: string; embedded: boolean };
          counts: { fail: number };
          requirements: { id: string; status: string }[];
          notExercised: { id: string; reason: string }[];
        };
        expect([cert.target.baseUrl, cert.target.plan, cert.target.embedded, cert.counts.fail]).toEqual([url, 'pro', false, 0]);
        expect(scenarioStatuses(cert)).toEqual([true, true]);
        expect(r.stdout + r.stderr).not.toContain(keys.pro);
      });
    },
    LONG,
  );

  it.each([
    ['ANIMAL_STORE_BASE_URL', 'the base address, ending in /v1'],
    ['ANIMAL_STORE_PLAN', 'the plan of the key'],
  ])('Without %s it stops with "%s", before the suite runs: never the embedded server instead.', async (missing, words) => {
    const env: Record<string, string> = {
      ANIMAL_STORE_BASE_URL: 'http://127.0.0.1:9/v1',
      ANIMAL_STORE_PLAN: 'pro',
      ANIMAL_STORE_API_KEY: 'sk_unused_0123456789',
    };
    delete env[missing];
    const r = await bash({ ...env, ANIMAL_STORE_REPORTS_DIR: 'reports-refused' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(words);
    expect(existsSync(join(project, 'reports-refused'))).toBe(false);
  });
});
