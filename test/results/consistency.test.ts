/**
 * Every writer says the same thing about a run: the console, certification.json,
 * summary.md, JUnit, the HTML certificate and the badge name the same outcome,
 * the certified wording, colour and ✅ appear only for a certified run, and
 * INFO observations are "observed", never counted as passed. Also: the curl
 * line every writer prints replays the request without ever holding the key.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/core/sections/define.ts';
import type { RunReport } from '../../src/results/types.ts';
import { BADGE_GREEN, renderBadge } from '../../src/results/writers/badge.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { curlOf } from '../../src/results/writers/curl.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { renderJson } from '../../src/results/writers/report-json.ts';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { renderSummary } from '../../src/results/writers/markdown.ts';
import {
  aborted,
  BASE_URL,
  certifiedReport,
  conformanceOnly,
  failingReport,
  incompleteReport,
  interrupted,
  keyRefusedReport,
  SECRET_KEY,
  unthrottledReport,
  warnedMustReport,
} from '../support/report-fixtures.ts';
import { allPlansCertified, CONFORMANCE_KEY, cutShortPro, mixedPlans, onePlan, threeOfFourCertified } from './plan-fixtures.ts';

const runs: [string, RunReport, string][] = [
  ['certified', certifiedReport(), 'CERTIFIED'],
  ['conformant', conformanceOnly(certifiedReport()), 'CONFORMANT'],
  ['incomplete', incompleteReport(), 'PASSED, INCOMPLETE'],
  ['not conformant', failingReport(), 'NOT CONFORMANT'],
  ['not conformant without a 429', unthrottledReport(), 'NOT CONFORMANT'],
  ['interrupted', interrupted(certifiedReport()), 'INTERRUPTED'],
  ['stopped early', aborted(incompleteReport()), 'STOPPED EARLY'],
  ['key refused', keyRefusedReport(), 'KEY REFUSED'],
  ['MUST warned', warnedMustReport(), 'PASSED, INCOMPLETE'],
];

describe('every writer says the same thing', () => {
  it.each([
    ['embedded reference server', { env: 'local', embedded: true }, '(local, plan free, embedded reference server)'],
    ['base URL given without --env', { env: 'local', embedded: false }, '(base URL, plan free)'],
    ['staging', { env: 'staging', embedded: false }, '(staging, plan free)'],
  ])('The target of a run on the %s is named the same in the console, summary.md and the HTML.', (_n, over, where) => {
    const r = certifiedReport();
    const report = { ...r, target: { ...r.target, ...over } };
    const label = where.slice(1).split(',')[0];
    expect(renderConsole(report).split('\n')[0]).toContain(where);
    expect(renderSummary(report)).toContain(`(${label}${over.embedded ? ', embedded reference server' : ''})`);
    expect(renderHtml(report)).toContain(`data-testid="meta-env">${label}<`);
  });

  it.each(runs)(
    'A %s run has the same headline in the console, summary.md, JUnit and the HTML, and the same outcome in the JSON.',
    (_n, r, headline) => {
      expect(renderConsole(r).split('\n')[0]).toContain(`: ${headline} — `);
      expect(renderSummary(r).split('\n')[0]).toContain(`**${headline}**`);
      expect(renderJunit(r)).toContain(`<property name="headline" value="${headline}"/>`);
      expect(renderJunit(r)).toContain(`<property name="outcome" value="${r.outcome}"/>`);
      expect(renderHtml(r)).toContain(`data-testid="verdict">${headline}</h1>`);
      expect(renderHtml(r)).toContain(`data-outcome="${r.outcome}"`);
      expect(JSON.parse(renderJson(r)).outcome).toBe(r.outcome);
      expect(renderBadge(r)).toContain(`aria-label="animal-store: ${headline.toLowerCase()}`);
    },
  );

  it.each(runs)('In a %s run, the certified wording, green and ✅ appear only if every MUST was exercised and passed.', (_n, r) => {
    const certified = r.outcome === 'certified' && !r.abort && !r.interrupted;
    const body = (html: string) => html.slice(html.indexOf('<body>'));
    expect(renderSummary(r).includes('✅')).toBe(certified);
    expect(renderBadge(r).includes(BADGE_GREEN)).toBe(certified);
    expect(body(renderHtml(r)).includes('v-certified')).toBe(certified);
    for (const text of [renderConsole(r), renderSummary(r), body(renderHtml(r)), renderBadge(r)])
      if (!certified) expect(text).not.toMatch(/\bcertified\b|\bCONFORMANT\b(?<!NOT CONFORMANT)/);
  });

  it.each(runs)('A %s run states the same scope sentence in the console, summary.md, JUnit and the HTML.', (_n, r) => {
    const scope = renderConsole(r).split('\n')[1].trim();
    expect(renderSummary(r)).toContain(`> ${scope.replace(/[()]/g, (c) => `\\${c}`)}`);
    expect(renderJunit(r)).toContain(`<property name="scope" value="${scope.replaceAll("'", '&#39;')}"/>`);
    expect(renderHtml(r)).toContain(`data-testid="scope">${scope.replaceAll("'", '&#39;')}</p>`);
  });

  it('A run incomplete only because a MUST warned names the warned MUSTs as the reason in every writer (never an empty reason).', () => {
    const r = warnedMustReport();
    expect([r.outcome, r.notExercised]).toEqual(['incomplete', []]);
    const scope =
      'No MUST requirement failed, but 1 MUST requirement warned (RESP-CONTENT-TYPE-JSON): this run does not certify the server. 1 cause raises 1 warning.';
    expect(renderConsole(r).split('\n')[1].trim()).toBe(scope);
    expect(renderSummary(r)).toContain(`> ${scope.replace(/[()]/g, (c) => `\\${c}`)}`);
    expect(renderHtml(r)).toContain(`data-testid="scope">${scope}</p>`);
  });

  it("A run whose key was refused (exit 5) is headlined KEY REFUSED, says it is no conformance verdict, and its JSON outcome stays one of the schema's.", () => {
    const r = keyRefusedReport();
    expect(renderConsole(r).split('\n')[1]).toBe(
      '  The API key was refused (every authenticated request was answered 401): the run stopped before judging the server, so this is no conformance verdict.',
    );
    expect(renderBadge(r)).toContain('aria-label="animal-store: key refused · free · ');
    expect(['certified', 'incomplete', 'not-conformant']).toContain(JSON.parse(renderJson(r)).outcome);
    expect(JSON.parse(renderJson(r)).keyRefused).toBe(true);
  });

  it('INFO observations are counted as observed, apart from passed, in every writer.', () => {
    const r = failingReport();
    const { observed, pass } = r.counts;
    expect(observed).toBeGreaterThan(0);
    expect(r.requirements.filter((q) => q.level === 'INFO' && q.status === 'pass')).toEqual([]);
    expect(renderConsole(r)).toContain(`${pass} passed · ${observed} observed`);
    expect(renderSummary(r)).toMatch(new RegExp(`\\| ${pass} \\| ${observed} \\|$`, 'm'));
    expect(renderJunit(r)).toContain(`<property name="observed" value="${observed}"/>`);
    expect(renderHtml(r)).toContain(`data-testid="count-observed"><b>${observed}</b><span>observed</span>`);
  });

  it('The console says which engine ran the rate-limit scenarios, and names none when none ran.', () => {
    const r = incompleteReport();
    expect(r.load?.length).toBeGreaterThan(0);
    expect(renderConsole(r)).toMatch(/requests; rate limits on the (node|k6) engine$/m);
    expect(renderConsole(conformanceOnly(r))).not.toContain('engine');
  });

  it('The MUSTs not exercised are named, with reason and remedy, by the console, summary.md, JUnit and the HTML.', () => {
    const r = incompleteReport();
    const daily = r.notExercised.find((n) => n.id === 'RL-DAILY-QUOTA')!;
    expect(renderConsole(r)).toContain(`○ RL-DAILY-QUOTA (MUST) not exercised: ${daily.reason} — To exercise it: run the daily scenario`);
    expect(renderSummary(r)).toContain(
      '- **RL-DAILY-QUOTA**: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario',
    );
    expect(renderJunit(r)).toContain(
      '<skipped message="not exercised: no rate-limit scenario of this run judges it — To exercise it: run the daily',
    );
    expect(renderHtml(r)).toContain('data-testid="not-exercised-item" data-requirement="RL-DAILY-QUOTA"');
  });

  it('The console names what is new since the last run before the counts.', () => {
    const lines = renderConsole(failingReport()).split('\n');
    const news = lines.findIndex((l) => l.includes('New since the last run: SCHEMA-PET, LIST-LIMIT-FILLS-PAGE'));
    expect(news).toBeGreaterThan(0);
    expect(news).toBeLessThan(lines.findIndex((l) => l.includes(' passed · ')));
  });

  it('No writer holds the key, even when the server echoed it (the reports are redacted before writing), except the JSON of the raw report.', () => {
    const r = failingReport();
    for (const text of [renderConsole(r, { verbose: true }), renderSummary(r)]) expect(text).not.toContain(SECRET_KEY);
  });
});

describe('every writer says the same thing about each plan of a run over several plans', () => {
  const multi: [string, RunReport][] = [
    ['all certified', allPlansCertified()],
    ['three of four certified', threeOfFourCertified()],
    ['mixed outcomes', mixedPlans()],
    ['two plans, one cut short', cutShortPro()],
    ['interrupted', interrupted(allPlansCertified())],
  ];
  const headlineOf: Record<string, string> = {
    certified: 'CERTIFIED',
    incomplete: 'PASSED, INCOMPLETE',
    'not-conformant': 'NOT CONFORMANT',
  };

  it.each(multi)('In a run with %s, each plan has the same outcome in the console, summary.md, JUnit, the HTML and the JSON.', (_n, r) => {
    const json = JSON.parse(renderJson(r));
    for (const p of r.plans!) {
      const words = r.interrupted ? 'INTERRUPTED' : headlineOf[p.outcome];
      expect(renderConsole(r)).toMatch(new RegExp(`^ {2}\\S+ ${p.plan}: ${words} · `, 'm'));
      expect(renderSummary(r)).toMatch(new RegExp(`^\\| ${p.plan} \\| \\S+ ${words} \\|`, 'm'));
      expect(renderJunit(r)).toMatch(
        new RegExp(
          `<property name="plan" value="${p.plan}"/>\n.*name="outcome" value="${p.outcome}"/>\n.*name="headline" value="${words}"/>`,
        ),
      );
      expect(renderHtml(r)).toContain(`data-testid="plan-column" data-plan="${p.plan}" data-outcome="${p.outcome}"`);
      expect(json.plans.find((q: { plan: string }) => q.plan === p.plan).outcome).toBe(p.outcome);
    }
  });

  it.each(multi)(
    'In a run with %s, ✅ and green mark exactly the certified plans, and the word certified is said only of them or of a count.',
    (_n, r) => {
      const certified = r.interrupted ? [] : r.plans!.filter((p) => p.outcome === 'certified');
      const all = certified.length === r.plans!.length;
      const lines = renderConsole(r);
      expect(lines.match(/✅/g)?.length ?? 0).toBe(certified.length);
      expect(renderSummary(r).match(/✅/g)?.length ?? 0).toBe(certified.length + (all ? 1 : 0));
      expect(renderHtml(r).match(/class="plan-col p-certified"/g)?.length ?? 0).toBe(certified.length);
      expect(renderBadge(r).includes(BADGE_GREEN)).toBe(all);
      const allowed = [/\b\d+ (of \d+ )?plans certified\b/g, ...certified.map((p) => new RegExp(`\\b${p.plan}: CERTIFIED\\b`, 'g'))];
      const rest = allowed.reduce((text, re) => text.replace(re, ''), lines);
      if (!all) expect(rest).not.toMatch(/certified/i);
    },
  );

  it('The console gives one line per plan under the headline and scope, then the conformance key, before the counts.', () => {
    const lines = renderConsole(mixedPlans()).split('\n');
    expect(lines.slice(2, 7)).toEqual([
      '  ✅ free: CERTIFIED · 60/min · 1,000/day · key from ANIMAL_STORE_API_KEY_FREE',
      '  🟡 pro: PASSED, INCOMPLETE · 300/min · 10,000/day · key from ANIMAL_STORE_API_KEY_PRO · not exercised: RL-SUSTAINED-BELOW-CEILING, RL-WINDOW-PER-MINUTE, RL-DAILY-QUOTA',
      '  ❌ business: NOT CONFORMANT · 1,000/min · 100,000/day · key from ANIMAL_STORE_API_KEY_BUSINESS · failed: RL-CEILING-429, RL-NOT-EARLY · not exercised: RL-RECOVERY, RL-429-NOTHING-STORED',
      '  🟡 enterprise: PASSED, INCOMPLETE · 1,500/min · 500,000/day · key from ANIMAL_STORE_API_KEY_ENTERPRISE · not exercised: RL-DAILY-QUOTA',
      `  conformance judged once, on the key from ${CONFORMANCE_KEY}, for every plan`,
    ]);
    expect(lines[0]).toBe('animal-store certification: NOT CONFORMANT — https://api.animal-store.example/v1 (production, 4 plans)');
    expect(lines[7]).toMatch(/ failed · /);
  });

  it('The console names the plan a failure or a gap concerns, and its replay line reads that plan’s key variable.', () => {
    const out = renderConsole(mixedPlans(), { verbose: true });
    expect(out).toMatch(
      /^ {2}✗ Throttled before the limit \(the ceiling scenario\) \[C-[0-9A-F]{8}\] — on business\n {6}breaks RL-NOT-EARLY, RL-CEILING-429 \(MUST\)$/m,
    );
    expect(out).toContain('replay: curl -i -H "Authorization: Bearer $ANIMAL_STORE_API_KEY_BUSINESS"');
    expect(out).toMatch(
      /^ {2}○ RL-DAILY-QUOTA \(MUST\) not exercised on pro, enterprise: on pro: .*; on enterprise: Daily scenario not allowed/m,
    );
  });

  it('A single-plan run that carries its one plan in plans reads exactly as without in every writer but the JSON.', () => {
    for (const quick of [false, true]) {
      const { withPlans, without } = onePlan(quick);
      for (const render of [renderConsole, renderSummary, renderJunit, renderHtml, renderBadge])
        expect(render(withPlans)).toBe(render(without));
      expect(JSON.parse(renderJson(withPlans)).plans).toHaveLength(1);
    }
  });
});

describe('the curl line', () => {
  const request = (over: Partial<NonNullable<Evidence['request']>>): Evidence => ({
    request: { method: 'GET', url: `${BASE_URL}/pets`, headers: { accept: 'application/json' }, ...over },
  });
  const cases: [string, Evidence, string][] = [
    [
      'the configured key',
      request({ headers: { Authorization: 'Bearer [REDACTED]' }, credential: 'key' }),
      `curl -i -H "Authorization: Bearer $ANIMAL_STORE_API_KEY" '${BASE_URL}/pets'`,
    ],
    ['no credential', request({ credential: 'none' }), `curl -i -H 'accept: application/json' '${BASE_URL}/pets'`],
    [
      'a credential the suite made up (commented after the URL, so the line still runs)',
      request({ headers: { authorization: 'Basic [REDACTED]' }, credential: 'other' }),
      `curl -i -H 'authorization: Basic [REDACTED]' '${BASE_URL}/pets'  # the Authorization value is a credential the suite made up, redacted`,
    ],
    [
      'a body with a quote',
      request({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '9' },
        body: `{"a":"b'c"}`,
        credential: 'none',
      }),
      `curl -i -X 'POST' -H 'content-type: application/json' --data-raw '{"a":"b'\\''c"}' '${BASE_URL}/pets'`,
    ],
    [
      'a truncated body',
      request({ method: 'POST', headers: {}, body: '{"a":', bodyTruncated: true, credential: 'none' }),
      `curl -i -X 'POST' --data-raw '{"a":' '${BASE_URL}/pets'  # the request body was cut to its first bytes`,
    ],
  ];
  it.each(cases)('A request with %s replays as expected.', (_name, ev, line) => {
    expect(curlOf(ev)).toBe(line);
  });

  it("The curl line of a rate-limit requirement says that alone it may not reproduce it; another requirement's does not.", () => {
    const ev = request({ headers: { Authorization: 'Bearer [REDACTED]' }, credential: 'key' });
    const plain = `curl -i -H "Authorization: Bearer $ANIMAL_STORE_API_KEY" '${BASE_URL}/pets'`;
    expect(curlOf(ev, undefined, 'RL-CEILING-429')).toBe(
      `${plain}  # alone it may not reproduce this: a rate-limit answer depends on the requests sent on the key before it`,
    );
    expect(curlOf(ev, undefined, 'GET-404-UNKNOWN')).toBe(plain);
  });

  it('Evidence without a request URL has no curl line.', () => {
    expect(curlOf({ response: { status: 500, headers: {} } })).toBeUndefined();
    expect(curlOf(request({ url: undefined }))).toBeUndefined();
  });
});
