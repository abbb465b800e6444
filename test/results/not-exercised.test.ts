/**
 * Every writer's count of the requirements not exercised agrees with what it lists: the console (its count line and
 * its ○ lines with "… and N more"), summary.md (its table and its two lists), index.html (its count, its
 * requirements and its banner), junit.xml (its properties and its skipped testcases) and certification.json (its
 * counts, statuses and notExercised). The MUSTs the verdict needs are listed apart from the rest (SHOULD, INFO,
 * ADVISORY, and the rate-limit requirements outside a conformance-only run), and each requirement once: a console
 * that said "5 not exercised" and listed the 4 MUSTs was the defect.
 */
import type { RequirementId } from '../../src/core/catalogue.ts';
import { describe, expect, it } from 'vitest';
import { skip } from '../support/fixture-judgements.ts';
import type { RunReport } from '../../src/results/types.ts';
import { renderBadge } from '../../src/results/writers/badge.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { renderJson } from '../../src/results/writers/report-json.ts';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { renderSummary, SUMMARY_LIST_CAP } from '../../src/results/writers/markdown.ts';
import { notExercisedList } from '../../src/results/writers/not-exercised.ts';
import { certifiedReport, conformance, conformanceOnly, found, fullProfile, report } from '../support/report-fixtures.ts';
import { passingLoad } from '../support/load-fixtures.ts';
import { mixedPlans } from './plan-fixtures.ts';

const writesOff = (id: RequirementId) => [found(skip(id, 'Writes disabled', 'writes are not allowed on production', '--allow-writes'))];

/** The quick profile with writes off: two conformance MUSTs, two SHOULDs and an INFO skipped, three rate-limit MUSTs not run. */
const skippedShouldsAndMusts = (): RunReport =>
  report({
    findings: conformance({
      'CREATE-ID-UNIQUE': writesOff('CREATE-ID-UNIQUE'),
      'CREATE-201-PET': writesOff('CREATE-201-PET'),
      'CREATE-400-NOTHING-STORED': writesOff('CREATE-400-NOTHING-STORED'),
      'LIST-LIMIT-FILLS-PAGE': [],
      'CREATE-DEFAULT-STATUS': [],
    }),
    load: passingLoad(),
  });

/** `npm run conformance` with writes off: the MUSTs that create a pet and a SHOULD skipped, every rate-limit requirement outside its scope. */
const conformanceWritesOff = (): RunReport => {
  const creates: RequirementId[] = [
    'CREATE-201-PET',
    'CREATE-STATUS-OPTIONAL',
    'CREATE-ID-SERVER-ASSIGNED',
    'CREATE-ID-UNIQUE',
    'GET-ROUND-TRIP',
  ];
  const findings = conformance({ ...Object.fromEntries(creates.map((id) => [id, writesOff(id)])), 'LIST-LIMIT-FILLS-PAGE': [] });
  return conformanceOnly(report({ findings }));
};

/** Every MUST exercised and passed, a SHOULD and an ADVISORY left out: certified, with two requirements not exercised. */
const certifiedWithGaps = (): RunReport =>
  report({
    findings: [...conformance({ 'VERSION-BASE-PATH': [], 'HYGIENE-DEPRECATION-ONLY-GETPET': [] }), ...fullProfile()],
    load: passingLoad(),
  });

const runs: [string, RunReport][] = [
  ['skipped SHOULDs, an INFO and MUSTs', skippedShouldsAndMusts()],
  ['more gaps than the console and summary.md show (a conformance-only run)', conformanceWritesOff()],
  ['a certified run with a SHOULD and an ADVISORY left out', certifiedWithGaps()],
  ['several plans', mixedPlans()],
  ['every MUST passed', certifiedReport()],
];

const skipped = (r: RunReport) => r.requirements.filter((q) => q.status === 'skip').map((q) => q.id);
const idsIn = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]);
const property = (xml: string, name: string) => new RegExp(`<property name="${name}" value="([^"]*)"/>`).exec(xml)?.[1];
const listed = (value: string | undefined) => (value ? value.split(/, (?=[A-Z][A-Z0-9-]+)/).map((v) => v.split(' ')[0]) : []);
const sectionOf = (md: string, heading: RegExp) => {
  const start = md.search(heading);
  return start < 0 ? '' : md.slice(start).split('\n\n').slice(0, 2).join('\n\n');
};

