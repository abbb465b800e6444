/**
 * The chart of one rate-limit scenario, as inline SVG: x = time since the
 * scenario started; the X-RateLimit-Remaining line (with the limit dashed);
 * every request as a tick in the lane under the plot, coloured 2xx / 429 /
 * other; 429s as red dots; Retry-After waits as shaded spans; and the request
 * each failing (or warning) judgement points at, marked and numbered.
 *
 * Drawn twice, wide and narrow: CSS shows the one that fits, so that its text
 * stays readable on a phone. Points are bucketed per pixel column, so a run of
 * 100,000 requests stays a small SVG.
 */
import { compactNumber, maxOf, niceStep, retryAfterSpans, seconds, timeAxis, type TimeAxis } from './html-chart-axis.ts';
import { CHART_BUCKETS } from '../chart-timeline.ts';
import { COLORS, kindOf, r1, remainingLine, requestLane, type Kind } from './html-chart-series.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import {
  loadAnchor,
  offendingRequests,
  offendingText,
  plottable,
  type LoadReport,
  type Offending,
  type TimelinePoint,
} from './load-runs.ts';

export { niceStep, retryAfterSpans } from './html-chart-axis.ts';

interface Layout {
  name: 'wide' | 'narrow';
  width: number;
  left: number;
  right: number;
  plotH: number;
  xTicks: number;
}

const LAYOUTS: readonly Layout[] = [
  { name: 'wide', width: 880, left: 60, right: 24, plotH: 190, xTicks: 10 },
  { name: 'narrow', width: 400, left: 46, right: 12, plotH: 170, xTicks: 4 },
];
const TOP = 26;
const LANE_H = 22;

const GRID = '#e6e9ed';
const AXIS = '#57606a';
const MARK = { fail: '#a40e26', warn: '#9a6700' };

/** A label; `attrs` are the drawing's own attributes (markup, never a value from the run). */
const text = (x: number, y: number, s: string, attrs?: SafeHtml) =>
  html`<text x="${r1(x)}" y="${r1(y)}" font-size="11" fill="${AXIS}"${attrs && html` ${attrs}`}>${s}</text>`;

/** Where a drawing puts things: its edges, its time axis and scales, and the series the scales were fitted to. */
interface Frame {
  l: Layout;
  x0: number;
  x1: number;
  y0: number;
  laneY: number;
  axisY: number;
  height: number;
  axis: TimeAxis;
  yMax: number;
  yStep: number;
  sx: (t: number) => number;
  sy: (v: number) => number;
  limits: number[];
  spans: ReturnType<typeof retryAfterSpans>;
}

/** The chart of one layout: `aria` labels it. */
function svg(
  lr: LoadReport,
  { tl, marks }: { tl: readonly TimelinePoint[]; marks: readonly Offending[] },
  l: Layout,
  aria: string,
): SafeHtml {
  const f = frameOf(tl, marks, l);
  const out: SafeHtml[] = [...yGrid(f), ...retryAfterShades(f), ...xTicks(f), ...axes(f), ...limitLine(f)];
  const line = remainingLine(tl, f.sx, f.sy, !lr.timelineTotals);
  if (line) out.push(line);
  // A certificate's thinned timeline (it keeps a few points a column) draws its 2xx as bands between points close in time.
  const gapMs = lr.timelineTotals ? (2 * Math.max(1, tl[tl.length - 1].t - tl[0].t)) / CHART_BUCKETS : undefined;
  out.push(...requestLane(tl, { sx: f.sx, sy: f.sy, laneY: f.laneY, laneH: LANE_H }, gapMs));
  out.push(...marks.map((m) => offendingMark(f, m)));
  const head = html`<svg class="chart-${l.name}" data-testid="load-chart-svg" data-layout="${l.name}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${l.width} ${f.height}" role="img" aria-label="${aria}">`;
  return joinHtml([head, html`<title>${aria}</title>`, ...out, html`</svg>`], '\n');
}

