/**
 * Hygiene warnings in every writer: the findings of a real run against a
 * server that reflects credentials (in 401/404 messages and, base64-encoded,
 * in a header) and signals deprecation on listPets, in an otherwise certified
 * report compared with a previous run where both passed. Each writer shows
 * them as warnings (never failures: the run stays certified), the comparison
 * names them as new, and no file holds the key in any encoding.
 */
import { readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ValidateFunction } from 'ajv';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import { DEMO_KEYS } from '../../reference/keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { ajv } from '../../src/schemas/project-ajv.ts';
import type { RunReport } from '../../src/results/types.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderHtml, renderJson, renderJunit, renderSummary, writeReports } from '../../src/results/writers/index.ts';
import { runSuiteAgainst } from '../support/suite.ts';
import { comparedWith, conformance, fullProfile, report } from '../support/report-fixtures.ts';
import { passingLoad } from '../support/load-fixtures.ts';
import { tempDir } from '../support/temp.ts';

const IDS = ['HYGIENE-CREDENTIAL-NOT-REFLECTED', 'HYGIENE-DEPRECATION-ONLY-GETPET'];
const KEY = DEMO_KEYS.business;
const LEAKS = [KEY, btoa(KEY).slice(0, 16), btoa(`Bearer ${KEY}`).slice(8, 32)];
const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;

let r: RunReport;
beforeAll(async () => {
  const run = await runSuiteAgainst({ faults: ['reflect-credentials', 'reflect-credentials-header', 'deprecate-list'] });
  const mine = (id: string) => run.findings.filter((f) => f.requirement === id);
  const built = report({
    findings: [...conformance(Object.fromEntries(IDS.map((id) => [id, mine(id)]))), ...fullProfile()],
    load: passingLoad(),
  });
  r = comparedWith(built, Object.fromEntries(IDS.map((id) => [id, 'pass' as const])));
}, 90_000);

const dir = tempDir('hygiene-writers');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hygiene warnings in the reports', () => {
  test('They warn without failing: the run stays certified, and the comparison names them as new.', () => {
    expect(r.outcome).toBe('certified');
    for (const id of IDS)
      expect(r.requirements.find((q) => q.id === id)).toMatchObject({ level: 'ADVISORY', area: 'hygiene', status: 'warn' });
    expect(r.comparison?.newProblems).toEqual(IDS);
  });

  test('The console names each with its level and the place it was seen, under a certified headline.', () => {
    const text = renderConsole(r);
    expect(text).toMatch(/^animal-store certification: CERTIFIED/);
    // each a cause of its own (a warning: '!'), naming the requirement it breaks and its level
    expect(text.match(/^ {2}! /gm)?.length).toBeGreaterThanOrEqual(IDS.length);
    for (const id of IDS) expect(text).toMatch(new RegExp(`^ {6}breaks ${id} \\(ADVISORY\\)$`, 'm'));
    expect(text).toContain(`New since the last run: ${IDS.join(', ')}`);
    expect(text).toMatch(
      /Credential reflected in (the response body|a response header)[^\n]*: The configured API key came back (raw|base64-encoded) in the /,
    );
  });

  test('summary.md lists them under the warnings and as new since the last run.', () => {
    const md = renderSummary(r);
    const warnings = md.slice(md.indexOf('### ⚠️ Warnings'));
    for (const id of IDS) {
      expect(warnings).toContain(`**${id}** (ADVISORY)`);
      expect(md.slice(md.indexOf('### 🆕 New since'))).toContain(`**${id}** (ADVISORY, warned)`);
    }
  });

  test('index.html shows them in the hygiene area, warned, at the ADVISORY level, with their evidence open.', () => {
    const html = renderHtml(r);
    expect(html).toContain('Hygiene and security (not required by the spec: warns, never fails)');
    for (const id of IDS) expect(html).toContain(`data-requirement="${id}" data-status="warn" data-level="ADVISORY"`);
    expect(html).toContain('value="ADVISORY"');
  });

  test('certification.json is valid against its schema and carries each warning with its evidence.', () => {
    const json = JSON.parse(renderJson(r));
    expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
    for (const id of IDS) {
      const q = json.requirements.find((x: { id: string }) => x.id === id);
      expect(q.findings[0].outcome).toBe('warn');
      expect(q.findings[0].evidence.response.status).toBeGreaterThan(0);
    }
  });

  test('JUnit reports them as warnings in system-out, never as failures.', () => {
    const xml = renderJunit(r);
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
    for (const id of IDS) {
      const start = xml.indexOf(`name="${id}:`);
      const testcase = xml.slice(start, xml.indexOf('</testcase>', start));
      expect(testcase).toContain('WARNING (ADVISORY)');
      expect(testcase).not.toContain('<failure');
    }
  });

  test('With the run’s redactor, no file holds the key raw, base64-encoded or inside the encoded Authorization value.', () => {
    const paths = writeReports(r, dir, undefined, makeRedactor([KEY]));
    for (const p of paths) for (const leak of LEAKS) expect(readFileSync(p, 'utf8'), basename(p)).not.toContain(leak);
    expect(renderConsole(r)).not.toContain(KEY);
  });
});
