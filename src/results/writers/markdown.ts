/**
 * summary.md: the verdict as a CI step summary or a pull-request comment —
 * the headline with its icon (✅ only when certified, 🟡 incomplete, ❌ not
 * conformant) and scope (which counts the causes), what is new since the last
 * run, each cause once with the requirements it breaks, one line of evidence and
 * a fenced curl line (the key written as $ANIMAL_STORE_API_KEY:
 * markdown-causes.ts), the failed MUSTs and the warnings each pointing to its
 * cause, the MUSTs not exercised with reason and
 * remedy and the other requirements not exercised (as many as the counts say),
 * the rate-limit scenarios and their engine (a k6 the suite is not yet verified
 * on says so), the suite's own errors and the waivers.
 * Server-provided text is escaped so it cannot inject HTML, links, tables or
 * @-mentions into the comment; code blocks get a fence longer than any
 * backtick run inside them.
 *
 * A run over several plans adds, right under its scope, a table of the plans
 * (icon and outcome, limits, key source, the MUSTs each failed or left out) and
 * the key conformance was judged on; the failed and not-exercised MUSTs name
 * the plans they concern.
 */
import type { PlanResult, RequirementResult, RunReport } from '../types.ts';
import { suiteLabel } from '../meta.ts';
import {
  embeddedLabel,
  engineReason,
  engineText,
  envLabel,
  COMPARISON_PARTS,
  dateTimeOf,
  failedMusts,
  headline,
  mustWaiversAllowed,
  planHeadline,
  plansCertified,
  plansOf,
  planTone,
  reasonOf,
  remedyText,
  STATUS_LABEL,
  STATUSES,
  TONE_ICON,
  toneOf,
} from './common.ts';
import { scopeSentence } from './scope.ts';
import { code, escapeMarkdown, fenced } from './markdown-text.ts';
import { causeRef, causesSection } from './markdown-causes.ts';
import { causeChanges } from './causes.ts';

export { escapeMarkdown, fenced };
import { ACROSS_PLANS_NOTE, limitsText, onPlans, planMusts, plansWith } from './plan-view.ts';
import { type Gap, notExercisedList } from './not-exercised.ts';

/** How many warnings (and waived entries) the summary lists before "and N more". */
export const SUMMARY_LIST_CAP = 10;
/** How many failed MUSTs are listed (each pointing to its cause, whose evidence and curl line are in the causes section). */
export const SUMMARY_FAIL_CAP = 25;

const idOf = (id: string) => `**${escapeMarkdown(id, 80)}**`;

function item(r: RequirementResult, plans?: readonly PlanResult[]): string {
  const on = plans ? plansWith(plans, r.id, r.status) : [];
  const where = plans && on.length && on.length < plans.length ? `, on ${escapeMarkdown(on.join(', '), 120)}` : '';
  return `- ${idOf(r.id)} (${r.level}${where}): ${escapeMarkdown(reasonOf(r) || r.title, 240)}`;
}

function capped(list: RequirementResult[], cap: number, line: (r: RequirementResult) => string = item): string[] {
  const lines = list.slice(0, cap).map((r) => line(r));
  if (list.length > cap) lines.push(`- … and ${list.length - cap} more (see index.html)`);
  return lines;
}

/**
 * The requirements counted as not exercised, each once: the MUSTs the verdict needs, every one with reason and
 * remedy; then the others (SHOULD, INFO, ADVISORY, or outside the run's scope), with their level, up to the cap.
 */
function notExercised(report: RunReport, plans: readonly PlanResult[] | undefined): string[] {
  const gaps = notExercisedList(report);
  const line = (n: Gap, level: boolean) => {
    const on = plans && n.plans.length ? ` (on ${escapeMarkdown(onPlans(n.plans, plans), 120)})` : '';
    const why = `${escapeMarkdown(n.reason, 400)}${n.remedy ? ` — ${escapeMarkdown(remedyText(n.remedy), 240)}` : ''}`;
    return `- ${idOf(n.id)}${level ? ` (${n.level})` : ''}${on}: ${why}`;
  };
  const musts = gaps.filter((n) => n.decisive);
  const others = gaps.filter((n) => !n.decisive);
  const out: string[] = [];
  if (musts.length) out.push(`### 🟡 MUST requirements not exercised (${musts.length})`, '', ...musts.map((n) => line(n, false)), '');
  if (others.length) {
    out.push(`### Other requirements not exercised (${others.length})`, '', ...others.slice(0, SUMMARY_LIST_CAP).map((n) => line(n, true)));
    if (others.length > SUMMARY_LIST_CAP) out.push(`- … and ${others.length - SUMMARY_LIST_CAP} more (see index.html)`);
    out.push('');
  }
  return out;
}

