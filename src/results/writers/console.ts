/**
 * The console's verdict block: the headline with its scope, one count line
 * (requirements only — never tests or findings), then a line per failed,
 * warned and not-exercised requirement with one-line evidence (each status as
 * many as the count line says, up to a cap that says how many more), and where
 * the reports are. Kept short on purpose: a failing run names its failing
 * requirements in its first lines. A run over several plans names, under its
 * headline and scope, each plan's outcome, limits and key source in one line,
 * and the key the conformance run used.
 */
import type { PlanResult, RequirementResult, RunReport } from '../types.ts';
import {
  embeddedLabel,
  engineText,
  envLabel,
  COMPARISON_PARTS,
  explainingFinding,
  headline,
  notExercisedText,
  oneLine,
  planHeadline,
  plansOf,
  planTone,
  reasonOf,
  STATUS_LABEL,
  STATUSES,
  TONE_ICON,
} from './common.ts';
import { scopeSentence } from './scope.ts';
import { curlOf } from './curl.ts';
import { replayLines } from './replay.ts';
import { limitsText, onPlans, planMusts, plansWith, replayKeyOf } from './plan-view.ts';
import { notExercisedList } from './not-exercised.ts';

const FAIL_CAP = 10;
const WARN_CAP = 5;
const SKIP_CAP = 8;

/** A failed or warned requirement's lines: `mark`, its reason, a counterexample; `verbose`: its replay as curl. */
function line(
  report: RunReport,
  mark: string,
  r: RequirementResult,
  { verbose, plans }: { verbose: boolean; plans?: readonly PlanResult[] },
): string[] {
  const on = plans ? plansWith(plans, r.id, r.status) : [];
  const where = plans && on.length && on.length < plans.length ? ` — on ${on.join(', ')}` : '';
  const out = [`  ${mark} ${r.id} (${r.level}) ${r.title}${where}`, `      ${oneLine(reasonOf(r), 160)}`];
  const f = explainingFinding(r);
  // A generated counterexample is printed whole: without it the failure cannot be reproduced.
  for (const l of replayLines(f?.replay, f && replayKeyOf(report, f))) out.push(`      ${l}`);
  if (verbose && f?.evidence) {
    const curl = curlOf(f.evidence, replayKeyOf(report, f), f.requirement);
    if (curl) out.push(`      replay: ${curl}`);
  }
  return out;
}

export function countLine(report: RunReport): string {
  const parts = STATUSES.map((s) => `${report.counts[s] ?? 0} ${STATUS_LABEL[s]}`);
  const engine = engineText(report);
  const on = engine ? `; rate limits on the ${engine}` : '';
  return `${parts.join(' · ')} (of ${report.requirements.length} requirements); ${report.requestsSent} requests${on}`;
}

/** "✅ free: CERTIFIED · 60/min · 1,000/day · key from ANIMAL_STORE_API_KEY_FREE", then what failed or was left out. */
export function planLine(report: RunReport, p: PlanResult): string {
  const failed = planMusts(p, 'fail');
  const gaps = p.notExercised.map((n) => n.id);
  const parts = [
    `${p.plan}: ${planHeadline(report, p)}`,
    limitsText(p),
    `key from ${p.keySource}`,
    failed.length ? `failed: ${failed.join(', ')}` : '',
    gaps.length ? `not exercised: ${gaps.join(', ')}` : '',
  ];
  return `  ${TONE_ICON[planTone(report, p)]} ${oneLine(parts.filter(Boolean).join(' · '), 300)}`;
}

function plansBlock(report: RunReport, plans: readonly PlanResult[]): string[] {
  const lines = plans.map((p) => planLine(report, p));
  if (report.conformanceKey) lines.push(`  conformance judged once, on the key from ${report.conformanceKey}, for every plan`);
  return lines;
}

export function renderConsole(report: RunReport, o: { verbose?: boolean; reports?: string[] } = {}): string {
  const t = report.target;
  const plans = plansOf(report);
  const plan = plans ? `${plans.length} plans` : `plan ${t.plan ?? 'not given'}`;
  const where = `${t.baseUrl} (${envLabel(t)}, ${plan}${t.embedded ? `, ${embeddedLabel(t)}` : ''})`;
  const lines = [`animal-store ${report.kind}: ${headline(report)} — ${where}`, `  ${scopeSentence(report)}`];
  if (plans) lines.push(...plansBlock(report, plans));
  if (report.diagnosis) lines.push(`  diagnosis: ${oneLine(report.diagnosis, 300)}`);
  if (report.comparison) {
    const k = report.comparison;
    const bits = COMPARISON_PARTS.filter((p) => p.key === 'newProblems' || k[p.key].length).map((p) =>
      k[p.key].length ? `${p.label}: ${k[p.key].join(', ')}` : `nothing new since the last run`,
    );
    lines.push(`  ${oneLine(bits.join('; '), 300)}`);
  }
  lines.push(`  ${countLine(report)}`);
  if (report.abort) lines.push(`  stopped early: ${oneLine(report.abort, 300)}`);
  const fails = report.requirements.filter((r) => r.status === 'fail');
  const warns = report.requirements.filter((r) => r.status === 'warn');
  for (const r of fails.slice(0, FAIL_CAP)) lines.push(...line(report, '✗', r, { verbose: !!o.verbose, plans }));
  if (fails.length > FAIL_CAP) lines.push(`  … and ${fails.length - FAIL_CAP} more failures (see the reports)`);
  for (const r of warns.slice(0, WARN_CAP)) lines.push(...line(report, '!', r, { verbose: !!o.verbose, plans }));
  if (warns.length > WARN_CAP) lines.push(`  … and ${warns.length - WARN_CAP} more warnings`);
  // every requirement the count line calls not exercised, the MUSTs the verdict needs first
  const gaps = notExercisedList(report);
  for (const n of gaps.slice(0, SKIP_CAP)) {
    const on = plans && n.plans.length ? ` on ${onPlans(n.plans, plans)}` : '';
    lines.push(`  ○ ${n.id} (${n.level}) not exercised${on}: ${oneLine(notExercisedText(n), 400)}`);
  }
  if (gaps.length > SKIP_CAP) lines.push(`  … and ${gaps.length - SKIP_CAP} more not exercised (see the reports)`);
  for (const e of report.suiteErrors.slice(0, 3)) lines.push(`  suite error (not the server's fault): ${oneLine(e, 200)}`);
  if (o.reports && o.reports.length) lines.push(`  reports: ${o.reports.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
