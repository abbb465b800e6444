/**
 * The chart of one load scenario run, as inline SVG:
 * x = time since the scenario started; the X-RateLimit-Remaining line (with the
 * limit as a dashed line); every request as a tick in the lane under the plot,
 * coloured 2xx / 429 / other; 429s marked by red dots on the plot; Retry-After
 * waits as shaded spans. Points are bucketed per pixel so a run of 100,000
 * requests stays a small SVG.
 */
import { escapeAttr, escapeXml } from './common.ts';
import type { LoadRun, TimelinePoint } from './load-runs.ts';

const W = 880;
const M = { left: 60, right: 24, top: 16 };
const PLOT_H = 190;
const LANE_Y = M.top + PLOT_H + 14;
const LANE_H = 22;
const AXIS_Y = LANE_Y + LANE_H + 8;
const H = AXIS_Y + 42;
const X0 = M.left;
const X1 = W - M.right;
const Y0 = M.top + PLOT_H;
const Y1 = M.top;

const COLORS = {
  ok: '#2da44e',
  tooMany: '#cf222e',
  other: '#8c959f',
  line: '#0969da',
  limit: '#57606a',
  span: '#fb8f44',
  grid: '#e6e9ed',
  axis: '#57606a',
};

type Kind = 'ok' | 'tooMany' | 'other';
const kindOf = (status: number): Kind => (status === 429 ? 'tooMany' : status >= 200 && status < 300 ? 'ok' : 'other');

const r1 = (n: number) => Math.round(n * 10) / 10;
/** Max without spreading (a timeline may hold more values than a call has arguments). */
const maxOf = (values: Iterable<number>, start: number) => {
  let m = start;
  for (const v of values) if (v > m) m = v;
  return m;
};

