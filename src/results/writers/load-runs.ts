/**
 * What the writers read from the rate-limit scenario reports of a run
 * (`RunReport.load`, the LoadReport of src/core/load-report.ts): the reports
 * grouped by plan, their judgements in the order a reader wants them (failures
 * first), the request a failing judgement points at (`evidence.at.request`,
 * the `seq` of a timeline point), and the chart anchor of a scenario.
 */
import type { Judgement, Outcome } from '../../core/sections/define.ts';
import type { LoadReport, TimelinePoint } from '../../core/load-report.ts';
import type { Finding, RunReport } from '../types.ts';

export type { LoadReport, TimelinePoint };

/** Display order of judgement outcomes: what went wrong first. */
const OUTCOME_ORDER: readonly Outcome[] = ['fail', 'warn', 'error', 'skip', 'pass', 'observe'];

export function byOutcome(judgements: readonly Judgement[]): Judgement[] {
  return judgements
    .map((j, i) => ({ j, i }))
    .sort((a, b) => OUTCOME_ORDER.indexOf(a.j.outcome) - OUTCOME_ORDER.indexOf(b.j.outcome) || a.i - b.i)
    .map(({ j }) => j);
}

/** The load reports of a run grouped by plan (in the order the plans first appear). */
export function loadByPlan(report: RunReport): { plan: string; reports: LoadReport[] }[] {
  const groups = new Map<string, LoadReport[]>();
  for (const lr of report.load ?? []) {
    const list = groups.get(lr.plan);
    if (list) list.push(lr);
    else groups.set(lr.plan, [lr]);
  }
  return [...groups.entries()].map(([plan, reports]) => ({ plan, reports }));
}

/** The timeline sorted by time, without points that cannot be plotted. */
export function plottable(timeline: readonly TimelinePoint[] | undefined): TimelinePoint[] {
  return (timeline ?? []).filter((p) => Number.isFinite(p.t) && Number.isFinite(p.status)).sort((a, b) => a.t - b.t);
}

/** A request that failing (or warning) judgements point at. */
export interface Offending {
  seq: number;
  /** Milliseconds since the scenario started, as the judgements' evidence says. */
  ms: number;
  /** 'fail' when any judgement about it failed. */
  outcome: 'fail' | 'warn';
  /** The judgements about it, failures first. */
  judgements: { requirement: string; outcome: 'fail' | 'warn'; title: string }[];
  /** The timeline point of that request, when the timeline kept it. */
  point?: TimelinePoint;
}

/** The requests the failures and warnings of a scenario point at (`evidence.at.request`), one entry per request. */
export function offendingRequests(lr: LoadReport): Offending[] {
  const out: Offending[] = [];
  const points = plottable(lr.timeline);
  for (const j of byOutcome(lr.judgements)) {
    const at = j.evidence?.at;
    if ((j.outcome !== 'fail' && j.outcome !== 'warn') || !at || !Number.isFinite(at.request)) continue;
    const about = { requirement: j.requirement, outcome: j.outcome, title: j.title };
    const known = out.find((o) => o.seq === at.request);
    if (known) {
      if (!known.judgements.some((x) => x.requirement === j.requirement)) known.judgements.push(about);
      continue;
    }
    const point = points.find((p) => p.seq === at.request);
    out.push({ seq: at.request, ms: at.ms, outcome: j.outcome, judgements: [about], ...(point ? { point } : {}) });
  }
  return out;
}

/** "request #51 (RL-NOT-EARLY, RL-CEILING-429)". */
export function offendingText(o: Offending): string {
  return `request #${o.seq} (${o.judgements.map((j) => j.requirement).join(', ')})`;
}

/** Where index.html shows a load judgement's request: the scenario's chart, and the request's time on its timeline. */
export function chartLink(lr: LoadReport, j: Pick<Judgement, 'evidence'>): { href: string; t?: number } {
  const seq = j.evidence?.at?.request;
  const point = seq === undefined ? undefined : plottable(lr.timeline).find((p) => p.seq === seq);
  return point ? { href: `#chart-${loadAnchor(lr)}`, t: point.t } : { href: `#chart-${loadAnchor(lr)}` };
}

/** The id of a plan's section of rate-limit scenarios in index.html (a run over several plans). */
export function planAnchor(plan: string): string {
  return `plan-${plan}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The id of a scenario's section in index.html. */
export function loadAnchor(lr: Pick<LoadReport, 'scenario' | 'plan'>): string {
  return `load-${lr.scenario}-${lr.plan}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The scenario report a load finding came from (same requirement, message and request). */
export function loadReportOf(report: RunReport, f: Pick<Finding, 'requirement' | 'message' | 'evidence'>): LoadReport | undefined {
  return (report.load ?? []).find((lr) =>
    lr.judgements.some(
      (j) => j.requirement === f.requirement && j.message === f.message && j.evidence?.at?.request === f.evidence?.at?.request,
    ),
  );
}
