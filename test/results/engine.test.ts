/**
 * The engine of the rate-limit scenarios in every writer: which engine, why, and the k6 found with the suite's
 * standing on it. A MUST failure found on a k6 the suite is not yet verified on says so at the start of its message —
 * the one place every writer shows beside the evidence (console, summary.md, JUnit, the HTML, certification.json) —
 * and no other failure does.
 */
import { describe, expect, it } from 'vitest';
import type { EngineRecord } from '../../src/core/engine-record.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { certificationReport } from '../../src/results/certification.ts';
import type { RunReport } from '../../src/results/types.ts';
import { explainingFinding } from '../../src/results/writers/common.ts';
import { renderConsole } from '../../src/results/writers/console.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { renderJson } from '../../src/results/writers/report-json.ts';
import { renderJunit } from '../../src/results/writers/junit.ts';
import { renderSummary } from '../../src/results/writers/markdown.ts';
import { BASE_URL, conformance, fullProfile, SPEC_SHA } from '../support/report-fixtures.ts';
import { passingLoad, unthrottledLoad } from '../support/load-fixtures.ts';

const K6 = (version: string, status: 'verified' | 'unverified' | 'refused') => ({ version, status, verifiedOn: 'k6 v1.0.0 to v2.2.x' });
const ENGINES: Record<string, EngineRecord> = {
  unverified: {
    name: 'k6',
    requested: 'auto',
    reason: '/opt/k6 is k6 v2.3.0, newer than …: it runs, not yet verified',
    k6: K6('2.3.0', 'unverified'),
  },
  verified: {
    name: 'k6',
    requested: 'k6',
    reason: 'k6 v2.2.0 at /opt/k6, a version the suite is verified on',
    k6: K6('2.2.0', 'verified'),
  },
  fellBack: { name: 'node', requested: 'auto', reason: '/opt/k6 is k6 v3.0.0, a major release newer than …', k6: K6('3.0.0', 'refused') },
};
const NOTE = 'Found on k6 v2.3.0, not yet verified (--engine node rules k6 out): ';

/** A certificate by the certify command's assembly: a ceiling that got no 429 (RL-CEILING-429 fails) on `engine`. */
function certificate(
  engine: EngineRecord | undefined,
  ran: LoadReport['engine'] = engine?.name ?? 'node',
  load = unthrottledLoad(),
): RunReport {
  return certificationReport({
    suiteVersion: '0.1.0',
    specSha256: SPEC_SHA,
    target: { env: 'production', baseUrl: BASE_URL, plan: 'free', embedded: false },
    startedAt: new Date('2025-06-01T10:00:00.000Z'),
    endedAt: new Date('2025-06-01T10:02:00.000Z'),
    interrupted: false,
    requestsSent: 412,
    conformance: [...conformance(), ...fullProfile()],
    lanes: [{ plan: 'free', reports: load.map((r) => ({ ...r, engine: ran })), notRun: [] }],
    ...(engine ? { engine } : {}),
    notes: [],
  });
}

const ceiling = (r: RunReport) => r.requirements.find((q) => q.id === 'RL-CEILING-429')!;

