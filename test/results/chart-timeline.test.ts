/**
 * What a certificate keeps of a long scenario's timeline (src/results/chart-timeline.ts):
 * what its chart draws. The Remaining line reaches the same lows and highs in
 * every slice of time, every 429 and every request a judgement names is kept,
 * the chart draws the same 429s, Retry-After waits, marks and counts as from the
 * whole timeline, and the certificate validates against its schema — at a
 * fraction of the size. A short timeline is kept whole.
 */
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import schema from '../../schemas/certification.schema.json' with { type: 'json' };
import type { TimelinePoint } from '../../src/core/load-report.ts';
import { ajv } from '../../src/schemas/project-ajv.ts';
import { certificationReport } from '../../src/results/certification.ts';
import { CHART_BUCKETS, chartTimeline, forCertificate, totalsOf } from '../../src/results/chart-timeline.ts';
import { renderChart } from '../../src/results/writers/html-chart.ts';
import { renderJson } from '../../src/results/writers/report-json.ts';
import { longRun, NAMED } from '../support/load-fixtures.ts';

/** The slice of a point's time, as chartTimeline cuts it. */
const sliceOf = (tl: readonly TimelinePoint[]) => {
  const t0 = tl[0].t;
  const span = tl[tl.length - 1].t - t0;
  return (p: TimelinePoint) => Math.min(CHART_BUCKETS - 1, Math.floor(((p.t - t0) / span) * CHART_BUCKETS));
};

describe('a long timeline in a certificate', () => {
  const full = longRun();
  const kept = forCertificate(full);

  it('Keeps under a third of its points, and says how many requests of each kind it stands for.', () => {
    expect(kept.timeline.length).toBeLessThan(full.timeline.length / 3);
    expect(kept.timelineTotals).toEqual({ requests: 3510, ok: 3507, tooMany: 3, other: 0 });
    expect(kept.timelineTotals).toEqual(totalsOf(full.timeline));
  });

  it('Reaches the same lowest and highest Remaining in every slice of its time (what the chart’s line draws).', () => {
    const slice = sliceOf(full.timeline);
    const range = (tl: readonly TimelinePoint[]) => {
      const out = new Map<number, [number, number]>();
      for (const p of tl) {
        const [lo, hi] = out.get(slice(p)) ?? [Infinity, -Infinity];
        out.set(slice(p), [Math.min(lo, p.remaining!), Math.max(hi, p.remaining!)]);
      }
      return [...out.entries()];
    };
    expect(range(kept.timeline)).toEqual(range(full.timeline));
    expect([kept.timeline[0], kept.timeline.at(-1)]).toEqual([full.timeline[0], full.timeline.at(-1)]);
  });

  it('Keeps every 429 and the request a judgement names, and the judgements whole.', () => {
    const seqs = (tl: readonly TimelinePoint[], status: number) => tl.filter((p) => p.status === status).map((p) => p.seq);
    expect(seqs(kept.timeline, 429)).toEqual(seqs(full.timeline, 429));
    expect(kept.timeline.some((p) => p.seq === NAMED)).toBe(true);
    expect(kept.judgements).toEqual(full.judgements);
  });

  it('Draws the same 429s, Retry-After waits, offending request, axis and counts as the whole timeline, in a smaller drawing.', () => {
    const parts = (svg: string) => ({
      tooMany: svg.match(/<circle data-testid="chart-429"[^>]*>/g),
      waits: svg.match(/<rect data-testid="chart-retry-after"[^>]*>/g),
      marks: svg.match(/<g data-testid="chart-offending"[^>]*>/g),
      legend: svg.match(/<figcaption>[\s\S]*<\/figcaption>/)?.[0],
      aria: svg.match(/aria-label="[^"]*"/)?.[0],
      ticks: svg.match(/data-testid="chart-x-tick"[^>]*>[^<]*/g),
    });
    const a = parts(renderChart(full));
    expect(parts(renderChart(kept))).toEqual(a);
    // Joined straight and drawn as a band, the kept points make a smaller drawing.
    expect(renderChart(kept).length).toBeLessThan(renderChart(full).length / 2);
    expect(a.aria).toContain('3510 requests: 3507 2xx, 3 429, 0 other; 3 Retry-After waits');
    expect(a.marks).toHaveLength(2); // wide and narrow drawings
  });

  it('The certificate keeps the chart’s timeline in `load` and in each plan’s results, and validates against its schema.', () => {
    const report = certificationReport({
      suiteVersion: 'test',
      specSha256: '0'.repeat(64),
      target: { env: 'local', baseUrl: 'http://127.0.0.1:4010/v1', plan: 'pro', embedded: true },
      startedAt: new Date('2030-01-01T12:00:00.000Z'),
      endedAt: new Date('2030-01-01T12:00:14.000Z'),
      interrupted: false,
      requestsSent: 3510,
      conformance: [],
      lanes: [{ plan: 'pro', reports: [full], notRun: [] }],
      plans: [{ plan: 'pro', perMinute: 300, perDay: 3300, keySource: 'the embedded server' }],
      notes: [],
    });
    expect(report.load?.[0].timeline).toEqual(kept.timeline);
    expect(report.plans?.[0].load[0].timeline).toEqual(kept.timeline);
    const validate = (ajv.getSchema(schema.$id) ?? ajv.compile(schema)) as ValidateFunction;
    const json = renderJson(report);
    expect(validate(JSON.parse(json)) ? 'valid' : ajv.errorsText(validate.errors)).toBe('valid');
    // One line a timeline point.
    expect(json).toMatch(/\n {8}\{"t":0,"seq":1,"status":200,"remaining":299,"limit":300,"reset":1900000001\},\n/);
  });
});

describe('a short timeline', () => {
  it('Is kept whole, with no totals.', () => {
    const short = longRun(2);
    expect(chartTimeline(short.timeline, short.judgements)).toEqual(short.timeline);
    expect(forCertificate(short)).toBe(short);
  });
});
