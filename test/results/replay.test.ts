/**
 * A counterexample of the exploration phase (a shrunk sequence: its creates, then the read that failed) reaches every report the same way:
 * the console, summary.md, JUnit and index.html show which part found it, its
 * seed, its shrink path and its minimal request as a curl line with the key as
 * a variable; certification.json carries it whole and validates.
 */
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, test } from 'vitest';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import { ajv } from '../../src/schemas/project-ajv.ts';
import { buildReport } from '../../src/results/aggregate.ts';
import type { RunReport } from '../../src/results/types.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderHtml, renderJson, renderJunit, renderSummary } from '../../src/results/writers/index.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import type { SpecFile } from '../../src/harness/define-spec.ts';

const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;
let report: RunReport;

beforeAll(async () => {
  // The stateful part alone: its sequences are shrunk (the bulk read-back of the other parts' pets is not).
  const specs = (f: SpecFile) => f.operation === 'exploration' && f.behaviour === 'stateful-round-trip';
  const run = await runSuiteAgainst({ faults: ['category-id-unsigned'] }, { specs });
  report = buildReport({
    kind: 'conformance',
    suiteVersion: '0.0.0',
    specSha256: '0'.repeat(64),
    target: { env: 'local', baseUrl: 'http://127.0.0.1:4010/v1', plan: 'business', embedded: true },
    startedAt: new Date(0),
    endedAt: new Date(1000),
    requestsSent: run.requests,
    findings: run.findings,
    notes: run.notes,
  });
});

const RENDER: [string, (r: RunReport) => string][] = [
  ['the console', (r) => renderConsole(r)],
  ['summary.md', renderSummary],
  ['junit.xml', renderJunit],
  ['index.html', renderHtml],
];

describe('a counterexample in every report', () => {
  test.each(RENDER)(
    '%s shows the exploration part, the seed, the shrink path and the minimal request as curl with $ANIMAL_STORE_API_KEY.',
    (_name, render) => {
      // Undo each format's escaping (HTML entities, Markdown backslashes) to read the text a person sees.
      const text = render(report)
        .replace(/&quot;/g, '"')
        .replace(/&#39;|&apos;/g, "'")
        .replace(/&#58;/g, ':')
        .replace(/&amp;/g, '&')
        .replace(/\\([\\`*_{}[\]()#+!|~>])/g, '$1');
      expect(text).toContain('found by the exploration phase: a pet created and read back');
      expect(text).toMatch(/seed 1\b/);
      expect(text).toMatch(/shrink path \(\d+ failing requests\)/);
      expect(text).toContain(`curl -i -X 'POST' -H "Authorization: Bearer $ANIMAL_STORE_API_KEY"`);
      expect(text).toMatch(/"categoryId":-\d+/);
      expect(text).toMatch(/curl -i -H [^\n]*\/v1\/pets\/\d+/);
      expect(text).not.toContain('as_demo_');
    },
  );

  test('certification.json carries the counterexample whole (request, seed, fast-check path, probe) and validates against its schema.', () => {
    const json = JSON.parse(renderJson(report)) as RunReport;
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    const f = json.requirements.find((r) => r.id === 'GET-ROUND-TRIP')!.findings[0];
    expect(f.replay).toMatchObject({ phase: 'stateful', seed: expect.any(Number), probe: { kind: 'single', op: 'getPet' } });
    expect(f.replay!.before?.[0].probe).toMatchObject({ op: 'createPet' });
    expect(f.replay!.path).toMatch(/^\d+(:\d+)*$/);
    expect(json.notes.join(' ')).toMatch(/Exploration \(generated inputs\): seed 1 \(--seed 1 replays it\)/);
  });
});
