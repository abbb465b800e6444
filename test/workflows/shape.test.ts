/**
 * The two example GitHub workflows, checked for their shape and, where they run
 * shell, for their behaviour: each file parses as YAML and has the structure of
 * a workflow; every secret and variable it uses is documented in its header; the
 * first step refuses to go on without the key's plan (and, for enterprise, its
 * limit) with an error naming the variable; the certify step is the suite's own
 * action (action.yml, tested in test/action/: it installs k6 with Grafana's action,
 * publishes the reports even when the certification fails) with the ceiling and
 * recovery scenarios, the plan from a variable and a request budget the suite
 * accepts; and the nightly keeps its history for the comparison and opens, updates
 * or closes an issue. Shell steps are run here with bash and a stand-in for npm; the
 * suite itself is asked for a dry run with the arguments the action's certify step
 * gives it for the workflow's inputs.
 */
import { describe, expect, it } from 'vitest';
import { k6VersionProblem } from '../../load/node/k6.ts';
import { PLANS } from '../../src/core/plans.ts';
import { SETTINGS } from '../../src/settings/settings.ts';
import { runCases } from '../support/cli.ts';
import { text, load, steps, certifyJob, stepById, used, documented, check } from '../support/workflows.ts';
import { action, expressions, fakeActionPath, jobFiles, runStep, stepNamed } from '../action/steps.ts';

interface Expected {
  env: 'production' | 'staging';
  triggers: string[];
  /** secret → the action's input it feeds in the certify step */
  secrets: Record<string, string>;
  vars: { plan: string; rpm: string; rpd: string; maxRequests: string };
  artifact: string;
}

