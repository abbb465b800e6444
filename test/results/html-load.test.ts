import { describe, expect, it } from 'vitest';
import type { LoadReport } from '../../src/core/load-report.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { niceStep, renderChart, retryAfterSpans } from '../../src/results/writers/html-chart.ts';
import { timeAxis } from '../../src/results/writers/html-chart-axis.ts';
import { certifiedReport, failingReport, HOSTILE, unthrottledReport } from '../support/report-fixtures.ts';
import { attrs, drawing, requirementRow, scenarioCard } from './html-parts.ts';
import { EARLY_REQUEST, passingLoad, stillThrottledRecovery, twoRequestRecovery } from '../support/load-fixtures.ts';

describe('index.html: rate limits under load', () => {
  it('The scenarios are grouped per plan, each with its question, verdict, chart and judgements.', () => {
    const html = renderHtml(certifiedReport());
    expect(attrs(html, 'data-testid="load-plan" data-plan')).toEqual(['free']);
    expect(html).toContain('<h3 class="plan">Plan free · 2 scenarios: ceiling passed, recovery passed</h3>');
    const ceiling = scenarioCard(html, 'ceiling');
    expect(ceiling).toContain('<p class="question">Does the first request beyond the plan&#39;s limit get a well-formed 429');
    expect(ceiling.match(/data-testid="load-chart"/g)).toHaveLength(1);
    expect(ceiling).toMatch(/data-testid="load-judgement" data-requirement="RL-CEILING-429" data-status="pass"/);
  });

  it('Each chart is drawn wide and narrow, with axis labels, the Remaining line, the limit, 429 markers and Retry-After waits.', () => {
    const html = renderHtml(certifiedReport());
    expect(html.match(/data-testid="load-chart"/g)).toHaveLength(2);
    for (const layout of ['wide', 'narrow'] as const) {
      const svg = drawing(scenarioCard(html, 'recovery'), layout);
      for (const id of ['chart-x-label', 'chart-y-label', 'chart-remaining', 'chart-429', 'chart-retry-after', 'chart-limit'])
        expect(svg, `${layout} ${id}`).toContain(`data-testid="${id}"`);
    }
  });

  it('A rate-limit failure shows the offending request and response with a curl line, and the chart marks that request.', () => {
    const html = renderHtml(failingReport());
    const ceiling = scenarioCard(html, 'ceiling');
    const judgement = ceiling.slice(ceiling.indexOf('data-requirement="RL-NOT-EARLY" data-status="fail"'));
    expect(judgement).toMatch(/<details class="evidence" data-testid="evidence" data-outcome="fail" open>/);
    expect(judgement).toContain(`data-testid="evidence-at">request #${EARLY_REQUEST}, 5.02 s after the scenario started`);
    expect(judgement).toContain('<span class="sl bad">HTTP 429</span>');
    expect(judgement).toContain('<span class="hn">retry-after</span>');
    expect(judgement).toContain('data-testid="copy-curl"');
    expect(ceiling).not.toContain('No request/response excerpt was recorded');
    for (const layout of ['wide', 'narrow'] as const) {
      const svg = drawing(ceiling, layout);
      expect(svg).toMatch(
        new RegExp(
          `data-testid="chart-offending" data-seq="${EARLY_REQUEST}" data-requirements="RL-NOT-EARLY RL-CEILING-429" data-outcome="fail"`,
        ),
      );
      const marked = /data-seq="51" data-requirements="[^"]*"[^]*?<circle cx="([\d.]+)"/.exec(svg)![1];
      const the429 = /data-testid="chart-429" cx="([\d.]+)"/.exec(svg)![1];
      expect(Math.abs(Number(marked) - Number(the429))).toBeLessThanOrEqual(1);
    }
    expect(ceiling).toContain('Offending request: request #51 (RL-NOT-EARLY, RL-CEILING-429)');
    expect(drawing(ceiling, 'wide').match(/data-testid="chart-offending"/g)).toHaveLength(1);
  });

  it('The requirement row of a load failure shows the same evidence and links to the marked chart.', () => {
    const html = renderHtml(failingReport());
    const tr = requirementRow(html, 'RL-NOT-EARLY');
    expect(tr).toContain('request #51, 5.02 s after the scenario started — <a href="#chart-load-ceiling-free">marked on the chart</a>');
    expect(html).toContain('id="chart-load-ceiling-free"');
  });

  it('A recovery still throttled after Retry-After marks its probe, and dates it by the timeline.', () => {
    const html = renderHtml({ ...certifiedReport(), load: [stillThrottledRecovery()] });
    const recovery = scenarioCard(html, 'recovery');
    expect(drawing(recovery, 'wide')).toContain(
      'data-testid="chart-offending" data-seq="62" data-requirements="RL-RECOVERY" data-outcome="fail"',
    );
    expect(recovery).toContain('data-testid="evidence-at">request #62, 60.5 s after the scenario started');
  });

  it('A scenario that got no 429 says, for each requirement a 429 would have judged, that it got none — and the certificate gives that reason.', () => {
    const r = unthrottledReport();
    const ceiling = scenarioCard(renderHtml(r), 'ceiling');
    expect(ceiling).toMatch(/data-requirement="RL-429-RETRY-AFTER" data-status="skip"/);
    const reason = r.requirements.find((q) => q.id === 'RL-429-RETRY-AFTER')!.notExercised!.reason;
    expect(reason).toMatch(/the ceiling got no 429 within \d+ requests/);
    expect(ceiling).toContain('the ceiling got no 429 within');
    expect(ceiling).toContain('<li>Stopped: request cap reached (70)</li>');
  });

  it('Judgements are listed failures first, each request’s evidence open once, and the passes folded into one row.', () => {
    const ceiling = scenarioCard(renderHtml(failingReport()), 'ceiling');
    const statuses = attrs(ceiling, 'data-testid="load-judgement" data-requirement="[^"]*" data-status');
    expect(statuses.slice(0, 2)).toEqual(['fail', 'fail']);
    expect(statuses.indexOf('pass')).toBeGreaterThan(statuses.lastIndexOf('fail'));
    expect(ceiling.match(/data-outcome="fail" open>/g)).toHaveLength(1);
    expect(ceiling).toMatch(
      /data-requirement="RL-CEILING-429" data-status="fail"><code>RL-CEILING-429<\/code><details class="evidence" data-testid="evidence" data-outcome="fail">/,
    );
    expect(ceiling.indexOf('data-testid="load-passed-fold"')).toBeLessThan(ceiling.indexOf('data-status="pass"'));
  });

  it('A report without load reports has no load section.', () => {
    const { load: _load, ...r } = certifiedReport();
    expect(renderHtml(r)).not.toContain('data-testid="load"');
  });
});

