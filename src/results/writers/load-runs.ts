/**
 * The load scenario entries of `RunReport.load` (typed `unknown[]` there; the
 * engines write load/lib's `LoadReport`, of which this is what the writers read).
 * The shape is documented in schemas/certification.schema.json; the writers read
 * entries through `loadRuns`, which keeps the well-formed entries and drops
 * points it cannot plot.
 */

export type LoadOutcome = 'pass' | 'fail' | 'warn' | 'skip';

export interface LoadVerdict {
  requirement: string;
  outcome: LoadOutcome;
  title: string;
  message: string;
}

import type { TimelinePoint } from '../../core/timeline.ts';
export type { TimelinePoint };

export interface LoadRun {
  scenario: string;
  plan: string;
  engine: string;
  target: string;
  startedAt: string;
  endedAt: string;
  verdict: 'pass' | 'fail';
  requestsSent: number;
  verdicts: LoadVerdict[];
  timeline: TimelinePoint[];
  /** Why the scenario stopped, in words. */
  stoppedBecause?: string;
  notes: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const OUTCOMES: readonly string[] = ['pass', 'fail', 'warn', 'skip'];

function point(v: unknown): TimelinePoint | undefined {
  if (!isObj(v)) return undefined;
  const t = num(v.t);
  const status = num(v.status);
  if (t === undefined || status === undefined) return undefined;
  const p: TimelinePoint = { t, status };
  for (const k of ['remaining', 'limit', 'reset', 'retryAfter'] as const) {
    const n = num(v[k]);
    if (n !== undefined) p[k] = n;
  }
  return p;
}

/** The load entries of a report that have a scenario name; malformed fields become empty. */
export function loadRuns(load: readonly unknown[] | undefined): LoadRun[] {
  const out: LoadRun[] = [];
  for (const e of load ?? []) {
    if (!isObj(e) || typeof e.scenario !== 'string') continue;
    const verdicts = Array.isArray(e.verdicts) ? e.verdicts.filter(isObj) : [];
    const timeline = Array.isArray(e.timeline) ? e.timeline.map(point).filter((p): p is TimelinePoint => !!p) : [];
    out.push({
      scenario: e.scenario,
      plan: str(e.plan),
      engine: str(e.engine),
      target: str(e.target),
      startedAt: str(e.startedAt),
      endedAt: str(e.endedAt),
      verdict: e.verdict === 'pass' ? 'pass' : 'fail',
      requestsSent: num(e.requestsSent) ?? timeline.length,
      verdicts: verdicts.map((v) => ({
        requirement: str(v.requirement),
        outcome: (OUTCOMES.includes(str(v.outcome)) ? str(v.outcome) : 'fail') as LoadOutcome,
        title: str(v.title),
        message: str(v.message),
      })),
      timeline: timeline.sort((a, b) => a.t - b.t),
      ...(typeof e.stoppedBecause === 'string' ? { stoppedBecause: e.stoppedBecause } : {}),
      notes: Array.isArray(e.notes) ? e.notes.map(str) : [],
    });
  }
  return out;
}
