/**
 * The console's verdict block: the headline with its scope, one count line
 * (requirements only — never tests or findings), then a line per failed,
 * warned and not-exercised MUST requirement with one-line evidence, and where
 * the reports are. Kept short on purpose: a failing run names its failing
 * requirements in its first lines.
 */
import type { RequirementResult, RunReport } from '../types.ts';
import {
  COMPARISON_PARTS,
  explainingFinding,
  headline,
  notExercisedText,
  oneLine,
  reasonOf,
  scopeSentence,
  STATUS_LABEL,
  STATUSES,
} from './common.ts';
import { curlOf } from './curl.ts';

const FAIL_CAP = 10;
const WARN_CAP = 5;
const SKIP_CAP = 8;

function line(mark: string, r: RequirementResult, verbose: boolean): string[] {
  const out = [`  ${mark} ${r.id} (${r.level}) ${r.title}`, `      ${oneLine(reasonOf(r), 160)}`];
  const ev = explainingFinding(r)?.evidence;
  if (verbose && ev) {
    const curl = curlOf(ev);
    if (curl) out.push(`      replay: ${curl}`);
  }
  return out;
}

export function countLine(report: RunReport): string {
  const parts = STATUSES.map((s) => `${report.counts[s] ?? 0} ${STATUS_LABEL[s]}`);
  return `${parts.join(' · ')} (of ${report.requirements.length} requirements); ${report.requestsSent} requests`;
}

export function renderConsole(report: RunReport, o: { verbose?: boolean; reports?: string[] } = {}): string {
  const t = report.target;
  const where = `${t.baseUrl} (${t.env}, plan ${t.plan ?? 'not given'}${t.embedded ? ', embedded reference server' : ''})`;
  const lines = [`animal-store ${report.kind}: ${headline(report)} — ${where}`, `  ${scopeSentence(report)}`];
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
  for (const r of fails.slice(0, FAIL_CAP)) lines.push(...line('✗', r, !!o.verbose));
  if (fails.length > FAIL_CAP) lines.push(`  … and ${fails.length - FAIL_CAP} more failures (see the reports)`);
  for (const r of warns.slice(0, WARN_CAP)) lines.push(...line('!', r, !!o.verbose));
  if (warns.length > WARN_CAP) lines.push(`  … and ${warns.length - WARN_CAP} more warnings`);
  for (const n of report.notExercised.slice(0, SKIP_CAP)) lines.push(`  ○ ${n.id} not exercised: ${oneLine(notExercisedText(n), 240)}`);
  if (report.notExercised.length > SKIP_CAP) lines.push(`  … and ${report.notExercised.length - SKIP_CAP} more not exercised`);
  for (const e of report.suiteErrors.slice(0, 3)) lines.push(`  suite error (not the server's fault): ${oneLine(e, 200)}`);
  if (o.reports && o.reports.length) lines.push(`  reports: ${o.reports.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
