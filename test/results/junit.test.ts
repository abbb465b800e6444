import { REQUIREMENTS } from '../../src/core/catalogue.ts';
import { PER_PLAN_AREAS } from '../../src/results/writers/plan-view.ts';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { escapeAttr, escapeXml, stripInvalidXml } from '../../src/results/writers/common.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, certifiedReport, failingReport, HOSTILE, incompleteReport, SECRET_KEY, withoutPlan } from '../support/report-fixtures.ts';
import { xmlProblems } from './xml-check.ts';
import { CONFORMANCE_KEY, DAILY_NOT_ALLOWED, mixedPlans, onePlan, PLAN_ORDER } from './plan-fixtures.ts';

/** The <testcase> element named `name` (an `ID: title` prefix) in the suite whose classname starts with `classname`. */
function testcase(xml: string, id: string, classname = ''): string {
  const at = xml.search(new RegExp(`classname="${classname}[^"]*" name="${id}: `));
  expect(at, `testcase of ${id}`).toBeGreaterThan(0);
  const tagEnd = xml.indexOf('>', at) + 1;
  const open = xml.lastIndexOf('<testcase', at);
  return xml[tagEnd - 2] === '/' ? xml.slice(open, tagEnd) : xml.slice(open, xml.indexOf('</testcase>', at) + '</testcase>'.length);
}