describe('the load chart', () => {
  it('A two-request recovery gets a time axis in ms whose ticks all have distinct labels.', () => {
    const chart = renderChart(twoRequestRecovery());
    for (const layout of ['wide', 'narrow'] as const) {
      const svg = drawing(chart, layout);
      const ticks = [...svg.matchAll(/data-testid="chart-x-tick"[^>]*>([^<]*)</g)].map((m) => m[1]);
      expect(ticks.length, layout).toBeGreaterThanOrEqual(3);
      expect(new Set(ticks).size, layout).toBe(ticks.length);
      expect(svg).toContain('Time since scenario start (ms)');
    }
  });

  const axes: [string, string, number, string[]][] = [
    ['3 ms', 'ms', 3, ['0', '20', '40']],
    ['1.5 s', 'ms', 1_500, ['0', '500', '1000']],
    ['2.5 s', 's', 2_500, ['0', '0.5', '1.0']],
    ['70 s', 's', 70_000, ['0', '20', '40']],
    ['a day', 'h', 86_400_000, ['0', '5', '10']],
  ];
  it.each(axes)('A run of %s is labelled in %s, with distinct ticks.', (_name, unit, span, first) => {
    const a = timeAxis(span, 5);
    expect(a.unit).toBe(unit);
    expect([0, a.step, 2 * a.step].map((t) => (t === 0 ? '0' : a.label(t)))).toEqual(first);
    expect(a.end).toBeGreaterThanOrEqual(span);
  });

  it('Overlapping Retry-After waits merge into one span.', () => {
    const tl = [
      { t: 0, status: 429, retryAfter: 2 },
      { t: 1000, status: 429, retryAfter: 2 },
      { t: 5000, status: 429, retryAfter: 1 },
      { t: 5500, status: 200 },
    ];
    expect(retryAfterSpans(tl)).toEqual([
      [0, 3000],
      [5000, 6000],
    ]);
  });

  const steps: [number, number, number][] = [
    [36_000, 10, 5000],
    [60, 4, 20],
    [1, 10, 0.1],
    [0, 5, 1],
  ];
  it.each(steps)('niceStep(%d, %d) is %d.', (span, max, step) => {
    expect(niceStep(span, max)).toBeCloseTo(step);
  });

  const run = (timeline: LoadReport['timeline'], scenario = 'ceiling'): LoadReport =>
    ({ ...passingLoad()[0], scenario, judgements: [], timeline }) as LoadReport;

  it('A run of 100,000 requests gives a bounded SVG (points are bucketed per pixel column).', () => {
    const tl = Array.from({ length: 100_000 }, (_, i) => ({
      t: i * 10,
      seq: i + 1,
      status: i % 1000 === 999 ? 429 : 200,
      remaining: 999 - (i % 1000),
      limit: 1000,
      ...(i % 1000 === 999 ? { retryAfter: 1 } : {}),
    }));
    const svg = renderChart(run(tl, 'daily'));
    expect(svg.length).toBeLessThan(600_000);
    expect(svg).toContain('429 Too Many Requests (100)');
  });

  it('A scenario without requests says so instead of drawing an empty chart.', () => {
    expect(renderChart(run([]))).toContain('No requests were recorded');
  });

  it('Hostile scenario names are escaped in the chart.', () => {
    expect(renderChart(run(passingLoad()[0].timeline, HOSTILE.script))).not.toContain(HOSTILE.script);
  });
});
