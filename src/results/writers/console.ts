/**
 * The console's verdict block: the headline with its scope (which counts the causes: "3 causes break 11 MUST
 * requirements"), one count line (requirements only — never tests or findings), then each cause once — the failing
 * ones first, then the warnings — with every requirement it breaks (its consequences apart), the message of the
 * finding that names it, and one reproduction (the exploration's replay, else the curl line of its request), up to a
 * cap that says how many more (verbose: the other requests that showed it); then the not-exercised requirements and
 * where the reports are. Kept short on purpose: a failing run names its failing requirements in its first lines. A
 * run over several plans names, under its headline and scope, each plan's outcome, limits and key source in one
 * line, and the key the conformance run used.
 */
import type { CauseResult, PlanResult, RunReport } from '../types.ts';
import {
  embeddedLabel,
  engineText,
  envLabel,
  COMPARISON_PARTS,
  headline,
  notExercisedText,
  oneLine,
  planHeadline,
  plansOf,
  planTone,
  STATUS_LABEL,
  STATUSES,
  TONE_ICON,
} from './common.ts';
import { scopeSentence } from './scope.ts';
import { limitsText, onPlans, planMusts, replayKeyOf } from './plan-view.ts';
import { notExercisedList } from './not-exercised.ts';
import { causeChanges, causePlans, causeReach, causeRequirementsText, shownCauses } from './causes.ts';
import { curlOf } from './curl.ts';
import { replayLines } from './replay.ts';

const FAIL_CAP = 10;
const WARN_CAP = 5;
const SKIP_CAP = 8;

/** A cause: its title (and the plans it was found on), the requirements it breaks, what names it, how to reproduce it. */
function causeLines(report: RunReport, c: CauseResult, verbose: boolean): string[] {
  const on = causePlans(c, plansOf(report));
  const where = on.length ? ` — on ${on.join(', ')}` : '';
  const f = c.primary;
  const out = [
    `  ${c.status === 'fail' ? '✗' : '!'} ${oneLine(c.title, 160)} [${c.id}]${c.requests > 1 ? ` — ${causeReach(c)}` : ''}${where}`,
    `      breaks ${oneLine(causeRequirementsText(c), 400)}`,
    `      ${oneLine(f.message ? `${f.title}: ${f.message}` : f.title, 160)}`,
  ];
  const key = replayKeyOf(report, f);
  // A generated counterexample is printed whole: without it the failure cannot be reproduced.
  for (const l of replayLines(f.replay, key)) out.push(`      ${l}`);
  // One reproduction per cause: the exploration's replay above, else the curl line of its request.
  const curl = f.replay ? undefined : curlOf(f.evidence, key, f.requirement);
  if (curl) out.push(`      replay: ${curl}`);
  if (verbose && c.seenOn.length) out.push(`      also seen on: ${oneLine(c.seenOn.join(' · '), 400)}`);
  return out;
}

/** The causes of one status, up to a cap, then how many more. */
function causeBlock(report: RunReport, o: { status: 'fail' | 'warn'; cap: number; verbose: boolean }): string[] {
  const list = shownCauses(report).filter((c) => c.status === o.status);
  const lines = list.slice(0, o.cap).flatMap((c) => causeLines(report, c, o.verbose));
  if (list.length > o.cap)
    lines.push(`  … and ${list.length - o.cap} more ${o.status === 'fail' ? 'failing causes' : 'causes of warnings'} (see the reports)`);
  return lines;
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
    lines.push(`  ${oneLine([...bits, ...causeChanges(k).map((c) => c.text)].join('; '), 400)}`);
  }
  lines.push(`  ${countLine(report)}`);
  if (report.abort) lines.push(`  stopped early: ${oneLine(report.abort, 300)}`);
  lines.push(...causeBlock(report, { status: 'fail', cap: FAIL_CAP, verbose: !!o.verbose }));
  lines.push(...causeBlock(report, { status: 'warn', cap: WARN_CAP, verbose: !!o.verbose }));
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