/** The drawing's frame: the time axis reaches the last request, wait and mark; the y axis the highest limit or Remaining. */
function frameOf(tl: readonly TimelinePoint[], marks: readonly Offending[], l: Layout): Frame {
  const x0 = l.left;
  const x1 = l.width - l.right;
  const y0 = TOP + l.plotH;
  const laneY = y0 + 14;
  const axisY = laneY + LANE_H + 8;
  const spans = retryAfterSpans(tl);
  const axis = timeAxis(maxOf([...spans.map((s) => s[1]), ...marks.map((m) => m.point?.t ?? m.ms)], tl[tl.length - 1].t), l.xTicks);
  const limits = tl.map((p) => p.limit).filter((n): n is number => n !== undefined);
  const remainings = tl.map((p) => p.remaining).filter((n): n is number => n !== undefined);
  const yRaw = maxOf(remainings, maxOf(limits, 1));
  const yStep = Math.max(1, niceStep(yRaw, 4));
  const yMax = Math.ceil(yRaw / yStep) * yStep;
  const sx = (t: number) => x0 + (Math.max(0, Math.min(t, axis.end)) / axis.end) * (x1 - x0);
  const sy = (v: number) => y0 - (Math.max(0, Math.min(v, yMax)) / yMax) * l.plotH;
  return { l, x0, x1, y0, laneY, axisY, height: axisY + 40, axis, yMax, yStep, sx, sy, limits, spans };
}

/** The horizontal grid lines and their Remaining labels. */
function yGrid(f: Frame): SafeHtml[] {
  const out: SafeHtml[] = [];
  for (let v = 0; v <= f.yMax + 1e-9; v += f.yStep) {
    const y = r1(f.sy(v));
    out.push(
      html`<line x1="${f.x0}" x2="${f.x1}" y1="${y}" y2="${y}" stroke="${GRID}"/>`,
      text(f.x0 - 6, y + 4, compactNumber(v), html`text-anchor="end"`),
    );
  }
  return out;
}

/** Each Retry-After wait as a shaded span (labelled when wide enough). */
function retryAfterShades(f: Frame): SafeHtml[] {
  const out: SafeHtml[] = [];
  for (const [a, b] of f.spans) {
    const x = r1(f.sx(a));
    const w = Math.max(1, r1(f.sx(b) - f.sx(a)));
    const tip = `Retry-After wait: ${seconds(b - a)} from ${seconds(a)}`;
    out.push(
      html`<rect data-testid="chart-retry-after" x="${x}" y="${TOP}" width="${w}" height="${f.laneY + LANE_H - TOP}" fill="${COLORS.span}" fill-opacity="0.18"><title>${tip}</title></rect>`,
    );
    if (w >= 150) out.push(text(x + w / 2, TOP + 16, `Retry-After wait ${seconds(b - a)}`, html`text-anchor="middle" fill="#bc4c00"`));
  }
  return out;
}

/** The time axis' ticks and their labels. */
function xTicks(f: Frame): SafeHtml[] {
  const out: SafeHtml[] = [];
  for (let t = 0; t <= f.axis.end + 1e-9; t += f.axis.step) {
    const x = r1(f.sx(t));
    out.push(
      html`<line x1="${x}" x2="${x}" y1="${f.axisY - 4}" y2="${f.axisY}" stroke="${AXIS}"/>`,
      text(x, f.axisY + 13, t === 0 ? '0' : f.axis.label(t), html`data-testid="chart-x-tick" text-anchor="middle"`),
    );
  }
  return out;
}

/** The axes, their labels and the request lane's. */
function axes(f: Frame): SafeHtml[] {
  const { x0, x1, y0, axisY } = f;
  return [
    html`<line x1="${x0}" x2="${x1}" y1="${y0}" y2="${y0}" stroke="${AXIS}"/>`,
    html`<line x1="${x0}" x2="${x0}" y1="${TOP}" y2="${y0}" stroke="${AXIS}"/>`,
    html`<line x1="${x0}" x2="${x1}" y1="${axisY - 4}" y2="${axisY - 4}" stroke="${AXIS}"/>`,
    text((x0 + x1) / 2, f.height - 6, `Time since scenario start (${f.axis.unit})`, html`data-testid="chart-x-label" text-anchor="middle"`),
    html`<text data-testid="chart-y-label" transform="translate(12 ${(y0 + TOP) / 2}) rotate(-90)" text-anchor="middle" font-size="11" fill="${AXIS}">X-RateLimit-Remaining</text>`,
    text(x0 - 6, f.laneY + LANE_H / 2 + 4, f.l.name === 'wide' ? 'requests' : 'req.', html`text-anchor="end"`),
  ];
}