/** A failed MUST: its reason (and the plans it failed on), and the cause it points to (whose evidence and curl line are shown once, there). */
function failure(r: RequirementResult, plans?: readonly PlanResult[]): string {
  return `${item(r, plans)}${causeRef(r)}`;
}

function comparison(report: RunReport): string[] {
  const k = report.comparison;
  if (!k) return [];
  const since = `the last run (${dateTimeOf(k.baseline.startedAt)}, ${k.baseline.outcome})`;
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const lines = k.newProblems.length ? [`### 🆕 New since ${since} (${k.newProblems.length})`, ''] : [`### Nothing new since ${since}`];
  for (const id of k.newProblems) {
    const r = byId.get(id);
    lines.push(r ? `- ${idOf(id)} (${r.level}, ${STATUS_LABEL[r.status]}): ${escapeMarkdown(reasonOf(r), 240)}` : `- ${idOf(id)}`);
  }
  const rest = COMPARISON_PARTS.filter((p) => p.key !== 'newProblems' && k[p.key].length).map(
    (p) => `${p.label}: ${k[p.key].map((id) => escapeMarkdown(id, 80)).join(', ')}`,
  );
  const causes = causeChanges(k).map((c) => escapeMarkdown(c.text, 600));
  if (rest.length || causes.length) lines.push('', [...rest, ...causes].join(' · '));
  lines.push('');
  return lines;
}

function load(report: RunReport): string[] {
  if (!report.load?.length) return [];
  return [
    '### Rate-limit scenarios',
    '',
    '| scenario | plan | engine | verdict | requests |',
    '| --- | --- | --- | --- | ---: |',
    ...report.load.map(
      (l) =>
        `| ${escapeMarkdown(l.scenario, 40)} | ${escapeMarkdown(l.plan, 40)} | ${escapeMarkdown(l.engine, 10)} | ${escapeMarkdown(l.verdict, 20)} | ${l.requestsSent} |`,
    ),
    '',
  ];
}

const ids = (list: readonly string[]) => (list.length ? escapeMarkdown(list.join(', '), 400) : '—');

/** The plans of the run: icon and outcome (✅ only for a certified plan), limits, key source, failed and not-exercised MUSTs. */
function plansTable(report: RunReport, plans: readonly PlanResult[]): string[] {
  const key = report.conformanceKey ? ` on the key from ${escapeMarkdown(report.conformanceKey, 80)}` : '';
  return [
    `### Plans: ${plansCertified(report, plans)}`,
    '',
    `Conformance was judged once${key}, for every plan; the rate limits on each plan's own key.`,
    '',
    '| plan | outcome | limits | key from | failed MUSTs | MUSTs not exercised |',
    '| --- | --- | --- | --- | --- | --- |',
    ...plans.map(
      (p) =>
        `| ${escapeMarkdown(p.plan, 40)} | ${TONE_ICON[planTone(report, p)]} ${planHeadline(report, p)} | ${limitsText(p)} | ${escapeMarkdown(p.keySource, 80)} | ${ids(planMusts(p, 'fail'))} | ${ids(p.notExercised.map((n) => n.id))} |`,
    ),
    '',
  ];
}

export function renderSummary(report: RunReport): string {
  const plans = plansOf(report);
  const warns = report.requirements.filter((r) => r.status === 'warn');
  const lines: string[] = [
    ...heading(report),
    ...(plans ? plansTable(report, plans) : []),
    ...comparison(report),
    ...causesSection(report, plans),
    ...failedMustSection(report, plans),
    ...(warns.length ? [`### ⚠️ Warnings (${warns.length})`, '', ...capped(warns, SUMMARY_LIST_CAP, (r) => failure(r)), ''] : []),
    ...notExercised(report, plans),
    ...suiteErrorSection(report),
    ...runSection(report, plans),
    ...waivedSection(report),
    'Full report with evidence: `index.html` in the `reports/` artifact (also `certification.json`, `junit.xml`).',
    '',
  ];
  return lines.join('\n');
}

