/**
 * action.yml against GitHub's own schema of action metadata (`@actions/workflow-parser`'s action parser, the
 * schema behind GitHub's editor support), and the rules a composite action that holds a key must keep: no script
 * interpolates an expression, the key reaches only the step that masks it and the one that gives it to the suite,
 * every action used is pinned to a major version, k6 comes from Grafana's action, every output is set by a step.
 */
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { NoOperationTraceWriter } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import { action, actionText, stepNamed } from './steps.ts';

/** GitHub's parser's errors for an action.yml text: the schema first, then the conversion to its model. */
function problems(content: string): string[] {
  const parsed = parseAction({ name: 'action.yml', content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length || !parsed.value) return errors;
  convertActionTemplate(parsed.context, parsed.value);
  return parsed.context.errors.getErrors().map((e) => e.message);
}

describe('action.yml', () => {
  it("It validates against GitHub's schema of action metadata, expressions included.", () => {
    expect(problems(actionText())).toEqual([]);
  });

  const broken: [string, (t: string) => string][] = [
    ['runs misspelt', (t) => t.replace('\nruns:', '\nrun:')],
    ['the description misspelt', (t) => t.replace('\ndescription:', '\ndescriptio:')],
    [
      'a composite step without its shell',
      (t) => t.replace('      shell: bash\n      env:\n        BASE_URL', '      env:\n        BASE_URL'),
    ],
    ['a step key GitHub does not know', (t) => t.replace('continue-on-error: true', 'continue_on_error: true')],
    ['a context a composite action does not have (secrets)', (t) => t.replace("if: inputs.engine == 'k6'\n", "if: secrets.K6 == 'k6'\n")],
    ['an expression left open', (t) => t.replace('${{ inputs.plan }}', '${{ inputs.plan ')],
  ];
  it.each(broken)('With %s it fails.', (_name, breakIt) => {
    const changed = breakIt(actionText());
    expect(changed).not.toBe(actionText());
    expect(problems(changed).length).toBeGreaterThan(0);
  });

  const a = action();
  const steps = a.runs.steps;

  it('It is a composite action whose steps each have a name and either run bash or use an action pinned to a major version.', () => {
    expect(a.runs.using).toBe('composite');
    for (const s of steps) {
      expect(typeof s.name, JSON.stringify(s)).toBe('string');
      if (s.uses) expect(s.uses).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
      else expect(s.shell, s.name).toBe('bash');
    }
  });

  it('No script interpolates an expression: inputs reach the shell through the environment only.', () => {
    for (const s of steps) expect(s.run ?? '', s.name).not.toContain('${{');
  });

  it('The key reaches two steps only, through their environment: the input check, which masks it, and the certify step.', () => {
    const holding = steps.filter((s) => JSON.stringify(s).includes('inputs.api-key'));
    expect(holding.map((s) => s.name)).toEqual(['Check the inputs', 'Certify']);
    expect(holding.map((s) => Object.values(s.env ?? {}).filter((v) => v.includes('inputs.api-key')))).toEqual([
      ['${{ inputs.api-key }}'],
      ['${{ inputs.api-key }}'],
    ]);
    expect(actionText().match(/inputs\.api-key/g)).toHaveLength(2);
  });

  it('The plan has no default, so it is never guessed; every input is described, with the keys GitHub documents only.', () => {
    // GitHub's parser takes any key in an input (its schema is loose there): the documented ones are checked here.
    expect(a.inputs.plan.default).toBe('');
    for (const [name, i] of Object.entries(a.inputs)) {
      expect(i.description.length, name).toBeGreaterThan(20);
      expect(['description', 'required', 'default', 'deprecationMessage']).toEqual(expect.arrayContaining(Object.keys(i)));
    }
  });

  it("k6 is installed by Grafana's action only for the k6 engine, and its failure leaves the Node engine with a warning.", () => {
    const k6 = stepNamed('k6');
    expect([k6.uses, k6.if, k6['continue-on-error']]).toEqual(['grafana/setup-k6-action@v1', "inputs.engine == 'k6'", true]);
    expect(stepNamed('certify').env?.ENGINE).toBe("${{ inputs.engine == 'k6' && steps.k6.outcome == 'success' && 'k6' || 'node' }}");
    expect(stepNamed('Note the fallback to the Node engine').run).toMatch(/::warning title=k6 not installed::/);
  });

  it('The summary, the JUnit results and the upload follow whatever the verdict, and the last step fails unless the suite exited 0.', () => {
    expect(stepNamed('report').if).toBe('always()');
    expect(steps.find((s) => s.uses?.startsWith('dorny/test-reporter@'))?.if).toMatch(/^always\(\) && /);
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.if).toMatch(
      /^always\(\) && .*steps\.report\.outputs\.reports != ''/,
    );
    const last = steps[steps.length - 1];
    expect(last.if).toBe("always() && steps.certify.outputs.exit-code != '0'");
  });

  it('Every output is set by a step of the action.', () => {
    for (const [name, o] of Object.entries(a.outputs)) {
      const m = /^\$\{\{ steps\.(\w+)\.outputs\.([\w-]+) \}\}$/.exec(o.value);
      expect(m, name).not.toBeNull();
      expect(
        steps.some((s) => s.id === m![1]),
        name,
      ).toBe(true);
    }
    expect(Object.keys(a.outputs)).toEqual(['verdict', 'exit-code', 'certification', 'badge', 'reports']);
  });
});