/** A "nice" step (1, 2, 5 × 10^k) giving at most `max` intervals over `span`. */
export function niceStep(span: number, max: number): number {
  if (!(span > 0)) return 1;
  const raw = span / max;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** Retry-After waits of the 429s, merged where they overlap: [start, end] in ms. */
export function retryAfterSpans(timeline: readonly TimelinePoint[]): [number, number][] {
  const spans = timeline
    .filter((p) => p.status === 429 && p.retryAfter !== undefined && p.retryAfter > 0)
    .map((p): [number, number] => [p.t, p.t + p.retryAfter! * 1000])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return merged;
}

function fmtSeconds(ms: number, step: number): string {
  const s = ms / 1000;
  return step >= 1000 ? String(Math.round(s)) : s.toFixed(step >= 100 ? 1 : 2);
}

export function renderChart(run: LoadRun): string {
  const tl = run.timeline;
  const title = `Scenario ${run.scenario}: requests and X-RateLimit-Remaining over time`;
  if (!tl.length) {
    return `<figure class="chart" data-testid="load-chart" data-scenario="${escapeAttr(run.scenario)}"><p class="empty">No requests were recorded for this scenario.</p></figure>`;
  }
  const spans = retryAfterSpans(tl);
  const tMax = maxOf(
    spans.map((s) => s[1]),
    Math.max(1, tl[tl.length - 1].t),
  );
  const limits = tl.map((p) => p.limit).filter((n): n is number => n !== undefined);
  const remainings = tl.map((p) => p.remaining).filter((n): n is number => n !== undefined);
  const yMaxRaw = maxOf(remainings, maxOf(limits, 1));
  const yStep = niceStep(yMaxRaw, 4);
  const yMax = Math.ceil(yMaxRaw / yStep) * yStep;
  const sx = (t: number) => X0 + (t / tMax) * (X1 - X0);
  const sy = (v: number) => Y0 - (Math.max(0, Math.min(v, yMax)) / yMax) * (Y0 - Y1);

  const out: string[] = [];
  // grid and y axis
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    const y = r1(sy(v));
    out.push(`<line x1="${X0}" x2="${X1}" y1="${y}" y2="${y}" stroke="${COLORS.grid}"/>`);
    out.push(`<text x="${X0 - 6}" y="${y + 4}" text-anchor="end" font-size="11" fill="${COLORS.axis}">${v}</text>`);
  }
  // Retry-After spans (plot and lane)
  for (const [a, b] of spans) {
    const x = r1(sx(a));
    const w = Math.max(1, r1(sx(b) - sx(a)));
    const secs = ((b - a) / 1000).toFixed(1);
    out.push(
      `<rect data-testid="chart-retry-after" x="${x}" y="${Y1}" width="${w}" height="${LANE_Y + LANE_H - Y1}" fill="${COLORS.span}" fill-opacity="0.18"><title>Retry-After wait: ${secs} s from ${(a / 1000).toFixed(1)} s</title></rect>`,
    );
    if (w >= 90)
      out.push(
        `<text x="${r1(x + w / 2)}" y="${Y1 + 16}" text-anchor="middle" font-size="11" fill="#bc4c00">Retry-After wait ${secs} s</text>`,
      );
  }
  // x axis
  const xStep = niceStep(tMax, 10);
  for (let t = 0; t <= tMax + 1e-9; t += xStep) {
    const x = r1(sx(t));
    out.push(`<line x1="${x}" x2="${x}" y1="${AXIS_Y - 4}" y2="${AXIS_Y}" stroke="${COLORS.axis}"/>`);
    out.push(`<text x="${x}" y="${AXIS_Y + 13}" text-anchor="middle" font-size="11" fill="${COLORS.axis}">${fmtSeconds(t, xStep)}</text>`);
  }
  out.push(`<line x1="${X0}" x2="${X1}" y1="${Y0}" y2="${Y0}" stroke="${COLORS.axis}"/>`);
  out.push(`<line x1="${X0}" x2="${X0}" y1="${Y1}" y2="${Y0}" stroke="${COLORS.axis}"/>`);
  out.push(`<line x1="${X0}" x2="${X1}" y1="${AXIS_Y - 4}" y2="${AXIS_Y - 4}" stroke="${COLORS.axis}"/>`);
  out.push(
    `<text data-testid="chart-x-label" x="${(X0 + X1) / 2}" y="${H - 6}" text-anchor="middle" font-size="12" fill="${COLORS.axis}">Time since scenario start (s)</text>`,
  );
  out.push(
    `<text data-testid="chart-y-label" transform="translate(14 ${(Y0 + Y1) / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="${COLORS.axis}">X-RateLimit-Remaining</text>`,
  );
  out.push(`<text x="${X0 - 6}" y="${LANE_Y + LANE_H / 2 + 4}" text-anchor="end" font-size="11" fill="${COLORS.axis}">requests</text>`);
  // limit line
  const limit = limits.length ? maxOf(limits, 0) : undefined;
  if (limit !== undefined) {
    const y = r1(sy(limit));
    out.push(`<line data-testid="chart-limit" x1="${X0}" x2="${X1}" y1="${y}" y2="${y}" stroke="${COLORS.limit}" stroke-dasharray="5 4"/>`);
    out.push(
      `<text x="${X1 - 4}" y="${y - 4}" text-anchor="end" font-size="11" fill="${COLORS.limit}">X-RateLimit-Limit ${escapeXml(limit)}</text>`,
    );
  }
  // remaining line, bucketed per pixel (first, min, max, last of each column)
  const cols = new Map<number, number[]>();
  for (const p of tl)
    if (p.remaining !== undefined) {
      const c = Math.round(sx(p.t));
      const list = cols.get(c);
      if (list) list.push(p.remaining);
      else cols.set(c, [p.remaining]);
    }
  // drawn as steps: a value holds until the next response says otherwise
  const pts: string[] = [];
  let lastY: number | undefined;
  for (const [c, vs] of cols) {
    const seq =
      vs.length > 2
        ? [
            vs[0],
            -maxOf(
              vs.map((v) => -v),
              -Infinity,
            ),
            maxOf(vs, -Infinity),
            vs[vs.length - 1],
          ]
        : vs;
    if (lastY !== undefined) pts.push(`${c},${lastY}`);
    for (const v of seq) pts.push(`${c},${r1(sy(v))}`);
    lastY = r1(sy(vs[vs.length - 1]));
  }
  if (pts.length)
    out.push(
      `<polyline data-testid="chart-remaining" points="${pts.join(' ')}" fill="none" stroke="${COLORS.line}" stroke-width="1.8" stroke-linejoin="round"/>`,
    );
  // request ticks in the lane and 429 markers on the plot, one per pixel column and kind
  const seen = new Set<string>();
  const counts: Record<Kind, number> = { ok: 0, tooMany: 0, other: 0 };
  for (const p of tl) {
    const k = kindOf(p.status);
    counts[k]++;
    const c = Math.round(sx(p.t));
    if (seen.has(`${k}:${c}`)) continue;
    seen.add(`${k}:${c}`);
    const [y, h] = k === 'tooMany' ? [LANE_Y, LANE_H] : k === 'ok' ? [LANE_Y + 6, LANE_H - 12] : [LANE_Y + 3, LANE_H - 6];
    out.push(
      `<line data-testid="chart-request" data-kind="${k}" x1="${c}" x2="${c}" y1="${y}" y2="${y + h}" stroke="${COLORS[k]}" stroke-width="1.4"/>`,
    );
    if (k === 'tooMany') {
      const tip = `429 at ${(p.t / 1000).toFixed(2)} s${p.retryAfter !== undefined ? `, Retry-After ${p.retryAfter} s` : ''}`;
      out.push(
        `<circle data-testid="chart-429" cx="${c}" cy="${r1(sy(p.remaining ?? 0))}" r="3.6" fill="${COLORS.tooMany}" stroke="#fff" stroke-width="1"><title>${escapeXml(tip)}</title></circle>`,
      );
    }
  }
  const aria = `${title}. ${tl.length} requests: ${counts.ok} 2xx, ${counts.tooMany} 429, ${counts.other} other; ${spans.length} Retry-After waits.`;
  return [
    `<figure class="chart" data-testid="load-chart" data-scenario="${escapeAttr(run.scenario)}">`,
    `<svg data-testid="load-chart-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeAttr(aria)}">`,
    `<title>${escapeXml(aria)}</title>`,
    ...out,
    '</svg>',
    '<figcaption>',
    `<span><i class="sw sw-ok"></i>2xx (${counts.ok})</span>`,
    `<span><i class="sw sw-429"></i>429 Too Many Requests (${counts.tooMany})</span>`,
    counts.other ? `<span><i class="sw sw-other"></i>other status (${counts.other})</span>` : '',
    '<span><i class="sw sw-line"></i>X-RateLimit-Remaining</span>',
    `<span><i class="sw sw-ra"></i>Retry-After wait (${spans.length})</span>`,
    '</figcaption>',
    '</figure>',
  ]
    .filter(Boolean)
    .join('\n');
}
