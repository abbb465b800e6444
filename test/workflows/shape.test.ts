/**
 * The two example GitHub workflows, checked for their shape and, where they run
 * shell, for their behaviour: each file parses as YAML and has the structure of
 * a workflow; every secret and variable it uses is documented in its header; the
 * first step refuses to go on without the key's plan (and, for enterprise, its
 * limit) with an error naming the variable; the certify step runs the ceiling and
 * recovery scenarios with the plan from a variable, a request budget the suite
 * accepts, and k6 installed by Grafana's action; the reports are published even
 * when the certification fails; and the nightly keeps its history for the
 * comparison and opens, updates or closes an issue. Shell steps are run here
 * with bash and a stand-in for npm; the suite itself is asked for a dry run with
 * the environment the workflow gives it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { k6VersionProblem } from '../../load/node/k6.ts';
import { PLANS } from '../../src/core/plans.ts';
import { SETTINGS } from '../../src/settings/settings.ts';
import { runCases } from '../support/cli.ts';
import {
  type Step,
  type Workflow,
  text,
  load,
  steps,
  stepUsing,
  certifyJob,
  stepById,
  indexOf,
  used,
  documented,
  runShell,
  evaluate,
  check,
} from '../support/workflows.ts';
import { tempDir } from '../support/temp.ts';

interface Expected {
  env: 'production' | 'staging';
  command: RegExp;
  triggers: string[];
  /** secret → the suite variable it feeds in the certify step */
  secrets: Record<string, string>;
  vars: { plan: string; rpm: string; rpd: string; maxRequests: string };
  artifact: string;
}

const FILES: [string, Expected][] = [
  [
    'nightly-production.yml',
    {
      env: 'production',
      command: /^npm start -- --env production --scenarios ceiling,recovery$/m,
      triggers: ['schedule', 'workflow_dispatch'],
      secrets: { ANIMAL_STORE_NIGHTLY_API_KEY: 'ANIMAL_STORE_API_KEY', ANIMAL_STORE_PRODUCTION_URL: 'ANIMAL_STORE_PRODUCTION_URL' },
      vars: { plan: 'ANIMAL_STORE_PLAN', rpm: 'ANIMAL_STORE_RPM', rpd: 'ANIMAL_STORE_RPD', maxRequests: 'ANIMAL_STORE_MAX_REQUESTS' },
      artifact: '${{ env.REPORTS_ARTIFACT }}',
    },
  ],
  [
    'pre-release-staging.yml',
    {
      env: 'staging',
      command: /^npm start -- --env staging --scenarios ceiling,recovery "\$\{extra\[@\]\}"$/m,
      triggers: ['workflow_dispatch', 'push'],
      secrets: { ANIMAL_STORE_STAGING_API_KEY: 'ANIMAL_STORE_API_KEY', ANIMAL_STORE_STAGING_URL: 'ANIMAL_STORE_STAGING_URL' },
      vars: {
        plan: 'ANIMAL_STORE_STAGING_PLAN',
        rpm: 'ANIMAL_STORE_STAGING_RPM',
        rpd: 'ANIMAL_STORE_STAGING_RPD',
        maxRequests: 'ANIMAL_STORE_STAGING_MAX_REQUESTS',
      },
      artifact: 'certification-staging-${{ github.run_number }}',
    },
  ],
];

