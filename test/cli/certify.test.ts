/**
 * The certification command as a user runs it (a child process). The verdict
 * names its scope: with no configuration it plans every scenario on the
 * embedded server's short world (that it certifies is proven on simulated
 * time, default-run.test.ts, and measured by npm run bench); with fewer
 * scenarios it is INCOMPLETE, listing exactly the MUSTs it did not exercise
 * (exit 4 under --require-complete); the full profile plans every scenario
 * (its certifying run is proven on simulated time in full-profile.test.ts); a broken server is NOT CONFORMANT (exit 1); production with
 * writes off sends no POST and never shows the certified wording; without a
 * plan the scenarios refuse to start and RL-LIMIT-PLAN is never failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { baseUrlHint } from '../../src/http/preflight.ts';
import { LOADED_TEST_MS, runCases, runCli, tempReports } from '../support/cli.ts';
import { recordingReference, type Recorded } from '../support/recording.ts';
import { SMALL_EXPLORATION } from '../support/explore-budget.ts';
import type { RunReport } from '../../src/results/types.ts';

const FILES = ['index.html', 'certification.json', 'junit.xml', 'summary.md', 'badge.svg'];
const servers: Recorded[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(options = {}) {
  const s = await recordingReference(options);
  servers.push(s);
  return s;
}

/**
 * The dry runs and --help: what npm start says, not how its process ends (the other tests run it as a process of its
 * own), each through certify() in this process (test/support/cli-cases.ts), started by the first test that asks: a
 * process each cost about half a CPU-second more. The staging dry run's server records what it was sent.
 */
let said: ReturnType<typeof whatItSays> | undefined;
async function whatItSays() {
  const staging = await server();
  const full = ['--profile', 'full', '--plan', 'enterprise', '--rpm', '20', '--rpd', '400', '--dry-run'];
  const env = {};
  const runs = await runCases('start', {
    noConfiguration: { args: ['--dry-run'], env },
    // On the embedded server the daily scenario is allowed unless refused; elsewhere only with --allow-daily.
    fullWithoutDaily: { args: [...full, '--allow-daily', 'false'], env },
    full: { args: full, env },
    staging: {
      args: ['--env', 'staging', '--plan', 'free', '--dry-run'],
      env: { ANIMAL_STORE_STAGING_URL: staging.baseUrl, ANIMAL_STORE_API_KEY: staging.keys.free },
    },
    help: { args: ['--help'], env },
  });
  return { ...runs, staging: { ...runs.staging, requests: staging.requests } };
}
const dryRuns = () => (said ??= whatItSays());

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');
const cert = (dir: string) => JSON.parse(read(dir, 'certification.json'));
const status = (c: { requirements: { id: string; status: string }[] }, id: string) => c.requirements.find((r) => r.id === id)?.status;

