/**
 * Scales and ticks of the load chart: "nice" steps (1, 2, 5 × 10^k), a time
 * axis whose unit follows the length of the run (ms for a run shorter than two
 * seconds, then s, min, h) so that no two ticks share a label, compact value
 * labels, and the Retry-After waits of a timeline. Pure functions.
 */
import type { TimelinePoint } from './load-runs.ts';

/** The shortest time axis drawn: a run of two requests a few ms apart still gets distinct ticks. */
export const MIN_SPAN_MS = 100;

/** A "nice" step (1, 2, 5 × 10^k) giving at most `max` intervals over `span`. */
export function niceStep(span: number, max: number): number {
  if (!(span > 0)) return 1;
  const raw = span / max;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/** Max without spreading (a timeline may hold more values than a call has arguments). */
export function maxOf(values: Iterable<number>, start: number): number {
  let m = start;
  for (const v of values) if (v > m) m = v;
  return m;
}

export interface TimeAxis {
  /** The end of the axis in ms (a whole number of steps). */
  end: number;
  /** Distance between ticks in ms. */
  step: number;
  unit: 'ms' | 's' | 'min' | 'h';
  /** The label of the tick at `t` ms. */
  label: (t: number) => string;
}

const UNITS: readonly { unit: TimeAxis['unit']; ms: number; below: number }[] = [
  { unit: 'ms', ms: 1, below: 2_000 },
  { unit: 's', ms: 1_000, below: 600_000 },
  { unit: 'min', ms: 60_000, below: 3 * 3_600_000 },
  { unit: 'h', ms: 3_600_000, below: Infinity },
];

/** The time axis of a run lasting `spanMs`, with at most `maxTicks` intervals. */
export function timeAxis(spanMs: number, maxTicks: number): TimeAxis {
  const span = Math.max(MIN_SPAN_MS, Number.isFinite(spanMs) ? spanMs : 0);
  const u = UNITS.find((x) => span < x.below) ?? UNITS[UNITS.length - 1];
  const stepInUnit = niceStep(span / u.ms, maxTicks);
  const decimals = stepInUnit >= 1 ? 0 : Math.ceil(-Math.log10(stepInUnit) - 1e-9);
  const step = stepInUnit * u.ms;
  const end = Math.ceil(span / step - 1e-9) * step;
  return { end, step, unit: u.unit, label: (t) => (t / u.ms).toFixed(decimals) };
}

/** A value label short enough for a narrow axis: 12000 → "12k". */
export function compactNumber(v: number): string {
  if (Math.abs(v) >= 1_000_000 && v % 100_000 === 0) return `${v / 1_000_000}M`;
  if (Math.abs(v) >= 10_000 && v % 100 === 0) return `${v / 1000}k`;
  return String(Math.round(v * 100) / 100);
}

/** Seconds with one decimal, for tooltips. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
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