const property = (xml: string, name: string) => new RegExp(`<property name="${name}" value="([^"]*)"/>`).exec(xml)?.[1];

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
  const reports: [string, RunReport][] = [
    ['certified', certifiedReport()],
    ['incomplete', incompleteReport()],
    ['failing', failingReport()],
    ['aborted', aborted(failingReport())],
  ];

  it.each(reports)('The JUnit of the %s run is well-formed XML.', (_name, report) => {
    expect(xmlProblems(renderJunit(report))).toEqual([]);
  });

  it.each(reports)(
    'The JUnit of the %s run has one test case per requirement (classname = area) and one per load judgement.',
    (_name, report) => {
      const xml = renderJunit(report);
      for (const r of report.requirements) expect(testcase(xml, r.id, r.area)).toContain(`classname="${r.area}"`);
      const judged = (report.load ?? []).flatMap((l) => l.judgements.filter((j) => j.outcome !== 'observe'));
      const extra = report.abort ? 1 : 0;
      const total = report.requirements.length + judged.length + extra;
      expect(xml.match(/<testcase /g)).toHaveLength(total);
      expect(xml).toMatch(new RegExp(`^<testsuites [^>]*tests="${total}"`, 'm'));
      expect(xml.match(/<testsuite /g)).toHaveLength(1 + (report.load ?? []).length);
    },
  );

  const outcomes: [string, RunReport, string, string][] = [
    ['certified', certifiedReport(), 'certified', 'CERTIFIED'],
    ['incomplete', incompleteReport(), 'incomplete', 'PASSED, INCOMPLETE'],
    ['not-conformant', failingReport(), 'not-conformant', 'NOT CONFORMANT'],
  ];
  it.each(outcomes)('The properties of a %s run carry its outcome, headline and scope.', (_name, report, outcome, headline) => {
    const xml = renderJunit(report);
    expect(property(xml, 'outcome')).toBe(outcome);
    expect(property(xml, 'headline')).toBe(headline);
    expect(property(xml, 'scope')).toBeTruthy();
    expect(xml.slice(0, xml.indexOf('</properties>'))).not.toContain('name="verdict"');
  });

  it('The properties list the MUSTs not exercised, the observed count, the diagnosis and what is new since the last run.', () => {
    expect(property(renderJunit(incompleteReport()), 'notExercised')).toBe(
      'RL-SUSTAINED-BELOW-CEILING, RL-WINDOW-PER-MINUTE, RL-DAILY-QUOTA',
    );
    const xml = renderJunit(failingReport());
    expect(property(xml, 'observed')).toBe(String(failingReport().counts.observed));
    expect(property(xml, 'diagnosis')).toMatch(/^GET https:\/\/api\.animal-store\.example\/v1\/pets without a key answered 200 text\/html/);
    expect(property(xml, 'newSinceLastRun')).toBe('SCHEMA-PET, LIST-LIMIT-FILLS-PAGE');
    expect(property(renderJunit(withoutPlan(incompleteReport())), 'plan')).toBe('not given');
  });

  const statuses: [string, string, RegExp, RegExp | undefined][] = [
    [
      'a failed MUST',
      'AUTH-MISSING-401',
      /<failure message="\[cause C-[0-9A-F]{8}\] Unauthenticated request accepted: [^"]*" type="MUST">/,
      undefined,
    ],
    [
      'a warning',
      'LIST-LIMIT-FILLS-PAGE',
      /<system-out>WARNING \(SHOULD\): \[cause C-[0-9A-F]{8}\] Short page: limit=20 returned 7 animals/,
      /<failure|<skipped/,
    ],
    [
      'a requirement not exercised, with its remedy',
      'CREATE-ID-UNIQUE',
      /<skipped message="not exercised: Writes disabled: writes are not allowed on production — To exercise it: --allow-writes"\/>/,
      /<failure/,
    ],
    [
      'a requirement a suite error left out',
      'CREATE-400-BAD-BODY',
      /<skipped message="not exercised: suite error: Check crashed: TypeError: body is undefined"\/>/,
      /<failure/,
    ],
    ['a waiver', 'GET-NON-INTEGER-ID-4XX', /<skipped message="waived until 2099-12-31: Known gap, fixed in 2.4 &lt;script&gt;/, /<failure/],
    [
      'an INFO observation',
      'ERROR-CODE-VALUES',
      /<system-out>OBSERVED \(INFO, counted apart from passed\)\nObservations:\n {2}- Observed for ERROR-CODE-VALUES/,
      /<failure|<skipped/,
    ],
    ['a pass', 'SCHEMA-PETS', /^<testcase [^>]*\/>$/, /<failure|<skipped|<system-out/],
  ];
  it.each(statuses)('The test case of %s is rendered as JUnit expects.', (_name, id, expected, forbidden) => {
    const tc = testcase(renderJunit(failingReport()), id);
    expect(tc).toMatch(expected);
    if (forbidden) expect(tc).not.toMatch(forbidden);
  });

  it('A MUST not exercised in an incomplete run is skipped with the reason and the flag or profile that would exercise it.', () => {
    expect(testcase(renderJunit(incompleteReport()), 'RL-DAILY-QUOTA')).toContain(
      '<skipped message="not exercised: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario: --profile full --allow-daily',
    );
  });

  it('The failure carries the evidence (expected, actual, request, response status) and a curl line with the key as $ANIMAL_STORE_API_KEY.', () => {
    const tc = testcase(renderJunit(failingReport()), 'SCHEMA-PET');
    for (const s of [
      'expected: id: integer (int64)',
      'actual: id: &quot;12&quot; (string)',
      'request: POST https://api.animal-store.example/v1/pets',
      'response: 201',
      'replay: curl -i -X &#39;POST&#39; -H &quot;Authorization: Bearer $ANIMAL_STORE_API_KEY&quot;',
    ])
      expect(tc).toContain(s);
  });

  it('Each load scenario is a testsuite of its judgements; a failure names the request it is about.', () => {
    const xml = renderJunit(failingReport());
    expect(xml).toMatch(/<testsuite name="load: ceiling \(free, node engine\)" tests="\d+" failures="2" errors="0" skipped="0"/);
    const tc = testcase(xml, 'RL-NOT-EARLY', 'load.ceiling.free');
    expect(tc).toMatch(
      /<failure message="\[cause C-[0-9A-F]{8}\] Throttled before the limit: request #51 was answered 429[^"]*" type="MUST">/,
    );
    expect(tc).toContain('at: request #51, 5.02 s after the scenario started');
    expect(tc).toContain('response: 429');
  });

  it('An aborted run gets an error test case with the reason.', () => {
    const xml = renderJunit(aborted(certifiedReport(), 'deadline of 900000 ms exceeded'));
    expect(xml).toMatch(/<error message="deadline of 900000 ms exceeded" type="abort">/);
    expect(xml).toMatch(/^<testsuites [^>]*errors="1"/m);
  });

  it('Hostile content is escaped, characters invalid in XML 1.0 are replaced, and the key appears only where the server echoed it.', () => {
    const xml = renderJunit(failingReport());
    expect(xml).not.toContain(HOSTILE.script);
    expect(xml).not.toContain('</testcase> &');
    expect(xml).not.toMatch(/[\u0000\u0007]/);
    expect(xml).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(xml).not.toMatch(new RegExp(`Bearer ${SECRET_KEY}.*replay`));
  });
});

