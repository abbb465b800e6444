/**
 * What each example workflow does beyond the shape both share: the nightly's
 * schedule, concurrency and issue; the staging run's triggers, its waivers and
 * its own variable names. What both carry from run to run: run-memory.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';
import { load, stepById, header, used } from '../support/workflows.ts';

describe('the nightly production workflow', () => {
  const file = 'nightly-production.yml';
  const w = load(file);
  const job = w.jobs.certify;

  it('It runs on a daily cron schedule of five fields, and by hand.', () => {
    const [{ cron }] = w.on.schedule as { cron: string }[];
    expect(cron.split(' ')).toHaveLength(5);
    expect(w.on.workflow_dispatch).toBeDefined();
  });

  it('Its runs never overlap: they would share the key.', () => {
    expect(w.concurrency).toEqual({ group: 'nightly-production', 'cancel-in-progress': false });
  });

  it('Its header says the key is dedicated to it and why: the scenarios use up its per-minute allowance.', () => {
    const h = header(file).join('\n');
    expect(h).toMatch(/ANIMAL_STORE_NIGHTLY_API_KEY\s+a production API key used by this workflow and nothing else/);
    expect(h).toMatch(/spend the key's whole\n#\s+per-minute allowance/);
  });

  it('The certify job hands its exit code and configuration error to the report job.', () => {
    expect(job.outputs).toEqual({
      'exit-code': '${{ steps.certify.outputs.exit-code }}',
      'config-error': '${{ steps.config.outputs.error }}',
    });
  });

  it('After every run, even a failed one, the report job may only read the code and write issues.', () => {
    const report = w.jobs.report;
    expect(report.needs).toBe('certify');
    expect(report.if).toBe('always()');
    expect(report.permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(Object.keys(w.jobs)).toEqual(['certify', 'report']);
  });

  it("The report job reads the run's certification.json from the artifact the certify job uploaded.", () => {
    const report = w.jobs.report;
    const checkout = report.steps.find((s) => s.uses === 'actions/checkout@v4')!;
    expect(checkout.with?.['sparse-checkout']).toBe('.github/scripts');
    const download = report.steps.find((s) => s.uses === 'actions/download-artifact@v4')!;
    expect(download.with?.name).toBe('${{ env.REPORTS_ARTIFACT }}');
    expect(download.with?.path).toBe('reports');
    expect(download['continue-on-error']).toBe(true);
    expect(w.env?.REPORTS_ARTIFACT).toBe('certification-production-${{ github.run_number }}');
  });

  it('The report job opens, updates or closes the issue with the script, given the results through env only.', () => {
    const s = w.jobs.report.steps.find((x) => x.uses === 'actions/github-script@v7')!;
    expect(s.env).toEqual({
      CERTIFY_RESULT: '${{ needs.certify.result }}',
      EXIT_CODE: '${{ needs.certify.outputs.exit-code }}',
      CONFIG_ERROR: '${{ needs.certify.outputs.config-error }}',
      REPORT_FILE: 'reports/certification.json',
    });
    const script = String(s.with?.script);
    expect(script).toContain('require(`${process.env.GITHUB_WORKSPACE}/.github/scripts/nightly-issue.cjs`)');
    expect(script).toContain('await nightly.main({ github, context, core, env: process.env })');
    expect(existsSync(join(ROOT, '.github', 'scripts', 'nightly-issue.cjs'))).toBe(true);
    expect(s.with?.['github-token']).toBeUndefined();
  });
});

describe('the pre-release staging workflow', () => {
  const w = load('pre-release-staging.yml');

  it('It runs on release branches and by hand, in the staging environment; the plan is no input but a variable.', () => {
    expect(w.on.push.branches).toEqual(['release/**']);
    expect(Object.keys(w.on.workflow_dispatch.inputs)).toEqual(['allow_must_waivers']);
    expect(w.jobs.certify.environment).toBe('staging');
  });

  it('Only when asked does it let waivers cover MUST requirements (the action splits its args input into options).', () => {
    const certify = stepById(w, 'certify');
    expect(certify.with?.args).toBe("${{ inputs.allow_must_waivers && '--allow-must-waivers' || '' }}");
  });

  it('It uses variable names of its own, so a staging run never picks up the nightly plan.', () => {
    const nightly = used('nightly-production.yml', 'vars');
    for (const name of used('pre-release-staging.yml', 'vars')) expect(nightly).not.toContain(name);
  });

  it('Both workflows check their configuration with the same script.', () => {
    const nightly = load('nightly-production.yml');
    expect(stepById(w, 'config').run).toBe(stepById(nightly, 'config').run);
  });
});
