/**
 * Both example workflows validate against GitHub's own workflow schema: `@actions/workflow-parser` (GitHub's
 * parser of the Actions language services, the one behind its editor support) parses each file, checks every key
 * and value against its workflow schema and every ${{ }} expression, and converts it to its model of a workflow.
 * A misspelt key, a value of the wrong type or a broken expression fails here instead of on GitHub's first run.
 */
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import { text } from '../support/workflows.ts';

const FILES = ['nightly-production.yml', 'pre-release-staging.yml'];

/** GitHub's parser's errors for a workflow text: parsing and schema first, then the conversion to its model. */
async function problems(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length || !parsed.value) return errors;
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (template.errors ?? []).map((e) => e.Message);
}

describe.each(FILES)('%s', (file) => {
  it("It validates against GitHub's workflow schema, expressions included.", async () => {
    expect(await problems(file, text(file))).toEqual([]);
  });

  const broken: [string, (t: string) => string, RegExp][] = [
    ['runs-on misspelt', (t) => t.replace('runs-on:', 'run-on:'), /Unexpected value 'run-on'/],
    ['a timeout that is no number', (t) => t.replace(/timeout-minutes: \d+/, 'timeout-minutes: soon'), /Unexpected value 'soon'/],
    ['a step key GitHub does not know', (t) => t.replace('        id: config', '        ident: config'), /ident/],
    ['an expression left open', (t) => t.replace('${{ github.run_id }}', '${{ github.run_id '), /expression|Unexpected|closing/i],
    ['a trigger GitHub does not have', (t) => t.replace('workflow_dispatch:', 'workflow_dispatched:'), /workflow_dispatched/],
  ];
  it.each(broken)('With %s it fails.', async (_name, breakIt, message) => {
    const changed = breakIt(text(file));
    expect(changed).not.toBe(text(file));
    const found = await problems(file, changed);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });
});
