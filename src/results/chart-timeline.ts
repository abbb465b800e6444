/**
 * What a certificate keeps of a rate-limit scenario's timeline: what its chart
 * draws, not every request. The chart (writers/html-chart.ts) plots, per pixel
 * column of an 800-pixel-wide plot, the first, lowest, highest and last
 * X-RateLimit-Remaining and one tick per kind of status (2xx, 429, other); the
 * 429s with their Retry-After waits; and the requests the judgements point at.
 * So a long timeline keeps, in each of CHART_BUCKETS slices of its time (about
 * two pixel columns each), those points; every non-2xx response (up to
 * KEEP_SPECIAL); and every request a judgement names — and says how many
 * requests of each kind it stood for, so the chart's counts stay the real
 * ones. The judgements and their evidence are kept whole; the per-scenario
 * reports of `npm run load` keep their whole timeline. Pure.
 */
import type { Judgement } from '../core/sections/define.ts';
import type { LoadReport, TimelinePoint, TimelineTotals } from '../core/load-report.ts';

/** Slices of a scenario's time: about two pixel columns each of the chart's wide drawing. */
export const CHART_BUCKETS = 400;
/** Non-2xx responses kept one by one (a server refusing everything is bucketed beyond these). */
export const KEEP_SPECIAL = 2000;

type Kind = keyof Omit<TimelineTotals, 'requests'>;
const kindOf = (status: number): Kind => (status === 429 ? 'tooMany' : status >= 200 && status < 300 ? 'ok' : 'other');

/** How many requests of each kind a timeline holds. */
export function totalsOf(timeline: readonly TimelinePoint[]): TimelineTotals {
  const t: TimelineTotals = { requests: timeline.length, ok: 0, tooMany: 0, other: 0 };
  for (const p of timeline) t[kindOf(p.status)]++;
  return t;
}

/** The totals of a report's timeline; requests sent beyond the points recorded (a timeline thinned at the source keeps every non-2xx) were 2xx. */
function totalsWithUnrecorded(lr: LoadReport): TimelineTotals {
  const t = totalsOf(lr.timeline);
  const unrecorded = lr.requestsSent - t.requests;
  return unrecorded > 0 ? { ...t, requests: lr.requestsSent, ok: t.ok + unrecorded } : t;
}

/** The requests the judgements point at (evidence.at.request): the chart marks them. */
const named = (judgements: readonly Judgement[]) =>
  new Set(judgements.map((j) => j.evidence?.at?.request).filter((n): n is number => Number.isFinite(n)));

/** The points of one slice worth keeping: first, last, lowest and highest Remaining, and the first of each kind. */
function extremes(slice: readonly TimelinePoint[]): TimelinePoint[] {
  const withRemaining = slice.filter((p) => p.remaining !== undefined);
  const by = (better: (a: number, b: number) => boolean) =>
    withRemaining.reduce<TimelinePoint | undefined>((m, p) => (!m || better(p.remaining!, m.remaining!) ? p : m), undefined);
  const kinds = new Map<Kind, TimelinePoint>();
  for (const p of slice) if (!kinds.has(kindOf(p.status))) kinds.set(kindOf(p.status), p);
  return [slice[0], slice[slice.length - 1], by((a, b) => a < b), by((a, b) => a > b), ...kinds.values()].filter(
    (p): p is TimelinePoint => p !== undefined,
  );
}

/** The timeline a chart needs (in time order), or the timeline itself when it is short enough to keep whole. */
export function chartTimeline(timeline: readonly TimelinePoint[], judgements: readonly Judgement[] = []): TimelinePoint[] {
  if (timeline.length <= 2 * CHART_BUCKETS) return [...timeline];
  const sorted = timeline.filter((p) => Number.isFinite(p.t)).sort((a, b) => a.t - b.t);
  const keep = new Set<TimelinePoint>();
  const marks = named(judgements);
  let special = 0;
  for (const p of sorted)
    if ((p.seq !== undefined && marks.has(p.seq)) || (kindOf(p.status) !== 'ok' && special++ < KEEP_SPECIAL)) keep.add(p);
  const span = Math.max(1, sorted[sorted.length - 1].t - sorted[0].t);
  let slice: TimelinePoint[] = [];
  let current = -1;
  const flush = () => {
    for (const p of extremes(slice)) keep.add(p);
    slice = [];
  };
  for (const p of sorted) {
    const b = Math.min(CHART_BUCKETS - 1, Math.floor(((p.t - sorted[0].t) / span) * CHART_BUCKETS));
    if (b !== current && slice.length) flush();
    current = b;
    slice.push(p);
  }
  if (slice.length) flush();
  return sorted.filter((p) => keep.has(p));
}

/** A scenario report as a certificate keeps it: its chart's timeline, and what it stood for when thinned. */
export function forCertificate(lr: LoadReport): LoadReport {
  const kept = chartTimeline(lr.timeline, lr.judgements);
  if (kept.length === lr.timeline.length) return lr;
  return { ...lr, timeline: kept, timelineTotals: lr.timelineTotals ?? totalsWithUnrecorded(lr) };
}