const FILES: [string, Expected][] = [
  [
    'nightly-production.yml',
    {
      env: 'production',
      triggers: ['schedule', 'workflow_dispatch'],
      secrets: { ANIMAL_STORE_NIGHTLY_API_KEY: 'api-key', ANIMAL_STORE_PRODUCTION_URL: 'base-url' },
      vars: { plan: 'ANIMAL_STORE_PLAN', rpm: 'ANIMAL_STORE_RPM', rpd: 'ANIMAL_STORE_RPD', maxRequests: 'ANIMAL_STORE_MAX_REQUESTS' },
      artifact: '${{ env.REPORTS_ARTIFACT }}',
    },
  ],
  [
    'pre-release-staging.yml',
    {
      env: 'staging',
      triggers: ['workflow_dispatch', 'push'],
      secrets: { ANIMAL_STORE_STAGING_API_KEY: 'api-key', ANIMAL_STORE_STAGING_URL: 'base-url' },
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

  it("Every action is pinned to a major version, but the suite's own (./, this commit's).", () => {
    for (const s of steps(w).filter((x) => x.uses && x.uses !== './')) expect(s.uses).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w.-]+)*@v\d+$/);
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

  it('The secrets reach the certify step as inputs of the action, the configuration check only as "is it set", and nothing else.', () => {
    for (const [secret, input] of Object.entries(expected.secrets)) {
      expect(certify.with?.[input]).toBe(`\${{ secrets.${secret} }}`);
      expect(Object.values(config.env ?? {})).toContain(`\${{ secrets.${secret} != '' }}`);
    }
    const places = (text(file).match(/secrets\./g) ?? []).length;
    const given = [...Object.values(certify.with ?? {}), ...Object.values(config.env ?? {})];
    expect(given.filter((v) => String(v).includes('secrets.')).length).toBe(places);
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

  /** What the action's certify step hands the suite for the workflow's inputs: its arguments and the key. */
  async function handed(vars: Record<string, string>, budget: string): Promise<{ args: string[]; key: string }> {
    const inputs: Record<string, string> = {};
    for (const [name, v] of Object.entries(certify.with ?? {}))
      inputs[name] = String(v).replace(/\$\{\{ (.*?) \}\}/g, (_m, e: string) => {
        if (e.startsWith('vars.')) return vars[e.slice(5)] ?? '';
        if (e.startsWith('secrets.')) return /URL/.test(e) ? `https://${expected.env}.example.invalid/v1` : 'k'.repeat(32);
        if (e === 'steps.config.outputs.max-requests') return budget;
        if (e.startsWith('inputs.allow_must_waivers')) return '';
        if (e === 'env.REPORTS_ARTIFACT' || e === 'github.run_number') return 'certification';
        throw new Error(`unknown expression ${e}`);
      });
    const job = jobFiles();
    const engine = { "inputs.engine == 'k6' && steps.k6.outcome == 'success' && 'k6' || 'node'": 'node' };
    const r = await runStep(stepNamed('certify'), expressions(inputs, engine), { cwd: job.dir, job, actionPath: fakeActionPath() });
    return JSON.parse(r.stdout) as { args: string[]; key: string };
  }

  it('The suite accepts the arguments the action gives it for these inputs, and their dry run fits the budget.', async () => {
    // what the suite needs grows with the per-minute limit as the budget does: one plan of the
    // table and one enterprise plan (limits from the variables) cover both ways the check computes it
    const cases: Record<string, string>[] = [
      { [expected.vars.plan]: 'pro' },
      { [expected.vars.plan]: 'enterprise', [expected.vars.rpm]: '2000', [expected.vars.rpd]: '500000' },
    ];
    const neutral = Object.fromEntries(SETTINGS.filter((s) => s.env).map((s) => [s.env as string, ''])); // no .env value leaks in
    const budgets = cases.map((vars) => check(w, vars, {}).output['max-requests']);
    const given = await Promise.all(cases.map((vars, i) => handed(vars, budgets[i])));
    for (const g of given) expect(g.args.join(' ')).toContain(`--env ${expected.env} --plan`);
    // Both dry runs through npm start's certify() in this process (test/support/cli-cases.ts): what it says, not how
    // its process ends, which the other tests of npm start prove.
    const runs = await runCases('start', {
      table: { args: [...given[0].args, '--dry-run'], env: { ...neutral, ANIMAL_STORE_API_KEY: given[0].key } },
      enterprise: { args: [...given[1].args, '--dry-run'], env: { ...neutral, ANIMAL_STORE_API_KEY: given[1].key } },
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

  it("The certify step is the suite's action with the plan and its limits from the variables, the checked budget, the scenarios ceiling and recovery, k6, and this workflow's artifact and check run.", () => {
    expect(certify.uses).toBe('./');
    expect(certify.with).toMatchObject({
      env: expected.env,
      plan: `\${{ vars.${expected.vars.plan} }}`,
      rpm: `\${{ vars.${expected.vars.rpm} }}`,
      rpd: `\${{ vars.${expected.vars.rpd} }}`,
      'max-requests': '${{ steps.config.outputs.max-requests }}',
      scenarios: 'ceiling,recovery',
      engine: 'k6',
      'reports-dir': 'reports',
      'artifact-name': expected.artifact,
      'junit-check-name': `Animal Store certification (${expected.env})`,
    });
    expect(Object.keys(action().inputs)).toEqual(expect.arrayContaining(Object.keys(certify.with ?? {})));
    expect(certify.if).toBeUndefined();
  });

  it("k6 is pinned to v2.2.0, inside the range the suite verifies and accepts, and the action installs it with Grafana's setup action.", () => {
    expect(certify.with?.['k6-version']).toBe('2.2.0');
    expect(k6VersionProblem('k6', `k6 v${String(certify.with?.['k6-version'])}`)).toBeUndefined();
    expect(stepNamed('k6').uses).toBe('grafana/setup-k6-action@v1');
    expect(text(file)).toMatch(/k6 2\.2\.0 -- the newest of the versions the suite's bundles are verified on \(v1\.0\.0 to\n\s*# v2\.2\.x/);
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