describe.concurrent('npm start', () => {
  test(
    'With no configuration it plans every scenario on the embedded server, names its short world, and says how long it takes.',
    async () => {
      const run = (await dryRuns()).noConfiguration;
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/\nThe embedded reference server runs a short world: a 1 s window and a quota day of \d+ s\./);
      for (const s of ['ceiling', 'recovery', 'sustained', 'overload', 'daily'])
        expect(run.stdout).toMatch(new RegExp(`\\n  ${s}\\s+about \\d+ requests`));
      expect(run.stdout).toMatch(
        /expected duration about \d+ s \(at most about \d+ s: the daily scenario first waits for a fresh quota day\)/,
      );
    },
    LOADED_TEST_MS,
  );

  // The runs below that explore judge something else than the exploration phase: it runs on a small budget.
  test(
    'With fewer scenarios than every MUST needs it passes as INCOMPLETE, listing exactly the MUSTs it did not exercise (exit 4 under --require-complete).',
    async () => {
      const reports = tempReports();
      // That the default run certifies is proven on simulated time (default-run.test.ts). On the real clock the short world
      // is sized to this machine (measured before the rate-limit scenarios): a 1 s window on a quiet one, longer on a busy
      // one, so that the ceiling's burst is reachable with room to spare. The recovery scenario alone (a ceiling, then the wait and the
      // probe) judges every requirement of the ceiling too.
      const run = await runCli('src/cli/main.ts', ['--require-complete', '--scenarios', 'recovery'], {
        env: { ANIMAL_STORE_REPORTS_DIR: reports, ...SMALL_EXPLORATION },
      });
      expect(run.code, run.stderr.slice(-2000)).toBe(4);
      expect(run.stdout).toContain('PASSED, INCOMPLETE');
      expect(run.stdout).not.toContain('CERTIFIED');
      for (const f of FILES) expect(existsSync(join(reports, f)), f).toBe(true);
      const c = cert(reports);
      expect(c.outcome).toBe('incomplete');
      // The MUSTs no chosen scenario exercises, each with its remedy; beyond them, only what a recovery that fell short
      // of its rate twice (a machine too busy for the window it measured: a second attempt, and the report says so)
      // left unexercised — never a failure, which the exit code 4 above already rules out.
      const unexercised: string[] = c.notExercised.map((n: { id: string }) => n.id);
      const choice = ['RL-DAILY-QUOTA', 'RL-SUSTAINED-BELOW-CEILING', 'RL-WINDOW-PER-MINUTE'];
      expect(unexercised).toEqual(expect.arrayContaining(choice));
      for (const n of c.notExercised.filter((x: { id: string }) => choice.includes(x.id)))
        expect(n.remedy).toMatch(/--profile full|--scenarios/);
      expect(c.load.map((l: { scenario: string }) => l.scenario)).toEqual(['recovery']);
      const shortTwice = (c.load[0].notes ?? []).some((n: string) => n.startsWith('Second attempt'));
      if (!shortTwice) expect(unexercised.sort()).toEqual(choice);
      for (const id of ['RL-CEILING-429', 'RL-NOT-EARLY', 'RL-429-RETRY-AFTER', 'RL-RECOVERY'])
        if (!unexercised.includes(id)) expect(status(c, id), id).toBe('pass');
      // The world says what it was sized to: the rate measured, and the rate a window asks (at most 300 a second) — the
      // window doubled for each second attempt whose client fell short of it (a machine busier than measured).
      const w = c.target.world;
      expect(w.machine.measuredPerS).toBeGreaterThan(0);
      expect(w.windowMs).toBe(2 ** (w.widened ?? 0) * 1000 * Math.ceil(300 / w.machine.windowRatePerS));
      expect(run.stderr).toMatch(/Sized to this machine: it sustained \d+ responses a second against the embedded server/);
      expect(read(reports, 'summary.md')).not.toContain('✅');
      expect(read(reports, 'badge.svg')).not.toContain('#2e9e47');
    },
    LOADED_TEST_MS,
  );

  test(
    'The full profile plans conformance with writes and every per-minute scenario, the daily one only when allowed, with cost and duration first.',
    async () => {
      const { fullWithoutDaily: full, full: daily } = await dryRuns();
      for (const r of [full, daily]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/createPet \(POST\)\s+\d+/);
        for (const s of ['ceiling', 'recovery', 'sustained', 'overload'])
          expect(r.stdout).toMatch(new RegExp(`\\n  ${s}\\s+about \\d+ requests`));
        expect(r.stdout).toMatch(/expected duration about \d+ s/);
      }
      expect(full.stdout).not.toMatch(/\n {2}daily\s+about/);
      expect(daily.stdout).toMatch(/\n {2}daily\s+about \d+ requests/);
    },
    LOADED_TEST_MS,
  );

  test(
    'Against a broken server it exits 1 and the certificate names the failing requirement with its evidence.',
    async () => {
      const s = await server({ faults: ['limit-ignored'] });
      const reports = tempReports();
      const run = await runCli('src/cli/main.ts', ['--base-url', s.baseUrl, '--plan', 'business', '--only', 'conformance'], {
        env: { ANIMAL_STORE_API_KEY: s.keys.business, ANIMAL_STORE_REPORTS_DIR: reports, ...SMALL_EXPLORATION },
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('LIST-LIMIT-HONOURED');
      // Short enough to read at 3 a.m.: under 40 lines in all, the failing requirement among the first 10
      // (the live lines on stderr come first, then the verdict block).
      const lines = `${run.stderr}${run.stdout}`.trim().split('\n');
      expect(lines.length).toBeLessThan(40);
      expect(lines.slice(0, 10).join('\n')).toContain('LIST-LIMIT-HONOURED');
      expect(read(reports, 'index.html')).toContain('NOT CONFORMANT');
      expect(read(reports, 'junit.xml')).toMatch(/<failure[^>]*>[^<]*LIST-LIMIT-HONOURED|LIST-LIMIT-HONOURED[\s\S]*?<failure/);
      expect(read(reports, 'summary.md')).toContain('LIST-LIMIT-HONOURED');
    },
    LOADED_TEST_MS,
  );

  test(
    'Several plans in one run: each plan on its own key, its own result and console line; the run certified only when every plan is.',
    async () => {
      const reports = tempReports();
      // A 20 s window (not the embedded 5 s): the bursts of both plans fit well inside one window on a busy machine.
      const args = ['--plans', 'free,pro', '--only', 'load', '--scenarios', 'ceiling', '--window-ms', '20000'];
      const run = await runCli('src/cli/main.ts', args, {
        env: { ANIMAL_STORE_REPORTS_DIR: reports },
      });
      expect(run.code, run.stderr).toBe(0);
      const r = JSON.parse(read(reports, 'certification.json')) as RunReport;
      // On a mismatch, say which judgement was not a pass (and why), so a rare failure on a busy machine can be acted on.
      const notPassed = r.plans?.flatMap((p) =>
        p.load.flatMap((l) =>
          l.judgements.filter((j) => j.outcome !== 'pass').map((j) => `${p.plan}: ${j.requirement} ${j.outcome} ${j.title}: ${j.message}`),
        ),
      );
      expect(
        r.plans?.map((p) => [p.plan, p.perMinute, p.load.map((l) => `${l.scenario} ${l.plan} ${l.verdict}`)]),
        JSON.stringify(notPassed),
      ).toEqual([
        ['free', 60, ['ceiling free pass']],
        ['pro', 300, ['ceiling pro pass']],
      ]);
      // Conformance did not run: no plan is certified, and no conformance key is named.
      expect(r.outcome).toBe('incomplete');
      expect(r.conformanceKey).toBeUndefined();
      expect(run.stdout).toMatch(/\n {2}🟡 free: PASSED, INCOMPLETE · 60\/min/);
      expect(run.stdout).toMatch(/\n {2}🟡 pro: PASSED, INCOMPLETE · 300\/min/);
    },
    LOADED_TEST_MS,
  );

  test(
    'A refused key stops the run at once with exit 5 and a one-line diagnosis before any detail.',
    async () => {
      const s = await server({});
      const run = await runCli('src/cli/main.ts', ['--base-url', s.baseUrl, '--plan', 'free'], {
        env: { ANIMAL_STORE_API_KEY: 'not_a_valid_key_123', ANIMAL_STORE_REPORTS_DIR: tempReports() },
      });
      expect(run.code).toBe(5);
      expect(run.stdout).toMatch(/\n {2}diagnosis: the API key was refused \(every authenticated request was answered 401\)/);
      expect(`${run.stdout}${run.stderr}`).not.toContain('not_a_valid_key_123');
    },
    LOADED_TEST_MS,
  );

  test(
    'In production with writes off it sends no POST, the skipped specs say why, and a server that breaks them is never CERTIFIED.',
    async () => {
      const s = await server({ faults: ['never-429', 'missing-field-accepted'] });
      const reports = tempReports();
      const run = await runCli('src/cli/main.ts', ['--env', 'production', '--plan', 'business'], {
        env: { ANIMAL_STORE_PRODUCTION_URL: s.baseUrl, ANIMAL_STORE_API_KEY: s.keys.business, ANIMAL_STORE_REPORTS_DIR: reports },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('PASSED, INCOMPLETE');
      expect(run.stdout).not.toContain('CERTIFIED');
      // No create: every-method.spec.ts's POST goes only to an id no server issued, without a valid key.
      expect(s.requests.filter((r) => r.method === 'POST' && !/\/pets\/9223372036854770001$/.test(r.url))).toEqual([]);
      const c = cert(reports);
      expect(c.outcome).toBe('incomplete');
      const created = c.requirements.find((r: { id: string }) => r.id === 'CREATE-201-PET');
      expect(created.status).toBe('skip');
      expect(created.notExercised.remedy).toMatch(/--allow-writes/);
      expect(c.notExercised.map((n: { id: string }) => n.id)).toEqual(
        expect.arrayContaining(['CREATE-201-PET', 'RL-CEILING-429', 'RL-RECOVERY']),
      );
      expect(read(reports, 'summary.md')).not.toContain('✅');
    },
    LOADED_TEST_MS,
  );

  test(
    'Without a plan, a real target is judged without guessing one: RL-LIMIT-PLAN is not exercised, and the scenarios refuse to start.',
    async () => {
      const s = await server();
      const reports = tempReports();
      const env = {
        ANIMAL_STORE_BASE_URL: s.baseUrl,
        ANIMAL_STORE_API_KEY: s.keys.pro,
        ANIMAL_STORE_REPORTS_DIR: reports,
        ...SMALL_EXPLORATION,
      };
      const run = await runCli('src/cli/main.ts', ['--only', 'conformance'], { env });
      expect(run.code, run.stderr).toBe(0);
      const c = cert(reports);
      expect(status(c, 'RL-LIMIT-PLAN')).toBe('skip');
      const plan = c.requirements.find((r: { id: string }) => r.id === 'RL-LIMIT-PLAN');
      expect(plan.observations.join(' ')).toMatch(/matches the pro \(300 per minute\) plan/);
      expect(plan.notExercised.remedy).toMatch(/--plan/);
      const refused = await runCli('src/cli/main.ts', ['--scenarios', 'ceiling'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/--plan .*ANIMAL_STORE_PLAN/);
      expect(s.requests.length).toBeGreaterThan(0);
    },
    LOADED_TEST_MS,
  );

  test(
    "A dry run prints the planned requests per operation, each scenario's cost and the expected duration, and sends nothing.",
    async () => {
      const run = (await dryRuns()).staging;
      expect(run.code, run.stderr).toBe(0);
      expect(run.requests).toEqual([]);
      expect(run.stdout).toMatch(/listPets \(GET\)\s+\d+/);
      expect(run.stdout).toMatch(/createPet \(POST\)\s+\d+/);
      expect(run.stdout).toMatch(/ceiling\s+about 61 requests/);
      expect(run.stdout).toMatch(/expected duration about \d+ s/);
    },
    LOADED_TEST_MS,
  );

  test(
    '--help lists every option, the outcomes and the exit codes; the key as a flag is a one-line usage error.',
    async () => {
      // The usage error ends its process (exit 2): a process of its own.
      const [{ help }, bad] = await Promise.all([dryRuns(), runCli('src/cli/main.ts', ['--api-key', 'x'])]);
      expect(help.code).toBe(0);
      for (const flag of [
        '--env',
        '--base-url',
        '--plan',
        '--allow-writes',
        '--only',
        '--dry-run',
        '--scenarios',
        '--profile',
        '--require-complete',
        '--engine',
      ])
        expect(help.stdout).toContain(flag);
      expect(help.stdout).toMatch(/4 passed but incomplete under --require-complete/);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toMatch(/not accepted as a flag/);
    },
    LOADED_TEST_MS,
  );
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