describe.each(FILES)('%s', (file, expected) => {
  const w = load(file);
  const certify = stepById(w, 'certify');
  const config = stepById(w, 'config');

  it('It parses as YAML and has a name, triggers and jobs whose steps each use an action or run a script.', () => {
    expect(typeof w.name).toBe('string');
    expect(Object.keys(w.on)).toEqual(expect.arrayContaining(expected.triggers));
    expect(Object.keys(w.jobs).length).toBeGreaterThan(0);
    for (const job of Object.values(w.jobs)) {
      expect(typeof job['runs-on']).toBe('string');
      expect(job['timeout-minutes']).toBeGreaterThan(0);
      expect(job.steps.length).toBeGreaterThan(0);
      for (const s of job.steps) {
        expect(typeof s.name, JSON.stringify(s)).toBe('string');
        expect([s.uses, s.run].filter(Boolean), JSON.stringify(s)).toHaveLength(1);
      }
    }
  });

  it('Every action is pinned to a major version.', () => {
    for (const s of steps(w).filter((x) => x.uses)) expect(s.uses).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w.-]+)*@v\d+$/);
  });

  it('Every secret and variable it uses is documented in its header, under the right heading, and every one documented is used.', () => {
    const docs = documented(file);
    const secrets = used(file, 'secrets');
    const vars = used(file, 'vars');
    expect(secrets).toEqual(Object.keys(expected.secrets).sort());
    expect(vars).toEqual(Object.values(expected.vars).sort());
    for (const name of secrets) expect(docs.get(name), name).toMatch(/secrets/i);
    for (const name of vars) expect(docs.get(name), name).toMatch(/variables/i);
    expect([...docs.keys()].sort()).toEqual([...secrets, ...vars].sort());
  });

  it('The secrets reach the certify step as values, the configuration check only as "is it set", and nothing else.', () => {
    for (const [secret, variable] of Object.entries(expected.secrets)) {
      expect(certify.env?.[variable]).toBe(`\${{ secrets.${secret} }}`);
      expect(Object.values(config.env ?? {})).toContain(`\${{ secrets.${secret} != '' }}`);
    }
    const places = (text(file).match(/secrets\./g) ?? []).length;
    const inEnv = [certify, config].flatMap((s) => Object.values(s.env ?? {})).filter((v) => v.includes('secrets.')).length;
    expect(inEnv).toBe(places);
    expect(JSON.stringify({ ...w, jobs: undefined })).not.toContain('secrets.');
    for (const job of Object.values(w.jobs)) expect(JSON.stringify({ ...job, steps: undefined })).not.toContain('secrets.');
  });

  it('No script echoes the key, prints the environment or interpolates an expression.', () => {
    for (const s of steps(w)) {
      const run = s.run ?? '';
      expect(run).not.toMatch(/ANIMAL_STORE_API_KEY|secrets\.|vars\./);
      expect(run).not.toMatch(/\bset -x\b|\bprintenv\b|^\s*env\s*$/m);
      expect(run).not.toContain('${{');
      expect(JSON.stringify(s.with?.script ?? '')).not.toContain('${{');
    }
  });

  it('The first step checks the configuration, before anything is installed.', () => {
    expect(certifyJob(w).steps[0]).toBe(config);
  });

  it('Without the plan variable the first step fails with an ::error:: naming the variable, and says so in the job summary.', () => {
    const r = check(w, {}, {});
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`^::error title=Configuration::The variable ${expected.vars.plan} is not set: .*free, pro, business or enterprise`, 'm'),
    );
    expect(r.summary).toContain(`The variable ${expected.vars.plan} is not set`);
    expect(r.output.error).toContain(expected.vars.plan);
    expect(r.output['max-requests']).toBeUndefined();
  });

  it('An enterprise plan without the per-minute variable fails with an ::error:: naming that variable.', () => {
    const r = check(w, { [expected.vars.plan]: 'enterprise' }, {});
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`^::error title=Configuration::The plan is enterprise, so the variable ${expected.vars.rpm} must`, 'm'),
    );
    expect(check(w, { [expected.vars.plan]: 'enterprise', [expected.vars.rpm]: 'lots' }, {}).code).toBe(1);
  });

  it('A plan the suite does not know, per-minute or per-day limits given for a fixed plan, and bad numbers are refused.', () => {
    const bad = (vars: Record<string, string>, words: RegExp) => {
      const r = check(w, vars, {});
      expect(r.code, JSON.stringify(vars)).toBe(1);
      expect(r.stdout, JSON.stringify(vars)).toMatch(words);
    };
    bad({ [expected.vars.plan]: 'gold' }, new RegExp(`${expected.vars.plan} must be free, pro, business or enterprise`));
    bad({ [expected.vars.plan]: 'pro', [expected.vars.rpm]: '500' }, /apply only to the enterprise plan/);
    bad(
      { [expected.vars.plan]: 'enterprise', [expected.vars.rpm]: '500', [expected.vars.rpd]: 'many' },
      new RegExp(`${expected.vars.rpd} must be`),
    );
    bad({ [expected.vars.plan]: 'pro', [expected.vars.maxRequests]: '-1' }, new RegExp(`${expected.vars.maxRequests} must be`));
  });

  it('A missing key or address secret fails the first step with an ::error:: naming the secret, without its value.', () => {
    const [key, url] = Object.keys(expected.secrets);
    const r = check(w, { [expected.vars.plan]: 'pro' }, { [key]: false, [url]: false });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^::error title=Configuration::The secret ${key} is not set`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^::error title=Configuration::The secret ${url} is not set`, 'm'));
  });

  it('With a plan the check passes and gives a request budget covering conformance plus the two scenarios, unless the budget variable overrides it.', () => {
    const table = { free: PLANS.free.perMinute, pro: PLANS.pro.perMinute, business: PLANS.business.perMinute };
    for (const [plan, perMinute] of Object.entries(table)) {
      const r = check(w, { [expected.vars.plan]: ` ${plan.toUpperCase()} ` }, {});
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).not.toContain('::error');
      expect(r.output['max-requests']).toBe(String(1000 + 4 * perMinute));
    }
    expect(check(w, { [expected.vars.plan]: 'enterprise', [expected.vars.rpm]: '2000' }, {}).output['max-requests']).toBe('9000');
    expect(check(w, { [expected.vars.plan]: 'pro', [expected.vars.maxRequests]: '4321' }, {}).output['max-requests']).toBe('4321');
  });

  it('The suite accepts the environment the certify step gives it, and the dry run of the same command fits the budget.', async () => {
    // what the suite needs grows with the per-minute limit as the budget does: one plan of the
    // table and one enterprise plan (limits from the variables) cover both ways the check computes it
    const cases: Record<string, string>[] = [
      { [expected.vars.plan]: 'pro' },
      { [expected.vars.plan]: 'enterprise', [expected.vars.rpm]: '2000', [expected.vars.rpd]: '500000' },
    ];
    const neutral = Object.fromEntries(SETTINGS.filter((s) => s.env).map((s) => [s.env as string, ''])); // no .env value leaks in
    const args = expected.command.source.match(/--env \w+ --scenarios [\w,]+/)![0].split(' ');
    const budgets = cases.map((vars) => check(w, vars, {}).output['max-requests']);
    const env = (vars: Record<string, string>, budget: string) => {
      const values: Record<string, string> = { 'steps.config.outputs.max-requests': budget };
      for (const [k, v] of Object.entries(certify.env ?? {})) {
        const m = /^\$\{\{ (vars|secrets)\.(\w+) \}\}$/.exec(v);
        if (m && m[1] === 'vars') values[`vars.${m[2]}`] = vars[m[2]] ?? '';
        if (m && m[1] === 'secrets')
          values[`secrets.${m[2]}`] = /URL/.test(m[2]) ? `https://${expected.env}.example.invalid/v1` : 'k'.repeat(32);
        if (k === 'ANIMAL_STORE_ENGINE') values[v.slice(4, -3)] = 'node';
        if (k === 'ALLOW_MUST_WAIVERS') values[v.slice(4, -3)] = 'false';
      }
      return { ...neutral, ...evaluate(certify.env ?? {}, values) };
    };
    // Both dry runs through npm start's certify() in this process (test/support/cli-cases.ts): what it says, not how
    // its process ends, which the other tests of npm start prove.
    const runs = await runCases('start', {
      table: { args: [...args, '--dry-run'], env: env(cases[0], budgets[0]) },
      enterprise: { args: [...args, '--dry-run'], env: env(cases[1], budgets[1]) },
    });
    [runs.table, runs.enterprise].forEach((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      const m = /Budget: (\d+) requests .*needs at most about (\d+)/.exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();
      expect(Number(m![1])).toBe(Number(budgets[i]));
      expect(Number(m![2]), `${JSON.stringify(cases[i])}\n${r.stdout}`).toBeLessThanOrEqual(Number(m![1]));
      expect(r.stdout).toMatch(/ceiling.*\n.*recovery/);
    });
  }, 120_000);

  it('The certify step runs the command with the plan and its limits from the variables, the checked budget and the engine k6 installed.', () => {
    expect(certify.run).toMatch(expected.command);
    expect(certify.env?.ANIMAL_STORE_PLAN).toBe(`\${{ vars.${expected.vars.plan} }}`);
    expect(certify.env?.ANIMAL_STORE_RPM).toBe(`\${{ vars.${expected.vars.rpm} }}`);
    expect(certify.env?.ANIMAL_STORE_RPD).toBe(`\${{ vars.${expected.vars.rpd} }}`);
    expect(certify.env?.ANIMAL_STORE_MAX_REQUESTS).toBe('${{ steps.config.outputs.max-requests }}');
    expect(certify.env?.ANIMAL_STORE_ENGINE).toBe("${{ steps.k6.outcome == 'success' && 'k6' || 'node' }}");
    expect(certify.env?.ANIMAL_STORE_REPORTS_DIR).toBe('reports');
    expect(certify.if).toBeUndefined();
  });

  it("The certify step passes the suite's exit code on, and records it as a step output.", () => {
    for (const code of ['0', '1', '3', '6']) {
      const r = runShell(certify.run!, { FAKE_EXIT: code, ALLOW_MUST_WAIVERS: 'false' });
      expect(r.code).toBe(Number(code));
      expect(r.output['exit-code']).toBe(code);
      expect(readFileSync(join(r.dir, 'args'), 'utf8').split('\n').filter(Boolean)).toEqual([
        'start',
        '--',
        '--env',
        expected.env,
        '--scenarios',
        'ceiling,recovery',
      ]);
    }
  });

  it("k6 is installed by Grafana's setup action, pinned to k6 v2.2.0, inside the range the suite verifies and accepts, before the certify step; the Node engine is the announced fallback.", () => {
    const k6 = stepUsing(w, 'grafana/setup-k6-action')!;
    expect(k6).toBeDefined();
    expect(k6.uses).toBe('grafana/setup-k6-action@v1');
    expect(k6.id).toBe('k6');
    expect(k6.with?.['k6-version']).toBe('2.2.0');
    expect(k6VersionProblem('k6', `k6 v${String(k6.with?.['k6-version'])}`)).toBeUndefined();
    expect(k6['continue-on-error']).toBe(true);
    expect(indexOf(w, k6)).toBeGreaterThan(
      indexOf(
        w,
        certifyJob(w).steps.find((s) => s.run === 'npm ci')!,
      ),
    );
    expect(indexOf(w, k6)).toBeLessThan(indexOf(w, certify));
    expect(text(file)).toMatch(/# k6 2\.2\.0, the newest of the versions the suite's bundles are verified on \(v1\.0\.0 to\n\s*# v2\.2\.x/);
    const fallback = certifyJob(w).steps.find((s) => s.if === "steps.k6.outcome == 'failure'")!;
    expect(fallback.run).toMatch(/^echo "::warning title=k6 not installed::.*Node engine/m);
    expect(fallback.run).toContain('GITHUB_STEP_SUMMARY');
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
      "this run's reports (index.html and the rest) are uploaded as an artifact",
      (x) => stepUsing(x, 'actions/upload-artifact'),
      (s) => {
        expect(String(s.with?.path).trim().split('\n')).toEqual(['reports/', '!reports/runs/**']);
        expect(s.with?.name).toBe(expected.artifact);
        expect(s.with?.overwrite).toBe(true);
      },
    ],
    [
      'summary.md is appended to the step summary',
      (x) => steps(x).find((s) => s.name === 'Write the step summary'),
      (s) => expect(s.run).toContain('cat reports/summary.md >> "$GITHUB_STEP_SUMMARY"'),
    ],
  ];
  it.each(always)('Even when the certification fails, %s.', (_name, find, check) => {
    const s = find(w);
    expect(s).toBeDefined();
    expect(s!.if).toBe('always()');
    check(s!);
  });

  it('The step summary shows summary.md, or says why there is none: the exit code and its meaning, or that the certification did not run.', () => {
    const s = steps(w).find((x) => x.name === 'Write the step summary')!;
    expect(s.env?.EXIT_CODE).toBe('${{ steps.certify.outputs.exit-code }}');
    const dir = tempDir('wf');
    mkdirSync(join(dir, 'reports'));
    writeFileSync(join(dir, 'reports', 'summary.md'), '## ❌ animal-store certification: **NOT CONFORMANT**\n');
    expect(runShell(s.run!, { EXIT_CODE: '1' }, dir).summary).toBe('## ❌ animal-store certification: **NOT CONFORMANT**\n');
    const unreachable = runShell(s.run!, { EXIT_CODE: '3' });
    expect(unreachable.code).toBe(0);
    expect(unreachable.summary).toMatch(/^No summary\.md was written: the certification exited with code 3 \(the target was unreachable\)/);
    expect(runShell(s.run!, { EXIT_CODE: '' }).summary).toMatch(/^No summary\.md was written: the certification did not run/);
  });

  it('Its permissions are nothing by default, and the certify job may only read the code and publish checks.', () => {
    expect(w.permissions).toEqual({});
    expect(certifyJob(w).permissions).toEqual({ contents: 'read', checks: 'write' });
  });

  it('Checkouts keep no credentials for the steps that follow.', () => {
    const checkouts = steps(w).filter((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkouts.length).toBeGreaterThan(0);
    for (const s of checkouts) expect(s.with?.['persist-credentials']).toBe(false);
  });

  it('It runs in a concurrency group.', () => {
    expect(typeof w.concurrency?.group).toBe('string');
  });
});
