/**
 * Every writer says the same thing about a run: the console, certification.json,
 * summary.md, JUnit, the HTML certificate and the badge name the same outcome,
 * the certified wording, colour and ✅ appear only for a certified run, and
 * INFO observations are "observed", never counted as passed. Also: the curl
 * line every writer prints replays the request without ever holding the key.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/core/judgement.ts';
import type { RunReport } from '../../src/results/types.ts';
import { BADGE_GREEN, renderBadge } from '../../src/results/writers/badge.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { curlOf } from '../../src/results/writers/curl.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { renderJson } from '../../src/results/writers/json.ts';
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
  SECRET_KEY,
  unthrottledReport,
} from './fixtures.ts';

const runs: [string, RunReport, string][] = [
  ['certified', certifiedReport(), 'CERTIFIED'],
  ['conformant', conformanceOnly(certifiedReport()), 'CONFORMANT'],
  ['incomplete', incompleteReport(), 'PASSED, INCOMPLETE'],
  ['not conformant', failingReport(), 'NOT CONFORMANT'],
  ['not conformant without a 429', unthrottledReport(), 'NOT CONFORMANT'],
  ['interrupted', interrupted(certifiedReport()), 'INTERRUPTED'],
  ['stopped early', aborted(incompleteReport()), 'STOPPED EARLY'],
];

describe('every writer says the same thing', () => {
  it.each(runs)('A %s run has the same headline in the console, summary.md, JUnit and the HTML, and the same outcome in the JSON.', (_n, r, headline) => {
    expect(renderConsole(r).split('\n')[0]).toContain(`: ${headline} — `);
    expect(renderSummary(r).split('\n')[0]).toContain(`**${headline}**`);
    expect(renderJunit(r)).toContain(`<property name="headline" value="${headline}"/>`);
    expect(renderJunit(r)).toContain(`<property name="outcome" value="${r.outcome}"/>`);
    expect(renderHtml(r)).toContain(`data-testid="verdict">${headline}</h1>`);
    expect(renderHtml(r)).toContain(`data-outcome="${r.outcome}"`);
    expect(JSON.parse(renderJson(r)).outcome).toBe(r.outcome);
    expect(renderBadge(r)).toContain(`aria-label="animal-store: ${headline.toLowerCase()}`);
  });

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

  it('The MUSTs not exercised are named, with reason and remedy, by the console, summary.md, JUnit and the HTML.', () => {
    const r = incompleteReport();
    const daily = r.notExercised.find((n) => n.id === 'RL-DAILY-QUOTA')!;
    expect(renderConsole(r)).toContain(`○ RL-DAILY-QUOTA not exercised: ${daily.reason} — To exercise it: run the daily scenario`);
    expect(renderSummary(r)).toContain('- **RL-DAILY-QUOTA**: no rate-limit scenario of this run judges it — To exercise it: run the daily scenario');
    expect(renderJunit(r)).toContain('<skipped message="not exercised: no rate-limit scenario of this run judges it — To exercise it: run the daily');
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
      request({ method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '9' }, body: `{"a":"b'c"}`, credential: 'none' }),
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

  it('Evidence without a request URL has no curl line.', () => {
    expect(curlOf({ response: { status: 500, headers: {} } })).toBeUndefined();
    expect(curlOf(request({ url: undefined }))).toBeUndefined();
  });
});
