/**
 * What every writer says of a run's causes (`RunReport.causes`, grouped by src/results/causes.ts), so that they all
 * say it the same way: the verdict's count ("3 causes break 11 MUST requirements; 1 cause raises 2 warnings"), the
 * requirements a cause breaks in words (the consequences apart), the causes of a requirement, the plans a cause was
 * found on, and a cause's one reproduction (the exploration's replay, else the curl line of its evidence).
 */
import type { CauseRef, CauseRequirement, CauseResult, Comparison, PlanResult, RequirementResult, RunReport } from '../types.ts';
import { curlOf } from './curl.ts';
import { plansWith, replayKeyOf } from './plan-view.ts';
import { replayCurl, replayLines } from './replay.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The causes a report shows: those that fail, then those that only warn (waived ones are the waivers' to show). */
export function shownCauses(report: RunReport): CauseResult[] {
  return (report.causes ?? []).filter((c) => c.status !== 'waived');
}

/** Causes with a requirement of this status, and how many requirements have it. */
function tally(report: RunReport, status: 'fail' | 'warn'): { causes: number; requirements: number } {
  const causes = (report.causes ?? []).filter((c) => c.requirements.some((q) => q.status === status)).length;
  return { causes, requirements: report.counts[status] ?? 0 };
}

/** "1 cause breaks 6 MUST requirements" (undefined when no MUST failed). */
export function failingCausesText(report: RunReport): string | undefined {
  const t = tally(report, 'fail');
  if (!t.requirements) return undefined;
  const verb = t.causes === 1 ? 'breaks' : 'break';
  return `${plural(t.causes, 'cause', 'causes')} ${verb} ${plural(t.requirements, 'MUST requirement', 'MUST requirements')}`;
}

/** "2 causes raise 3 warnings" (undefined when nothing warned). */
export function warningCausesText(report: RunReport): string | undefined {
  const t = tally(report, 'warn');
  if (!t.requirements) return undefined;
  const verb = t.causes === 1 ? 'raises' : 'raise';
  return `${plural(t.causes, 'cause', 'causes')} ${verb} ${plural(t.requirements, 'warning', 'warnings')}`;
}

/**
 * The verdict's count of causes: "3 causes break 11 MUST requirements; 1 cause raises 2 warnings", or — when the
 * warnings come only from causes that also break a MUST — "2 causes break 9 MUST requirements and raise 2 warnings"
 * (undefined: no cause).
 */
export function causesVerdict(report: RunReport): string | undefined {
  if (!report.causes) return undefined;
  const failing = failingCausesText(report);
  const warns = tally(report, 'warn');
  const alsoFailing = report.causes.filter((c) => c.requirements.some((q) => q.status === 'warn')).every((c) => c.status === 'fail');
  if (failing && warns.requirements && alsoFailing) {
    const n = (report.causes ?? []).filter((c) => c.status === 'fail').length;
    return `${failing} and ${n === 1 ? 'raises' : 'raise'} ${plural(warns.requirements, 'warning', 'warnings')}`;
  }
  const parts = [failing, warningCausesText(report)].filter(Boolean);
  return parts.length ? parts.join('; ') : undefined;
}

/** "A, B (MUST), C (SHOULD)": ids grouped by level (and waived), in their order. */
function idsByLevel(list: readonly CauseRequirement[]): string {
  const groups: { label: string; ids: string[] }[] = [];
  for (const q of list) {
    const label = q.status === 'waived' ? `${q.level}, waived` : q.level;
    const last = groups[groups.length - 1];
    if (last && last.label === label) last.ids.push(q.id);
    else groups.push({ label, ids: [q.id] });
  }
  return groups.map((g) => `${g.ids.join(', ')} (${g.label})`).join(', ');
}

/** "RESP-STATUS-DOCUMENTED (MUST); consequences: RESP-BODY-JSON, LIST-200-PETS (MUST), HTTP-EQUIVALENT-FORMS (SHOULD)". */
export function causeRequirementsText(c: CauseResult): string {
  const own = c.requirements.filter((q) => !q.consequence);
  const follow = c.requirements.filter((q) => q.consequence);
  return [own.length ? idsByLevel(own) : '', follow.length ? `consequences: ${idsByLevel(follow)}` : ''].filter(Boolean).join('; ');
}

/** How many requests showed it, in words: "" for one, "seen on 23 requests". */
export function causeReach(c: CauseResult): string {
  return c.requests > 1 ? `seen on ${c.requests} requests` : '';
}

/** The causes that break a requirement, in the report's order. */
export function causesOf(report: RunReport, r: Pick<RequirementResult, 'causes'>): CauseResult[] {
  const ids = r.causes ?? [];
  return (report.causes ?? []).filter((c) => ids.includes(c.id));
}

/** "cause C-1A2B3C4D" / "causes C-…, C-…" for a requirement (undefined: none). */
export function causeRefText(r: Pick<RequirementResult, 'causes'>): string | undefined {
  const ids = r.causes ?? [];
  if (!ids.length) return undefined;
  return `${ids.length === 1 ? 'cause' : 'causes'} ${ids.join(', ')}`;
}

/** In a run over several plans, the plans a cause's requirements ended with its status on, when not every plan. */
export function causePlans(c: CauseResult, plans: readonly PlanResult[] | undefined): string[] {
  if (!plans) return [];
  const on = new Set(c.requirements.flatMap((q) => plansWith(plans, q.id, q.status)));
  return on.size && on.size < plans.length ? plans.filter((p) => on.has(p.plan)).map((p) => p.plan) : [];
}

/** A cause's one reproduction: how the exploration replays it (lines), and the curl line(s) of its request. */
export function causeReproduction(report: RunReport, c: CauseResult): { lines: string[]; curl?: string } {
  const f = c.primary;
  const key = replayKeyOf(report, f);
  const curl = (f.replay && replayCurl(f.replay, key)) || curlOf(f.evidence, key, f.requirement);
  return { lines: replayLines(f.replay, key, false), ...(curl ? { curl } : {}) };
}

/** The causes new and fixed since the last run, as the comparison's parts: "New causes: C-… (title)". */
export function causeChanges(k: Comparison): { key: 'newCauses' | 'fixedCauses'; label: string; text: string }[] {
  const text = (refs: readonly CauseRef[]) => refs.map((c) => `${c.id} (${c.title})`).join(', ');
  return [
    { key: 'newCauses' as const, label: 'New causes', refs: k.newCauses ?? [] },
    { key: 'fixedCauses' as const, label: 'Causes fixed', refs: k.fixedCauses ?? [] },
  ]
    .filter((p) => p.refs.length)
    .map((p) => ({ key: p.key, label: p.label, text: `${p.label}: ${text(p.refs)}` }));
}
