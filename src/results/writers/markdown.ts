/**
 * summary.md: a short Markdown verdict for a CI step summary or a pull-request
 * comment. Server-provided text is escaped so it cannot inject HTML, links,
 * tables or @-mentions into the comment.
 */
import type { RequirementResult, RunReport, Status } from '../types.ts';
import { dateTimeOf, failedMusts, headline, mustWaiversAllowed, oneLine, reasonOf, scopeSentence } from './common.ts';

/** How many warnings (and waived entries) the summary lists before "and N more". */
export const SUMMARY_LIST_CAP = 10;

const ICONS: Record<string, string> = {
  CERTIFIED: '✅',
  CONFORMANT: '✅',
  'NOT CONFORMANT': '❌',
  INTERRUPTED: '⚠️',
  ABORTED: '⛔',
};

/** Escape Markdown and inline HTML; keep the text on one line. */
export function escapeMarkdown(s: string, max = 200): string {
  return oneLine(s, max)
    .replace(/[\\`*_{}[\]()#+!|~>]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@/g, '&#64;')
    .replace(/:\/\//g, '&#58;//');
}

/** Inline code span that survives backticks in the value. */
function code(s: string): string {
  const v = oneLine(s, 200).replace(/`/g, "'");
  return `\`${v}\``;
}

function item(r: RequirementResult): string {
  const reason = reasonOf(r);
  return `- **${escapeMarkdown(r.id, 80)}** (${r.level}): ${escapeMarkdown(reason || r.title, 200)}`;
}

function capped(list: RequirementResult[], cap: number): string[] {
  const lines = list.slice(0, cap).map(item);
  if (list.length > cap) lines.push(`- … and ${list.length - cap} more (see index.html)`);
  return lines;
}

const COLUMNS: readonly Status[] = ['pass', 'fail', 'warn', 'skip', 'waived', 'observed'];

export function renderSummary(report: RunReport): string {
  const h = headline(report);
  const t = report.target;
  const lines: string[] = [];
  lines.push(`## ${ICONS[h]} animal-store ${report.kind}: **${h}**`, '', `> ${escapeMarkdown(scopeSentence(report), 400)}`, '');
  if (report.diagnosis) lines.push(`> **Diagnosis:** ${escapeMarkdown(report.diagnosis, 400)}`, '');
  if (report.abort) lines.push(`> **Stopped early:** ${escapeMarkdown(report.abort, 300)}`, '');
  lines.push(
    `- **Target:** ${code(t.baseUrl)} (${escapeMarkdown(t.env, 40)}${t.embedded ? ', embedded reference server' : ''})`,
    `- **Plan:** ${escapeMarkdown(t.plan ?? 'not given', 40)}`,
    `- **Suite:** ${escapeMarkdown(report.suiteVersion, 40)} · spec sha256 ${code(report.specSha256.slice(0, 12))}`,
    `- **Run:** ${dateTimeOf(report.startedAt)} · ${report.requestsSent} requests`,
    '',
    `| ${COLUMNS.join(' | ')} |`,
    `| ${COLUMNS.map(() => '---:').join(' | ')} |`,
    `| ${COLUMNS.map((s) => report.counts[s] ?? 0).join(' | ')} |`,
    '',
  );
  const musts = failedMusts(report);
  if (musts.length) lines.push(`### ❌ Failed MUST requirements (${musts.length})`, '', ...musts.map(item), '');
  if (report.notExercised.length) {
    lines.push(`### ⏭️ MUST requirements not exercised (${report.notExercised.length})`, '');
    for (const n of report.notExercised)
      lines.push(
        `- **${escapeMarkdown(n.id, 80)}**: ${escapeMarkdown(n.reason, 200)}${n.remedy ? ` — to exercise it: ${escapeMarkdown(n.remedy, 200)}` : ''}`,
      );
    lines.push('');
  }
  const otherFails = report.requirements.filter((r) => r.status === 'fail' && r.level !== 'MUST');
  if (otherFails.length) lines.push(`### Other failures (${otherFails.length})`, '', ...capped(otherFails, SUMMARY_LIST_CAP), '');
  const warns = report.requirements.filter((r) => r.status === 'warn');
  if (warns.length) lines.push(`### ⚠️ Warnings (${warns.length})`, '', ...capped(warns, SUMMARY_LIST_CAP), '');
  const waived = report.requirements.filter((r) => r.status === 'waived');
  if (waived.length) {
    const mustWaived = waived.filter((r) => r.level === 'MUST').length;
    lines.push(`### Waived (${waived.length})`, '');
    if (mustWaived || mustWaiversAllowed(report))
      lines.push(`> MUST waivers were allowed (--allow-must-waivers): ${mustWaived} MUST requirement(s) waived.`, '');
    lines.push(...capped(waived, SUMMARY_LIST_CAP), '');
  }
  lines.push('Full report with evidence: `index.html` in the `reports/` artifact (also `certification.json`, `junit.xml`).', '');
  return lines.join('\n');
}
