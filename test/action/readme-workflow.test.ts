/**
 * The workflow README shows an implementer (section "GitHub Actions"): it validates against GitHub's workflow
 * schema, and its step uses this action with inputs the action has — the plan and the key among them, the key from
 * a secret — and reads outputs the action gives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/cli.ts';
import { readmeBlock } from '../support/readme-blocks.ts';
import { action } from './steps.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface UsesStep {
  id?: string;
  uses?: string;
  with?: Record<string, string>;
}

describe("README's workflow for an implementer", () => {
  const content = readmeBlock('GitHub Actions', 'yaml');
  const steps = (parse(content) as { jobs: Record<string, { steps: UsesStep[] }> }).jobs.certify.steps;
  const step = steps.find((s) => s.uses?.startsWith('OWNER/REPO@'))!;

  it("It validates against GitHub's workflow schema, expressions included.", async () => {
    const parsed = parseWorkflow({ name: 'certify.yml', content }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
    expect((template.errors ?? []).map((e) => e.Message)).toEqual([]);
  });

  it('Its step uses the action at the tag of this version, with inputs the action has: the address, the plan and the key from a secret.', () => {
    expect(step.uses).toBe(`OWNER/REPO@v${pkg.version}`);
    const inputs = Object.keys(action().inputs);
    expect(inputs).toEqual(expect.arrayContaining(Object.keys(step.with ?? {})));
    expect(Object.keys(step.with ?? {})).toEqual(['base-url', 'plan', 'api-key']);
    expect(step.with?.['api-key']).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
  });

  it('The outputs it reads are outputs of the action.', () => {
    const read = [...content.matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([\\w-]+)`, 'g'))].map((m) => m[1]);
    expect(read.length).toBeGreaterThan(0);
    expect(Object.keys(action().outputs)).toEqual(expect.arrayContaining(read));
  });
});