describe.each(runs)('A run with %s', (_name, r) => {
  const all = skipped(r);
  const musts = r.notExercised.map((n) => n.id);

  it('lists each requirement it counts as not exercised once, the MUSTs the verdict needs first.', () => {
    const list = notExercisedList(r);
    expect(list.map((g) => g.id).sort()).toEqual([...all].sort());
    expect(new Set(list.map((g) => g.id)).size).toBe(list.length);
    expect(list.filter((g) => g.decisive).map((g) => g.id)).toEqual(musts);
    expect(list.slice(0, musts.length).every((g) => g.decisive)).toBe(true);
  });

  it('The console counts as many not exercised as its ○ lines and its "and N more" name.', () => {
    const out = renderConsole(r);
    expect(out).toContain(` · ${all.length} not exercised · `);
    const shown = idsIn(out, /^ {2}○ (\S+) \((?:MUST|SHOULD|INFO|ADVISORY)\) not exercised/gm);
    const more = Number(/^ {2}… and (\d+) more not exercised/m.exec(out)?.[1] ?? 0);
    expect(shown.length + more).toBe(all.length);
    expect(new Set(shown).size).toBe(shown.length);
    for (const id of shown) expect(all).toContain(id);
    for (const id of musts.slice(0, shown.length)) expect(shown).toContain(id);
  });

  it('summary.md counts as many as its two lists hold, and lists every MUST of them.', () => {
    const md = renderSummary(r);
    expect(md).toMatch(new RegExp(`^\\| \\d+ \\| \\d+ \\| \\d+ \\| ${all.length} \\| \\d+ \\| \\d+ \\|$`, 'm'));
    const mustList = sectionOf(md, /^### 🟡 MUST requirements not exercised \(/m);
    const others = sectionOf(md, /^### Other requirements not exercised \(/m);
    expect(Number(/\((\d+)\)/.exec(mustList)?.[1] ?? 0)).toBe(musts.length);
    expect(Number(/\((\d+)\)/.exec(others)?.[1] ?? 0)).toBe(all.length - musts.length);
    expect(idsIn(mustList, /^- \*\*([A-Z0-9-]+)\*\*/gm)).toEqual(musts);
    const otherIds = idsIn(others, /^- \*\*([A-Z0-9-]+)\*\* \((?:MUST|SHOULD|INFO|ADVISORY)\)/gm);
    const more = Number(/^- … and (\d+) more/m.exec(others)?.[1] ?? 0);
    expect(otherIds.length).toBe(Math.min(SUMMARY_LIST_CAP, all.length - musts.length));
    expect(otherIds.length + more).toBe(all.length - musts.length);
  });

  it('index.html counts as many as its requirements marked not exercised, and its banner says how many of them are MUSTs.', () => {
    const page = renderHtml(r);
    expect(page).toContain(`data-testid="count-skip"><b>${all.length}</b><span>not exercised</span>`);
    expect(idsIn(page, /data-requirement="([^"]+)" data-status="skip"/g).sort()).toEqual([...all].sort());
    expect(idsIn(page, /data-testid="not-exercised-item" data-requirement="([^"]+)"/g)).toEqual(musts);
    if (musts.length) expect(page).toContain(`<h2>MUST requirements not exercised (${musts.length})</h2>`);
    const others = /data-testid="not-exercised-others">(\d+) other/.exec(page)?.[1];
    if (musts.length) expect(Number(others ?? 0)).toBe(all.length - musts.length);
  });

  it('junit.xml names in its properties every requirement whose testcase is skipped as not exercised.', () => {
    const xml = renderJunit(r);
    const head = xml.slice(0, xml.indexOf('</properties>'));
    expect(listed(property(head, 'notExercised'))).toEqual(musts);
    expect([...musts, ...listed(property(head, 'notExercisedOthers'))].sort()).toEqual([...all].sort());
    if (!r.plans) expect(xml.match(/<skipped message="not exercised: /g)?.length ?? 0).toBe(all.length);
  });

  it('certification.json counts as many as its statuses say, and its notExercised holds the MUSTs among them.', () => {
    const json = JSON.parse(renderJson(r)) as RunReport;
    expect(json.counts.skip).toBe(all.length);
    expect(skipped(json)).toEqual(all);
    expect(json.notExercised.map((n) => n.id)).toEqual(musts);
    if (r.outcome === 'incomplete' && musts.length)
      expect(renderBadge(r)).toContain(`${musts.length} MUST${musts.length === 1 ? '' : 's'} not exercised`);
  });
});

it('The runs above cover what the writers must agree on: SHOULDs, an INFO and an ADVISORY skipped, more gaps than the console shows, a certified run with gaps.', () => {
  const levels = (r: RunReport) => new Set(r.requirements.filter((q) => q.status === 'skip').map((q) => q.level));
  expect([...levels(skippedShouldsAndMusts())].sort()).toEqual(['INFO', 'MUST', 'SHOULD']);
  expect(levels(certifiedWithGaps())).toEqual(new Set(['SHOULD', 'ADVISORY']));
  expect(certifiedWithGaps().outcome).toBe('certified');
  expect(renderConsole(conformanceWritesOff())).toMatch(/… and \d+ more not exercised/);
  expect(renderSummary(conformanceWritesOff())).toMatch(/^- … and \d+ more/m);
});
