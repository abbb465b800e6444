/**
 * The two series of a rate-limit chart (html-chart.ts): the
 * X-RateLimit-Remaining line and the request lane, bucketed per pixel column so
 * that a run of 100,000 requests stays a small SVG. A certificate's timeline is
 * thinned to what the chart draws (src/results/chart-timeline.ts): a few points
 * a column, so its line joins them straight, not in steps, and its 2xx are
 * drawn as bands wherever its points lie close in time — the same picture as
 * from every request.
 */
import { maxOf, seconds } from './html-chart-axis.ts';
import { html, type SafeHtml } from './html-safe.ts';
import type { TimelinePoint } from './load-runs.ts';

export const COLORS = { ok: '#2da44e', tooMany: '#cf222e', other: '#8c959f', line: '#0969da', limit: '#57606a', span: '#fb8f44' };
export type Kind = 'ok' | 'tooMany' | 'other';
export const kindOf = (status: number): Kind => (status === 429 ? 'tooMany' : status >= 200 && status < 300 ? 'ok' : 'other');
export const r1 = (n: number) => Math.round(n * 10) / 10;

/** The points of a thinned timeline in time order (it keeps each column's first, lowest, highest and last). */
function straight(tl: readonly TimelinePoint[], sx: (t: number) => number, sy: (v: number) => number): string[] {
  const pts: string[] = [];
  for (const p of tl) {
    if (p.remaining === undefined) continue;
    const pt = `${r1(sx(p.t))},${r1(sy(p.remaining))}`;
    if (pts[pts.length - 1] !== pt) pts.push(pt);
  }
  return pts;
}

/** Remaining per pixel column (first, min, max, last), as steps; `stepped` false (a thinned timeline): straight between its points. */
export function remainingLine(
  tl: readonly TimelinePoint[],
  sx: (t: number) => number,
  sy: (v: number) => number,
  stepped: boolean,
): SafeHtml | undefined {
  const pts = stepped ? stepsOf(tl, sx, sy) : straight(tl, sx, sy);
  if (!pts.length) return undefined;
  return html`<polyline data-testid="chart-remaining" points="${pts.join(' ')}" fill="none" stroke="${COLORS.line}" stroke-width="1.8" stroke-linejoin="round"/>`;
}

function stepsOf(tl: readonly TimelinePoint[], sx: (t: number) => number, sy: (v: number) => number): string[] {
  const cols = new Map<number, number[]>();
  for (const p of tl)
    if (p.remaining !== undefined) {
      const c = Math.round(sx(p.t));
      const list = cols.get(c);
      if (list) list.push(p.remaining);
      else cols.set(c, [p.remaining]);
    }
  const pts: string[] = [];
  let lastY: number | undefined;
  for (const [c, vs] of cols) {
    const low = -maxOf(
      vs.map((v) => -v),
      -Infinity,
    );
    const seq = vs.length > 2 ? [vs[0], low, maxOf(vs, -Infinity), vs[vs.length - 1]] : vs;
    if (lastY !== undefined) pts.push(`${c},${lastY}`);
    for (const v of seq) pts.push(`${c},${r1(sy(v))}`);
    lastY = r1(sy(vs[vs.length - 1]));
  }
  return pts;
}

const laneBox = (k: Kind, laneY: number, laneH: number): [number, number] =>
  k === 'tooMany' ? [laneY, laneH] : k === 'ok' ? [laneY + 6, laneH - 12] : [laneY + 3, laneH - 6];

/** Runs of 2xx points no further than `gapMs` apart, as [first, last] times. */
function runs(tl: readonly TimelinePoint[], gapMs: number): [number, number][] {
  const out: [number, number][] = [];
  for (const p of tl) {
    if (kindOf(p.status) !== 'ok') continue;
    const last = out[out.length - 1];
    if (last && p.t - last[1] <= gapMs) last[1] = p.t;
    else out.push([p.t, p.t]);
  }
  return out;
}

/**
 * The lane under the plot: a tick per pixel column and kind of status, each 429 also as a dot on the line; with
 * `gapMs` (a thinned timeline), the 2xx as bands over each run of points no further apart than that.
 */
export function requestLane(
  tl: readonly TimelinePoint[],
  s: { sx: (t: number) => number; sy: (v: number) => number; laneY: number; laneH: number },
  gapMs?: number,
): SafeHtml[] {
  const out: SafeHtml[] = [];
  if (gapMs !== undefined) {
    const [y, h] = laneBox('ok', s.laneY, s.laneH);
    for (const [a, b] of runs(tl, gapMs)) {
      const x = r1(s.sx(a) - 0.7);
      out.push(
        html`<rect data-testid="chart-request" data-kind="ok" data-band="true" x="${x}" y="${y}" width="${r1(Math.max(1.4, s.sx(b) - s.sx(a) + 1.4))}" height="${h}" fill="${COLORS.ok}"/>`,
      );
    }
  }
  const seen = new Set<string>();
  for (const p of tl) {
    const k = kindOf(p.status);
    const c = Math.round(s.sx(p.t));
    if ((gapMs !== undefined && k === 'ok') || seen.has(`${k}:${c}`)) continue;
    seen.add(`${k}:${c}`);
    const [y, h] = laneBox(k, s.laneY, s.laneH);
    out.push(
      html`<line data-testid="chart-request" data-kind="${k}" x1="${c}" x2="${c}" y1="${y}" y2="${y + h}" stroke="${COLORS[k]}" stroke-width="1.4"/>`,
    );
    if (k === 'tooMany') {
      const tip = `429 at ${seconds(p.t)}${p.seq !== undefined ? ` (request #${p.seq})` : ''}${p.retryAfter !== undefined ? `, Retry-After ${p.retryAfter} s` : ''}`;
      out.push(
        html`<circle data-testid="chart-429" cx="${c}" cy="${r1(s.sy(p.remaining ?? 0))}" r="3.6" fill="${COLORS.tooMany}" stroke="#fff" stroke-width="1"><title>${tip}</title></circle>`,
      );
    }
  }
  return out;
}