/** The headline, the run's scope, and why it stopped (a diagnosis, an early stop). */
function heading(report: RunReport): string[] {
  const lines = [
    `## ${TONE_ICON[toneOf(report)]} animal-store ${report.kind}: **${headline(report)}**`,
    '',
    `> ${escapeMarkdown(scopeSentence(report), 400)}`,
    '',
  ];
  if (report.diagnosis) lines.push(`> **Diagnosis:** ${escapeMarkdown(report.diagnosis, 400)}`, '');
  if (report.abort) lines.push(`> **Stopped early:** ${escapeMarkdown(report.abort, 300)}`, '');
  return lines;
}

/** The failed MUST requirements, each with its evidence, up to the cap. */
function failedMustSection(report: RunReport, plans: readonly PlanResult[] | undefined): string[] {
  const musts = failedMusts(report);
  if (!musts.length) return [];
  const lines = [`### ❌ Failed MUST requirements (${musts.length})`, ''];
  for (const r of musts.slice(0, SUMMARY_FAIL_CAP)) lines.push(failure(r, plans));
  if (musts.length > SUMMARY_FAIL_CAP) lines.push(`- … and ${musts.length - SUMMARY_FAIL_CAP} more (see index.html)`);
  lines.push('');
  return lines;
}

/** The suite's own defects, which are not the server's. */
function suiteErrorSection(report: RunReport): string[] {
  if (!report.suiteErrors.length) return [];
  return [
    `### Defects of the suite, not the server's (${report.suiteErrors.length})`,
    '',
    ...report.suiteErrors.slice(0, SUMMARY_LIST_CAP).map((s) => `- ${escapeMarkdown(s, 240)}`),
    '',
  ];
}

/** The run: target, plan(s), suite, time and requests, engine, the counts per status, and the rate-limit scenarios. */
function runSection(report: RunReport, plans: readonly PlanResult[] | undefined): string[] {
  const t = report.target;
  return [
    '### Run',
    '',
    `- **Target:** ${code(t.baseUrl)} (${escapeMarkdown(envLabel(t), 40)}${t.embedded ? `, ${escapeMarkdown(embeddedLabel(t), 300)}` : ''})`,
    plans
      ? `- **Plans:** ${escapeMarkdown(plans.map((p) => p.plan).join(', '), 200)}`
      : `- **Plan:** ${escapeMarkdown(t.plan ?? 'not given', 40)}`,
    `- **Suite:** ${escapeMarkdown(suiteLabel(report), 60)} · spec sha256 ${code(report.specSha256.slice(0, 12))}`,
    `- **Run:** ${dateTimeOf(report.startedAt)} · ${report.requestsSent} requests`,
    ...(engineText(report) ? [`- **Rate limits:** ${escapeMarkdown(engineText(report) as string, 200)}`] : []),
    ...(report.engine ? [`- **Engine chosen:** ${escapeMarkdown(engineReason(report) as string, 400)}`] : []),
    '',
    `| ${STATUSES.map((s) => STATUS_LABEL[s]).join(' | ')} |`,
    `| ${STATUSES.map(() => '---:').join(' | ')} |`,
    `| ${STATUSES.map((s) => report.counts[s] ?? 0).join(' | ')} |`,
    '',
    ...(plans ? [`_${escapeMarkdown(ACROSS_PLANS_NOTE, 300)}_`, ''] : []),
    ...load(report),
  ];
}

/** The waived requirements, and whether MUST waivers were allowed. */
function waivedSection(report: RunReport): string[] {
  const waived = report.requirements.filter((r) => r.status === 'waived');
  if (!waived.length) return [];
  const mustWaived = waived.filter((r) => r.level === 'MUST').length;
  const lines = [`### Waived (${waived.length})`, ''];
  if (mustWaived || mustWaiversAllowed(report))
    lines.push(`> MUST waivers were allowed (--allow-must-waivers): ${mustWaived} MUST requirement(s) waived.`, '');
  lines.push(...capped(waived, SUMMARY_LIST_CAP), '');
  return lines;
}
