import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { escapeAttr, escapeXml, stripInvalidXml } from '../../src/results/writers/common.ts';
import { aborted, failingReport, HOSTILE, passingReport } from './fixtures.ts';
import { xmlProblems } from './xml-check.ts';

/** The <testcase> element of a requirement, with its content. */
function testcase(xml: string, id: string): string {
  const at = xml.indexOf(`name="${id}: `);
  expect(at, `testcase of ${id}`).toBeGreaterThan(0);
  const open = xml.lastIndexOf('<testcase', at);
  const tagEnd = xml.indexOf('>', at) + 1;
  return xml[tagEnd - 2] === '/' ? xml.slice(open, tagEnd) : xml.slice(open, xml.indexOf('</testcase>', at) + '</testcase>'.length);
}

describe('the XML well-formedness checker used by these tests', () => {
  const bad: [string, string][] = [
    ['mismatched tags', '<a><b></a></b>'],
    ['an unescaped < in an attribute', '<a x="1<2"/>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['an undefined entity', '<a>&nbsp;</a>'],
    ['a control character', '<a>\u0007</a>'],
    ['two root elements', '<a/><b/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['an unclosed element', '<a><b></b>'],
  ];
  it.each(bad)('It rejects a document with %s.', (_name, xml) => {
    expect(xmlProblems(xml)).not.toEqual([]);
  });

  it('It accepts a well-formed document.', () => {
    expect(xmlProblems('<?xml version="1.0"?>\n<a x="&amp;&#10;"><b/><!-- c --><![CDATA[<x>]]>t &lt;</a>\n')).toEqual([]);
  });
});

describe('junit.xml', () => {
  const reports = [['passing', passingReport()], ['failing', failingReport()], ['aborted', aborted(failingReport())]] as const;

  it.each(reports)('The JUnit of the %s run is well-formed XML.', (_name, report) => {
    expect(xmlProblems(renderJunit(report))).toEqual([]);
  });

  it.each(reports)('The JUnit of the %s run has one test case per requirement, classname = area.', (_name, report) => {
    const xml = renderJunit(report);
    for (const r of report.requirements) expect(testcase(xml, r.id)).toContain(`classname="${r.area}"`);
    const extra = report.abort ? 1 : 0;
    expect(xml.match(/<testcase /g)).toHaveLength(report.requirements.length + extra);
    expect(xml).toContain(`tests="${report.requirements.length + extra}"`);
  });

  const statuses: [string, string, RegExp, RegExp | undefined][] = [
    ['a failed MUST', 'AUTH-MISSING-401', /<failure message="Unauthenticated request accepted: [^"]*" type="MUST">/, undefined],
    ['a warning', 'LIST-LIMIT-FILLS-PAGE', /<system-out>WARNING \(SHOULD\): Short page: limit=20 returned 7 animals/, /<failure|<skipped/],
    ['a skip', 'CREATE-ID-UNIQUE', /<skipped message="Writes disabled: writes are not allowed on production"\/>/, /<failure/],
    ['a waiver', 'GET-NON-INTEGER-ID-4XX', /<skipped message="waived until 2099-12-31: Known gap, fixed in 2.4 &lt;script&gt;/, /<failure/],
    ['an INFO observation', 'ERROR-CODE-VALUES', /<system-out>Observations:\n {2}- Observed for ERROR-CODE-VALUES/, /<failure|<skipped/],
    ['a pass', 'SCHEMA-PETS', /^<testcase [^>]*\/>$/, /<failure|<skipped|<system-out/],
  ];
  it.each(statuses)('The test case of %s is rendered as JUnit expects.', (_name, id, expected, forbidden) => {
    const tc = testcase(renderJunit(failingReport()), id);
    expect(tc).toMatch(expected);
    if (forbidden) expect(tc).not.toMatch(forbidden);
  });

  it('The failure carries the evidence: expected, actual, request and response status.', () => {
    const tc = testcase(renderJunit(failingReport()), 'SCHEMA-PET');
    for (const s of ['expected: id: integer (int64)', 'actual: id: &quot;12&quot; (string)', 'request: POST https://api.animal-store.example/v1/pets', 'response: 201']) expect(tc).toContain(s);
  });

  it('The properties name the target, plan, suite version and spec hash.', () => {
    const r = passingReport();
    const xml = renderJunit(r);
    for (const [k, v] of [['target', r.target.baseUrl], ['plan', 'free'], ['suiteVersion', '0.1.0'], ['specSha256', r.specSha256], ['verdict', 'CERTIFIED']])
      expect(xml).toContain(`<property name="${k}" value="${v}"/>`);
  });

  it('An aborted run gets an error test case with the reason.', () => {
    const xml = renderJunit(aborted(passingReport(), 'deadline of 900000 ms exceeded'));
    expect(xml).toMatch(/<error message="deadline of 900000 ms exceeded" type="abort">/);
    expect(xml).toContain('errors="1"');
  });

  it('Hostile content is escaped and characters invalid in XML 1.0 are replaced.', () => {
    const xml = renderJunit(failingReport());
    expect(xml).not.toContain(HOSTILE.script);
    expect(xml).not.toContain('</testcase> &');
    expect(xml).not.toMatch(/[\u0000\u0007]/);
    expect(xml).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
  });
});

describe('XML escaping', () => {
  const cases: [string, string, string][] = [
    ['markup', '<a href="x">&\'</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;'],
    ['control characters', 'a\u0000b\u001Fc', 'a\uFFFDb\uFFFDc'],
    ['a lone surrogate', 'x\uD800y', 'x\uFFFDy'],
    ['a valid astral character', 'pet 🐕', 'pet 🐕'],
    ['tabs and line breaks in text', 'a\tb\nc', 'a\tb\nc'],
  ];
  it.each(cases)('escapeXml handles %s.', (_name, input, expected) => {
    expect(escapeXml(input)).toBe(expected);
  });

  it('escapeAttr keeps line breaks and tabs as character references.', () => {
    expect(escapeAttr('a\tb\nc\r')).toBe('a&#9;b&#10;c&#13;');
  });

  it('stripInvalidXml leaves valid text untouched.', () => {
    expect(stripInvalidXml('Ärger – ok')).toBe('Ärger – ok');
  });
});