/** The highest limit the responses stated, dashed (none when no response stated one). */
function limitLine(f: Frame): SafeHtml[] {
  if (!f.limits.length) return [];
  const limit = maxOf(f.limits, 0);
  const y = r1(f.sy(limit));
  return [
    html`<line data-testid="chart-limit" x1="${f.x0}" x2="${f.x1}" y1="${y}" y2="${y}" stroke="${COLORS.limit}" stroke-dasharray="5 4"/>`,
    text(f.x1 - 4, y - 4, `Limit ${limit}`, html`text-anchor="end" fill="${COLORS.limit}"`),
  ];
}

/** The request a failing (or warning) judgement points at: a line, a ring on its Remaining, its number, the judgements in its tip. */
function offendingMark(f: Frame, m: Offending): SafeHtml {
  const x = r1(f.sx(m.point?.t ?? m.ms));
  const cy = r1(m.point?.remaining !== undefined ? f.sy(m.point.remaining) : f.laneY + LANE_H / 2);
  const color = MARK[m.outcome];
  const status = m.point ? `, answered ${m.point.status}` : '';
  const what = m.judgements.map((j) => `${j.requirement} ${j.outcome === 'fail' ? 'failed' : 'warned'} (${j.title})`).join('; ');
  const tip = `Request #${m.seq} at ${seconds(m.point?.t ?? m.ms)}${status}: ${what}`;
  const lx = Math.max(f.x0 + 16, Math.min(f.x1 - 16, x));
  return html`<g data-testid="chart-offending" data-seq="${m.seq}" data-requirements="${m.judgements.map((j) => j.requirement).join(' ')}" data-outcome="${m.outcome}"><title>${tip}</title><line x1="${x}" x2="${x}" y1="${TOP - 4}" y2="${f.laneY + LANE_H}" stroke="${color}" stroke-width="1.5" stroke-dasharray="3 2"/><circle cx="${x}" cy="${cy}" r="7" fill="none" stroke="${color}" stroke-width="2.2"/><text x="${r1(lx)}" y="${TOP - 8}" text-anchor="middle" font-size="11" font-weight="700" fill="${color}">#${m.seq}</text></g>`;
}

/** The chart of a scenario as markup (what the page inserts). */
export function chart(lr: LoadReport): SafeHtml {
  const tl = plottable(lr.timeline);
  const open = html`<figure class="chart" data-testid="load-chart" data-scenario="${lr.scenario}" id="chart-${loadAnchor(lr)}">`;
  if (!tl.length) return html`${open}<p class="empty">No requests were recorded for this scenario.</p></figure>`;
  const marks = offendingRequests(lr);
  // A certificate's timeline keeps what the chart draws; its totals are the requests it stands for.
  const totals = lr.timelineTotals;
  const counts: Record<Kind, number> = totals
    ? { ok: totals.ok, tooMany: totals.tooMany, other: totals.other }
    : { ok: 0, tooMany: 0, other: 0 };
  if (!totals) for (const p of tl) counts[kindOf(p.status)]++;
  const requests = totals ? totals.requests : tl.length;
  const spans = retryAfterSpans(tl);
  const marked = marks.map(offendingText).join(', ');
  const aria =
    `Scenario ${lr.scenario}: requests and X-RateLimit-Remaining over time. ${requests} requests: ${counts.ok} 2xx, ${counts.tooMany} 429, ${counts.other} other; ${spans.length} Retry-After waits.` +
    (marked ? ` Marked: ${marked}.` : '');
  const legend = [
    html`<span><i class="sw sw-ok"></i>2xx (${counts.ok})</span>`,
    html`<span><i class="sw sw-429"></i>429 Too Many Requests (${counts.tooMany})</span>`,
    counts.other ? html`<span><i class="sw sw-other"></i>other status (${counts.other})</span>` : '',
    html`<span><i class="sw sw-line"></i>X-RateLimit-Remaining</span>`,
    html`<span><i class="sw sw-ra"></i>Retry-After wait (${spans.length})</span>`,
    marks.length
      ? html`<span data-testid="chart-offending-legend"><i class="sw sw-mark"></i>Offending request${marks.length === 1 ? '' : 's'}: ${marked}</span>`
      : '',
  ];
  const drawings = LAYOUTS.map((l) => svg(lr, { tl, marks }, l, aria));
  return joinHtml([open, ...drawings, html`<figcaption>${legend}</figcaption>`, html`</figure>`], '\n');
}

/** The chart of a scenario, as a string. */
export const renderChart = (lr: LoadReport): string => chart(lr).toString();