/** The <testsuite> element whose name is `name`, up to its end. */
function suite(xml: string, name: string): string {
  const at = xml.indexOf(`<testsuite name="${name}"`);
  expect(at, name).toBeGreaterThan(0);
  return xml.slice(at, xml.indexOf('</testsuite>', at));
}

describe('junit.xml of a run over several plans', () => {
  const report = mixedPlans();
  const xml = renderJunit(report);
  const planSuite = (plan: string) => suite(xml, `animal-store certification: plan ${plan}`);

  it('It is well-formed XML.', () => {
    expect(xmlProblems(xml)).toEqual([]);
  });

  it('The conformance requirements form one testsuite, judged once on the conformance key; each plan has its own testsuite, then the scenarios.', () => {
    const names = [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1]);
    expect(names.slice(0, 5)).toEqual([
      `animal-store certification: conformance, judged once on the key from ${CONFORMANCE_KEY}`,
      ...PLAN_ORDER.map((p) => `animal-store certification: plan ${p}`),
    ]);
    expect(names.slice(5)).toEqual(report.load!.map((l) => `load: ${l.scenario} (${l.plan}, node engine)`));
    const conformance = suite(xml, names[0]);
    expect(conformance).not.toMatch(/name="RL-/);
    expect(conformance).toContain('name="SCHEMA-PET: ');
  });

  it('A plan’s testsuite holds its rate-limit requirements, and its properties name the plan, its outcome, limits and key source.', () => {
    const business = planSuite('business');
    expect(business).toMatch(/^<testsuite name="animal-store certification: plan business" tests="20" failures="2" errors="0" skipped="2"/);
    for (const [name, value] of [
      ['plan', 'business'],
      ['outcome', 'not-conformant'],
      ['headline', 'NOT CONFORMANT'],
      ['keySource', 'ANIMAL_STORE_API_KEY_BUSINESS'],
      ['perMinute', '1000'],
      ['perDay', '100000'],
      ['failed', 'RL-CEILING-429, RL-NOT-EARLY'],
      ['notExercised', 'RL-RECOVERY, RL-429-NOTHING-STORED'],
    ])
      expect(property(business, name), name).toBe(value);
    expect(testcase(business, 'RL-HEADERS-PRESENT', 'plan.business.rate-limit-headers')).toMatch(/^<testcase [^>]*\/>$/);
  });

  it('Each plan’s test case has that plan’s status: a failure with its evidence and a curl line on the plan’s key, or a skip with its own reason.', () => {
    const failed = testcase(planSuite('business'), 'RL-NOT-EARLY', 'plan.business.rate-limit-load');
    expect(failed).toMatch(
      /<failure message="\[cause C-[0-9A-F]{8}\] Throttled before the limit: request #51 was answered 429[^"]*" type="MUST">/,
    );
    expect(failed).toContain('replay: curl -i -H &quot;Authorization: Bearer $ANIMAL_STORE_API_KEY_BUSINESS&quot;');
    expect(testcase(planSuite('free'), 'RL-NOT-EARLY', 'plan.free.rate-limit-load')).toMatch(/^<testcase [^>]*\/>$/);
    expect(testcase(planSuite('pro'), 'RL-DAILY-QUOTA', 'plan.pro')).toContain(
      '<skipped message="not exercised: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario',
    );
    expect(testcase(planSuite('enterprise'), 'RL-DAILY-QUOTA', 'plan.enterprise')).toContain(
      `<skipped message="not exercised: Daily scenario not allowed: ${DAILY_NOT_ALLOWED} — To exercise it: --allow-daily"/>`,
    );
  });

  it('The run’s properties give each plan’s outcome, how many are certified, the conformance key, and the MUSTs not exercised with their plans.', () => {
    const head = xml.slice(0, xml.indexOf('</properties>'));
    expect(property(head, 'plans')).toBe('free: certified, pro: incomplete, business: not-conformant, enterprise: incomplete');
    expect(property(head, 'plansCertified')).toBe('1 of 4 plans certified');
    expect(property(head, 'conformanceKey')).toBe(CONFORMANCE_KEY);
    expect(property(head, 'notExercised')).toBe(
      'RL-RECOVERY (business), RL-429-NOTHING-STORED (business), RL-SUSTAINED-BELOW-CEILING (pro), RL-WINDOW-PER-MINUTE (pro), RL-DAILY-QUOTA (pro, enterprise)',
    );
    expect(property(head, 'plan')).toBeUndefined();
  });

  it('The totals add up every testsuite: conformance once, each plan’s rate-limit requirements, and the scenarios’ judgements.', () => {
    const cases = xml.match(/<testcase /g)!.length;
    const judged = report.load!.flatMap((l) => l.judgements.filter((j) => j.outcome !== 'observe')).length;
    // Shared requirements once; the rate-limit areas once per plan (4 plans).
    const perPlan = REQUIREMENTS.filter((r) => PER_PLAN_AREAS.includes(r.area)).length;
    expect(cases).toBe(REQUIREMENTS.length - perPlan + 4 * perPlan + judged);
    expect(xml).toMatch(new RegExp(`^<testsuites [^>]*tests="${cases}" failures="4"`, 'm'));
  });

  it('A single-plan run that carries its one plan in plans reads exactly as without.', () => {
    for (const quick of [false, true]) {
      const { withPlans, without } = onePlan(quick);
      expect(renderJunit(withPlans)).toBe(renderJunit(without));
    }
  });
});

