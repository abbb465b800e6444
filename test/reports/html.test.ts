import { describe, expect, it } from 'vitest';
import { CSP, renderHtml } from '../../src/results/writers/html.ts';
import { niceStep, renderChart, retryAfterSpans } from '../../src/results/writers/html-chart.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, ceilingTimeline, conformanceOnly, failingReport, HOSTILE, interrupted, loadRun, passingReport, withResults } from './fixtures.ts';

const attr = (html: string, name: string) => [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);

describe('index.html', () => {
  const headlines: [string, RunReport, string, string][] = [
    ['a passing certification run', passingReport(), 'CERTIFIED', 'pass'],
    ['a passing conformance-only run', conformanceOnly(passingReport()), 'CONFORMANT', 'pass'],
    ['a failing run', failingReport(), 'NOT CONFORMANT', 'fail'],
    ['an interrupted run', interrupted(passingReport()), 'INTERRUPTED', 'stop'],
    ['an aborted run', aborted(passingReport()), 'ABORTED', 'stop'],
  ];
  it.each(headlines)('The banner of %s says %s.', (_name, report, headline, tone) => {
    const html = renderHtml(report);
    expect(html).toContain(`<h1 class="verdict" data-testid="verdict">${headline}</h1>`);
    expect(html).toContain(`class="card banner v-${tone}"`);
  });

  it('The banner of an aborted run gives the reason.', () => {
    expect(renderHtml(aborted(passingReport(), 'deadline exceeded'))).toMatch(/data-testid="abort-reason"><b>Reason:<\/b> deadline exceeded</);
  });

  it('The banner names the target, environment, plan, suite version, spec hash and date.', () => {
    const r = passingReport();
    const html = renderHtml(r);
    for (const [id, v] of [['meta-target', r.target.baseUrl], ['meta-env', 'production'], ['meta-plan', 'free'], ['meta-suite', '0.1.0'], ['meta-spec', r.specSha256], ['meta-date', '2025-06-01 10:00:00 UTC']])
      expect(html).toMatch(new RegExp(`data-testid="${id}">${v}<`));
  });

  it('Every requirement has one row with its id, status and level as attributes.', () => {
    const r = failingReport();
    const html = renderHtml(r);
    for (const q of r.requirements) expect(html).toContain(`data-testid="requirement" data-requirement="${q.id}" data-status="${q.status}" data-level="${q.level}"`);
    expect(html.match(/<article [^>]*data-testid="requirement"/g)).toHaveLength(r.requirements.length);
  });

  it('Requirements are grouped by area in catalogue order.', () => {
    expect(attr(renderHtml(passingReport()), 'data-area')).toEqual(['transport', 'responses', 'auth', 'listPets', 'createPet', 'getPet', 'deprecation', 'rate-limit-headers', 'rate-limit-load', 'versioning']);
  });

  it('Failure evidence is open by default and warning evidence is closed.', () => {
    const html = renderHtml(failingReport());
    expect(html).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="fail" open>/);
    expect(html).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="warn">/);
    expect(html).not.toMatch(/data-outcome="warn" open/);
  });

  it('The evidence shows the request, the response status, headers and body, and what was expected.', () => {
    const html = renderHtml(failingReport());
    const row = html.slice(html.indexOf('data-requirement="SCHEMA-PET"'), html.indexOf('</article>', html.indexOf('data-requirement="SCHEMA-PET"')));
    for (const s of ['<span class="sl">POST https://api.animal-store.example/v1/pets</span>', '<span class="sl">HTTP 201</span>', '<span class="hn">content-type</span>: application/json', '{&quot;id&quot;:&quot;12&quot;', 'data-testid="evidence-expected">id: integer (int64)<', 'data-testid="evidence-actual">id: &quot;12&quot; (string)<'])
      expect(row).toContain(s);
  });

  it('A waived requirement shows the reason and the expiry.', () => {
    const html = renderHtml(failingReport());
    expect(html).toContain('data-testid="waiver-expires">2099-12-31<');
    expect(html).toMatch(/data-testid="waiver-reason">Known gap, fixed in 2.4 &lt;script&gt;/);
  });

  it('INFO requirements show their observations.', () => {
    expect(renderHtml(passingReport())).toMatch(/data-testid="observations"><li>Observed for ERROR-CODE-VALUES/);
  });

  it('MUST waivers are flagged in the banner.', () => {
    const r = withResults(passingReport(), { 'AUTH-MISSING-401': (x) => ({ ...x, status: 'waived', waiver: { reason: 'legacy clients', expires: '2099-01-01' } }) });
    expect(renderHtml(r)).toMatch(/data-testid="flag-must-waivers">MUST waivers allowed \(--allow-must-waivers\): 1 MUST requirement waived/);
  });

  it('The file is self-contained: no external resource, no network URL in src, href or url().', () => {
    const html = renderHtml(failingReport());
    expect(html).not.toMatch(/<(link|iframe|object|embed|img)\b/i);
    expect(html).not.toMatch(/\s(src|href)="(?!#)/i);
    expect(html).not.toMatch(/url\((?!#)/i);
    expect(html).not.toMatch(/@import/);
  });

  it('A Content-Security-Policy allows only the page’s own style and script.', () => {
    const html = renderHtml(passingReport());
    expect(CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP.replaceAll("'", '&#39;')}">`);
  });

  const hostile = Object.entries(HOSTILE).filter(([k]) => k !== 'markdown');
  it.each(hostile)('Hostile content (%s) from the server appears only escaped.', (_name, text) => {
    const html = renderHtml(failingReport());
    expect(html).not.toContain(text);
  });

  it('The page has exactly one script element and no inline event handler.', () => {
    const html = renderHtml(failingReport());
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i);
  });

  it('Each load scenario has a chart with axis labels, the Remaining line, 429 markers and Retry-After spans.', () => {
    const html = renderHtml(passingReport());
    expect(html.match(/data-testid="load-chart"/g)).toHaveLength(2);
    for (const id of ['chart-x-label', 'chart-y-label', 'chart-remaining', 'chart-429', 'chart-retry-after', 'chart-limit']) expect(html).toContain(`data-testid="${id}"`);
  });

  it('Each load scenario says why it stopped.', () => {
    expect(renderHtml(failingReport())).toMatch(/data-testid="load-notes"><li>Stopped: request cap reached<\/li>/);
  });

  it('A report without load entries has no load section.', () => {
    expect(renderHtml(conformanceOnly(passingReport()))).not.toContain('data-testid="load"');
  });

  it('Print CSS hides the filter and keeps the content.', () => {
    expect(renderHtml(passingReport())).toMatch(/@media print\{[^]*\.filters,\.no-print\{display:none!important\}/);
  });
});

describe('the load chart', () => {
  it('Overlapping Retry-After waits merge into one span.', () => {
    const tl = [{ t: 0, status: 429, retryAfter: 2 }, { t: 1000, status: 429, retryAfter: 2 }, { t: 5000, status: 429, retryAfter: 1 }, { t: 5500, status: 200 }];
    expect(retryAfterSpans(tl)).toEqual([[0, 3000], [5000, 6000]]);
  });

  const steps: [number, number, number][] = [[36_000, 10, 5000], [60, 4, 20], [1, 10, 0.1], [0, 5, 1]];
  it.each(steps)('niceStep(%d, %d) is %d.', (span, max, step) => {
    expect(niceStep(span, max)).toBeCloseTo(step);
  });

  it('A run of 100,000 requests gives a bounded SVG (points are bucketed per pixel).', () => {
    const tl = Array.from({ length: 100_000 }, (_, i) => ({ t: i * 10, status: i % 1000 === 999 ? 429 : 200, remaining: 999 - (i % 1000), limit: 1000, retryAfter: i % 1000 === 999 ? 1 : undefined }));
    const svg = renderChart(loadRun('daily', 'pass', tl, []));
    expect(svg.length).toBeLessThan(400_000);
    expect(svg).toContain('429 Too Many Requests (100)');
  });

  it('A scenario without requests says so instead of drawing an empty chart.', () => {
    expect(renderChart(loadRun('window', 'fail', [], []))).toContain('No requests were recorded');
  });

  it('Hostile scenario names are escaped in the chart.', () => {
    const svg = renderChart(loadRun(HOSTILE.script, 'pass', ceilingTimeline(10, 10), []));
    expect(svg).not.toContain(HOSTILE.script);
  });
});
