/**
 * The example GitHub workflows parse as YAML and have the structure of a valid
 * workflow: triggers, jobs with steps, the secrets passed only through `env`,
 * the JUnit published, the reports uploaded and the summary written even when
 * the certification fails, and the key never echoed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  steps: Step[];
  env?: Record<string, string>;
  environment?: string;
  'timeout-minutes'?: number;
}
interface Workflow {
  name: string;
  on: Record<string, any>;
  jobs: Record<string, Job>;
  permissions?: Record<string, string>;
}

const DIR = join(import.meta.dirname, '..', '.github', 'workflows');
const load = (file: string): Workflow => parse(readFileSync(join(DIR, file), 'utf8'), { strict: true, uniqueKeys: true }) as Workflow;

const FILES: [string, { env: string; secrets: string[]; triggers: string[]; command: RegExp }][] = [
  [
    'nightly-production.yml',
    {
      env: 'production',
      secrets: ['ANIMAL_STORE_API_KEY', 'ANIMAL_STORE_PRODUCTION_URL'],
      triggers: ['schedule', 'workflow_dispatch'],
      command: /npm start -- --env production\b/,
    },
  ],
  [
    'pre-release-staging.yml',
    {
      env: 'staging',
      secrets: ['ANIMAL_STORE_API_KEY', 'ANIMAL_STORE_STAGING_URL'],
      triggers: ['workflow_dispatch', 'push'],
      command: /npm start -- --env staging --scenarios ceiling,recovery\b/,
    },
  ],
];

const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
const stepUsing = (w: Workflow, action: string) => steps(w).find((s) => s.uses?.startsWith(`${action}@`));

describe.each(FILES)('%s', (file, expected) => {
  const w = load(file);

  it('It has a name, triggers and jobs whose steps each use an action or run a script.', () => {
    expect(typeof w.name).toBe('string');
    expect(Object.keys(w.on)).toEqual(expect.arrayContaining(expected.triggers));
    expect(Object.keys(w.jobs).length).toBeGreaterThan(0);
    for (const job of Object.values(w.jobs)) {
      expect(typeof job['runs-on']).toBe('string');
      expect(job['timeout-minutes']).toBeGreaterThan(0);
      expect(job.steps.length).toBeGreaterThan(0);
      for (const s of job.steps) expect([s.uses, s.run].filter(Boolean), JSON.stringify(s)).toHaveLength(1);
    }
  });

  it('Every action is pinned to a version.', () => {
    for (const s of steps(w).filter((x) => x.uses)) expect(s.uses).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
  });

  it('It installs with npm ci and runs the certification for its environment.', () => {
    const runs = steps(w).map((s) => s.run ?? '');
    expect(runs).toContain('npm ci');
    expect(runs.some((r) => expected.command.test(r))).toBe(true);
  });

  it('The secrets come from the repository and reach only the certify step, through env.', () => {
    const certify = steps(w).find((s) => expected.command.test(s.run ?? ''))!;
    for (const name of expected.secrets) expect(certify.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    const withSecrets = steps(w).filter((s) => JSON.stringify(s).includes('secrets.'));
    expect(withSecrets).toEqual([certify]);
  });

  it('No script echoes the key, prints the environment or interpolates an expression.', () => {
    for (const s of steps(w)) {
      const run = s.run ?? '';
      expect(run).not.toMatch(/ANIMAL_STORE_API_KEY|secrets\./);
      expect(run).not.toMatch(/\bset -x\b|\bprintenv\b|^\s*env\s*$/m);
      expect(run).not.toContain('${{');
    }
  });

  const always: [string, (w: Workflow) => Step | undefined, (s: Step) => void][] = [
    [
      'the JUnit report is published',
      (x) => stepUsing(x, 'dorny/test-reporter'),
      (s) => {
        expect(s.with?.path).toBe('reports/junit.xml');
        expect(s.with?.reporter).toBe('java-junit');
      },
    ],
    [
      'the reports directory (index.html) is uploaded as an artifact',
      (x) => stepUsing(x, 'actions/upload-artifact'),
      (s) => expect(s.with?.path).toBe('reports/'),
    ],
    [
      'summary.md is appended to the step summary',
      (x) => steps(x).find((s) => s.run?.includes('GITHUB_STEP_SUMMARY')),
      (s) => expect(s.run).toContain('cat reports/summary.md >> "$GITHUB_STEP_SUMMARY"'),
    ],
  ];
  it.each(always)('Even when the certification fails, %s.', (_name, find, check) => {
    const s = find(w);
    expect(s).toBeDefined();
    expect(s!.if).toBe('always()');
    check(s!);
  });

  it('Its permissions are read-only except for publishing checks.', () => {
    expect(w.permissions).toEqual({ contents: 'read', checks: 'write' });
  });
});

describe('the nightly production workflow', () => {
  it('It runs on a daily cron schedule of five fields.', () => {
    const [{ cron }] = load('nightly-production.yml').on.schedule as { cron: string }[];
    expect(cron.split(' ')).toHaveLength(5);
  });
});

describe('the pre-release staging workflow', () => {
  it('It runs on release branches and by hand, with the plan as an input.', () => {
    const w = load('pre-release-staging.yml');
    expect(w.on.push.branches).toEqual(['release/**']);
    expect(w.on.workflow_dispatch.inputs.plan.options).toEqual(['free', 'pro', 'business', 'enterprise']);
  });
});
