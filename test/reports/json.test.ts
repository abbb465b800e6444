import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import { renderJson, writeCertificationJson, writeConformanceJson } from '../../src/results/writers/json.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, conformanceOnly, failingReport, interrupted, passingReport } from './fixtures.ts';

type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
type FormatsPlugin = typeof import('ajv-formats').default;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);
const valid = (data: unknown) => {
  const ok = validate(data);
  return ok ? 'valid' : ajv.errorsText(validate.errors);
};

const dir = mkdtempSync(join(tmpdir(), 'json-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reports: [string, RunReport][] = [
  ['a passing certification run', passingReport()],
  ['a failing certification run with hostile evidence', failingReport()],
  ['an interrupted run', interrupted(passingReport())],
  ['an aborted run', aborted(failingReport())],
  ['a conformance-only run without load entries', conformanceOnly(passingReport())],
];

describe('certification.json and conformance.json', () => {
  it.each(reports)('The JSON of %s validates against schemas/certification.schema.json.', (_name, report) => {
    expect(valid(JSON.parse(renderJson(report)))).toBe('valid');
  });

  it('Both writers write the same content, which parses back to the report.', () => {
    const report = failingReport();
    const cert = readFileSync(writeCertificationJson(report, dir), 'utf8');
    const conf = readFileSync(writeConformanceJson(report, dir), 'utf8');
    expect(cert).toBe(conf);
    expect(JSON.parse(cert)).toEqual(report);
  });

  it('A redactor given to the writer removes the key from the file.', () => {
    const text = readFileSync(writeCertificationJson(failingReport(), dir, (s) => s.replaceAll('sk_live_4f9a2c7e1b8d3f60', '[REDACTED]')), 'utf8');
    expect(text).not.toContain('sk_live_4f9a2c7e1b8d3f60');
    expect(text).toContain('[REDACTED]');
  });

  const broken: [string, (r: Record<string, any>) => void][] = [
    ['the verdict is missing', (r) => delete r.verdict],
    ['a requirement has an unknown status', (r) => (r.requirements[0].status = 'ok')],
    ['the spec hash is not 64 hex digits', (r) => (r.specSha256 = 'abc')],
    ['a count is negative', (r) => (r.counts.pass = -1)],
    ['a load entry has no timeline', (r) => delete r.load[0].timeline],
    ['a timeline point has a status that is not an integer', (r) => (r.load[0].timeline[0].status = '200')],
    ['a waiver has a malformed expiry', (r) => (r.requirements[0].waiver = { reason: 'x', expires: '31/12/2099' })],
    ['an unknown top-level field appears', (r) => (r.apiKey = 'secret')],
  ];
  it.each(broken)('The schema rejects a report in which %s.', (_name, mutate) => {
    const r = JSON.parse(renderJson(passingReport()));
    mutate(r);
    expect(valid(r)).not.toBe('valid');
  });

  const documented: [string, Record<string, { description?: string; $ref?: string }>][] = [
    ['the report', schema.properties],
    ['a timeline point', schema.$defs.timelinePoint.properties],
    ['the target', schema.$defs.target.properties],
  ];
  it.each(documented)('Every property of %s is documented in the schema.', (_name, properties) => {
    const missing = Object.entries(properties).filter(([, v]) => !v.description && !v.$ref).map(([k]) => k);
    expect(missing).toEqual([]);
  });
});