describe('XML escaping', () => {
  const cases: [string, string, string][] = [
    ['markup', '<a href="x">&\'</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;'],
    ['control characters, made visible', 'a\u0000b\u001Fc', 'a\\u0000b\\u001Fc'],
    ['a lone surrogate, made visible', 'x\uD800y', 'x\\uD800y'],
    ['zero-width, format and bidirectional characters, made visible', 'a\u200Bb\uFEFFc\u202Ed', 'a\\u200Bb\\uFEFFc\\u202Ed'],
    ['noncharacters and a tag character, made visible', 'a\uFFFEb\u{E0041}', 'a\\uFFFEb\\u{E0041}'],
    ['a valid astral character', 'pet 🐕', 'pet 🐕'],
    ['tabs and line breaks in text', 'a\tb\nc', 'a\tb\nc'],
  ];
  it.each(cases)('escapeXml handles %s.', (_name, input, expected) => {
    expect(escapeXml(input)).toBe(expected);
  });

  it('escapeAttr keeps line breaks and tabs as character references.', () => {
    expect(escapeAttr('a\tb\nc\r')).toBe('a&#9;b&#10;c\\u000D');
  });

  it('stripInvalidXml leaves valid text untouched.', () => {
    expect(stripInvalidXml('Ärger – ok')).toBe('Ärger – ok');
  });
});