describe('a failure found on a k6 the suite is not yet verified on', () => {
  it('Says so at the start of its message, in the finding and in the scenario’s own judgement; a pass is left as it was.', () => {
    const r = certificate(ENGINES.unverified);
    expect(ceiling(r).status).toBe('fail');
    expect(explainingFinding(ceiling(r))?.message.startsWith(NOTE)).toBe(true);
    const judged = r.load![0].judgements;
    expect(judged.filter((j) => j.outcome === 'fail').every((j) => j.message.startsWith(NOTE))).toBe(true);
    expect(judged.filter((j) => j.outcome !== 'fail').some((j) => j.message.includes('Found on'))).toBe(false);
  });

  it('Every writer shows the note beside the failure’s evidence.', () => {
    const r = certificate(ENGINES.unverified);
    const f = explainingFinding(ceiling(r))!;
    const console = renderConsole(r).split('\n');
    expect(console[console.findIndex((l) => l.includes('breaks RL-CEILING-429')) + 1]).toContain(`${f.title}: ${NOTE}`);
    expect(renderSummary(r)).toMatch(
      /^- \*\*RL-CEILING-429\*\* \(MUST\): .*Found on k6 v2\.3\.0, not yet verified \\\(--engine node rules k6 out\\\): /m,
    );
    expect(renderJunit(r)).toMatch(
      /<testcase classname="rate-limit-load" name="RL-CEILING-429: [^"]*"[^>]*>\s*<failure message="[^"]*: Found on k6 v2\.3\.0, not yet verified/,
    );
    const article = renderHtml(r).split('data-requirement="RL-CEILING-429"')[1].split('</article>')[0];
    expect(article).toContain(`<p class="wide why">${NOTE}`);
    expect(JSON.parse(renderJson(r)).requirements.find((q: { id: string }) => q.id === 'RL-CEILING-429').findings[0].message).toMatch(
      /^Found on k6 v2\.3\.0/,
    );
  });

  it.each([
    ['on a verified k6', certificate(ENGINES.verified)],
    ['on the Node engine after --engine auto left a refused k6', certificate(ENGINES.fellBack)],
    ['on the Node engine of a run that recorded an unverified k6 (its other lane)', certificate(ENGINES.unverified, 'node')],
    ['in a report that records no engine', certificate(undefined)],
  ])('A failure found %s carries no note.', (_name, r) => {
    expect(ceiling(r).status).toBe('fail');
    for (const text of [renderConsole(r), renderSummary(r), renderJunit(r), renderHtml(r), renderJson(r)])
      expect(text).not.toContain('Found on k6');
  });
});

describe('the engine in every writer', () => {
  const passing = (engine: EngineRecord) => certificate(engine, engine.name, passingLoad());

  it('A run on an unverified k6 names the release and says it is not yet verified in the console, summary.md, JUnit, the HTML and the JSON.', () => {
    const r = passing(ENGINES.unverified);
    const words = 'k6 engine (k6 v2.3.0, not yet verified: the suite is verified on k6 v1.0.0 to v2.2.x)';
    expect(renderConsole(r)).toMatch(new RegExp(`requests; rate limits on the ${words.replace(/[().]/g, '\\$&')}$`, 'm'));
    expect(renderSummary(r)).toContain(
      '- **Rate limits:** k6 engine \\(k6 v2.3.0, not yet verified: the suite is verified on k6 v1.0.0 to v2.2.x\\)',
    );
    expect(renderSummary(r)).toContain('- **Engine chosen:** --engine auto: /opt/k6 is k6 v2.3.0');
    const junit = renderJunit(r);
    for (const [name, value] of [
      ['engine', words],
      ['k6Version', '2.3.0'],
      ['k6Status', 'unverified'],
    ])
      expect(junit).toContain(`<property name="${name}" value="${value}"/>`);
    const html = renderHtml(r);
    expect(html).toContain(`data-testid="meta-engine">${words}<`);
    expect(html).toContain(
      'data-testid="flag-k6-unverified">Rate limits ran on k6 v2.3.0, which the suite is not yet verified on (k6 v1.0.0 to v2.2.x)',
    );
    expect(JSON.parse(renderJson(r)).engine).toEqual(ENGINES.unverified);
  });

  it.each([
    ['a verified k6', ENGINES.verified, 'k6 engine (k6 v2.2.0)', 'verified'],
    ['the Node engine --engine auto took over a refused k6', ENGINES.fellBack, 'node engine', 'refused'],
  ] as const)('A run on %s names its engine and why, without the unverified flag.', (_name, engine, words, status) => {
    const r = passing(engine);
    expect(renderConsole(r)).toMatch(new RegExp(`rate limits on the ${words.replace(/[().]/g, '\\$&')}$`, 'm'));
    expect(renderJunit(r)).toContain(`<property name="k6Status" value="${status}"/>`);
    expect(renderSummary(r)).toContain(`- **Engine chosen:** --engine ${engine.requested}: `);
    const html = renderHtml(r);
    expect(html).toContain(`data-testid="meta-engine">${words}<`);
    expect(html).not.toContain('flag-k6-unverified');
    for (const text of [renderConsole(r), renderSummary(r), html]) expect(text).not.toContain('not yet verified');
  });
});
