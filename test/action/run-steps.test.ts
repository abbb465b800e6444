/**
 * action.yml's shell steps, run as GitHub's runner runs them (test/action/steps.ts), against the reference server in
 * this process: the input check, the certify step (the suite from this checkout, as the action installs it), the
 * report step (job summary and outputs) and the last step (the job fails with the suite's exit code). The server
 * echoes the key in its responses (fault echo-key), and the key is still never printed: only the runner's
 * `::add-mask::` command holds it, which the runner takes out of the log.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesContaining, LOADED_KILL_MS, LOADED_TEST_MS, withReference } from '../support/cli.ts';
import { tempDir } from '../support/temp.ts';
import { action, expressions, fakeActionPath, jobFiles, runStep, stepNamed, type StepRun } from './steps.ts';

const ENGINE = "inputs.engine == 'k6' && steps.k6.outcome == 'success' && 'k6' || 'node'";
const lastStep = () => action().runs.steps.at(-1)!;
const printed = (r: StepRun) => r.stdout + r.stderr;

describe("The action's shell steps against the reference server", () => {
  it(
    'They certify a server that echoes the key: exit code 0, the verdict and paths as outputs, the headline in the job summary, and the key in no log line, summary, output or report.',
    async () => {
      await withReference({ faults: ['echo-key'] }, async (url, keys) => {
        const key = keys.pro;
        const job = jobFiles();
        const cwd = tempDir('action-workspace');
        const inputs = { 'base-url': url, plan: 'pro', 'api-key': key, args: '--only conformance --explore-budget 40' };
        const values = expressions(inputs, { [ENGINE]: 'node' });
        const check = await runStep(stepNamed('Check the inputs'), values, { cwd, job });
        expect([check.code, check.stdout]).toEqual([0, `::add-mask::${key}\n`]);
        const certify = await runStep(stepNamed('certify'), values, { cwd, job, killAfterMs: LOADED_KILL_MS });
        expect([certify.code, certify.output['exit-code']], printed(certify)).toEqual([0, '0']);
        const report = await runStep(stepNamed('report'), { ...values, 'steps.certify.outputs.exit-code': '0' }, { cwd, job });
        expect(report.code, printed(report)).toBe(0);
        expect(report.output).toEqual({
          verdict: 'incomplete',
          'exit-code': '0',
          certification: join(cwd, 'reports/certification.json'),
          badge: join(cwd, 'reports/badge.svg'),
          reports: join(cwd, 'reports'),
        });
        const cert = JSON.parse(readFileSync(report.output.certification, 'utf8'));
        expect([cert.target.baseUrl, cert.target.plan]).toEqual([url, 'pro']);
        expect(report.summary).toMatch(/^## 🟡 animal-store certification: \*\*PASSED, INCOMPLETE\*\*/);
        expect(report.summary).toContain('HYGIENE-CREDENTIAL-NOT-REFLECTED');
        for (const r of [certify, report]) expect(printed(r)).not.toContain(key);
        expect(printed(check).replace(`::add-mask::${key}\n`, '')).not.toContain(key);
        expect(report.summary + JSON.stringify(report.output)).not.toContain(key);
        expect(filesContaining(cwd, key)).toEqual([]);
        expect(filesContaining(job.dir, key).filter((f) => !f.endsWith('.sh'))).toEqual([]);
      });
    },
    LOADED_TEST_MS + LOADED_KILL_MS,
  );
});

describe('The input check', () => {
  const refused: [string, Record<string, string>, RegExp][] = [
    ['a base URL without a plan', { 'base-url': 'https://api.example.invalid/v1' }, /The input plan is required for a real target/],
    ['production without a plan', { env: 'production' }, /The input plan is required/],
    ['an engine the suite does not have', { engine: 'k7' }, /The input engine must be node or k6/],
    ['an environment the suite does not have', { env: 'prod', plan: 'pro' }, /The input env must be staging or production/],
  ];
  it.each(refused)(
    'It refuses %s with an ::error:: and a line in the job summary, after masking the key.',
    async (_name, inputs, message) => {
      const job = jobFiles();
      const r = await runStep(stepNamed('Check the inputs'), expressions({ ...inputs, 'api-key': 'sk_masked_0123456789' }), {
        cwd: job.dir,
        job,
      });
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n')[0]).toBe('::add-mask::sk_masked_0123456789');
      expect(r.stdout).toMatch(new RegExp(`^::error title=Configuration::${message.source}`, 'm'));
      expect(r.summary).toMatch(message);
    },
  );

  it('It takes the embedded server with no input, and a real target with its plan.', async () => {
    const job = jobFiles();
    const cases: Record<string, string>[] = [
      {},
      { 'base-url': 'https://api.example.invalid/v1', plan: 'free' },
      { env: 'staging', plan: 'pro', engine: 'k6' },
    ];
    for (const inputs of cases)
      expect((await runStep(stepNamed('Check the inputs'), expressions(inputs), { cwd: job.dir, job })).code).toBe(0);
  });
});

describe('The certify step', () => {
  it('It gives every input to animal-store-certify as its option, the extra arguments split on spaces, and the key in its environment only.', async () => {
    const fake = fakeActionPath(6);
    const job = jobFiles();
    const inputs = {
      'base-url': 'https://api.example.invalid/v1',
      env: 'production',
      plan: 'enterprise',
      rpm: '2000',
      rpd: '500000',
      'api-key': 'sk_given_0123456789',
      profile: 'full',
      scenarios: 'ceiling,recovery',
      'max-requests': '9000',
      args: ' --allow-must-waivers  --seed 7 ',
    };
    const r = await runStep(stepNamed('certify'), expressions(inputs, { [ENGINE]: 'k6' }), { cwd: job.dir, job, actionPath: fake });
    expect([r.code, r.output['exit-code']]).toEqual([0, '6']);
    expect(JSON.parse(r.stdout)).toEqual({
      args: [
        ...['--no-progress', '--engine', 'k6', '--reports-dir', 'reports', '--base-url', 'https://api.example.invalid/v1'],
        ...['--env', 'production', '--plan', 'enterprise', '--rpm', '2000', '--rpd', '500000', '--profile', 'full'],
        ...['--scenarios', 'ceiling,recovery', '--max-requests', '9000', '--allow-must-waivers', '--seed', '7'],
      ],
      key: 'sk_given_0123456789',
      input: null,
    });
  });
});

describe('The last step', () => {
  it.each([
    ['1', 1, 'exited with code 1'],
    ['', 1, 'exited with code (none: it did not run)'],
  ])('With the exit code %j it fails the job (exit %d) with an ::error:: that says it %s.', async (code, exit, words) => {
    const job = jobFiles();
    const r = await runStep(lastStep(), expressions({}, { 'steps.certify.outputs.exit-code': code }), { cwd: job.dir, job });
    expect(r.code).toBe(exit);
    expect(r.stdout).toContain(words);
  });
});
