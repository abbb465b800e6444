/**
 * The causes of summary.md: each cause once — the failing ones first, then those that only warn — with every
 * requirement it breaks (the consequences apart), the finding that names it, one line of evidence, how the
 * exploration replays it and one fenced curl line (the key as $ANIMAL_STORE_API_KEY, or the variable of the plan's
 * key); and the cause a failed or warned requirement points to. Every text a server sent is escaped.
 */
import type { CauseResult, PlanResult, RequirementResult, RunReport } from '../types.ts';
import { evidenceLine } from './common.ts';
import { causePlans, causeReach, causeRefText, causeRequirementsText, causeReproduction, shownCauses } from './causes.ts';
import { escapeMarkdown, fenced } from './markdown-text.ts';

/** How many causes get their evidence and curl line. */
export const SUMMARY_CAUSE_CAP = 25;

/** " — cause `C-…`" after a requirement's line (nothing when no cause names it). */
export function causeRef(r: Pick<RequirementResult, 'causes'>): string {
  const text = causeRefText(r);
  return text ? ` — ${escapeMarkdown(text, 200)}` : '';
}

/** One cause: its title and id, the requirements it breaks, what names it, its evidence and its one reproduction. */
function causeItem(report: RunReport, c: CauseResult, plans: readonly PlanResult[] | undefined): string[] {
  const on = causePlans(c, plans);
  const where = on.length ? `, on ${escapeMarkdown(on.join(', '), 120)}` : '';
  const f = c.primary;
  const out = [
    `- ${c.status === 'fail' ? '❌' : '⚠️'} **${escapeMarkdown(c.title, 200)}** \`${c.id}\`${c.requests > 1 ? ` — ${escapeMarkdown(causeReach(c), 80)}` : ''}${where}`,
    `  Breaks: ${escapeMarkdown(causeRequirementsText(c), 600)}`,
    `  ${escapeMarkdown(f.message ? `${f.title}: ${f.message}` : f.title, 300)}`,
  ];
  const ev = evidenceLine(f.evidence);
  if (ev) out.push(`  Evidence: ${escapeMarkdown(ev, 400)}`);
  if (c.seenOn.length) out.push(`  Also seen on: ${escapeMarkdown(c.seenOn.join(' · '), 400)}`);
  const how = causeReproduction(report, c);
  for (const l of how.lines) out.push(`  ${escapeMarkdown(l, 600)}`);
  if (how.curl) out.push('', ...fenced(how.curl, 'sh'));
  return out;
}

/** The causes section: its heading counts them as the verdict does; each cause once, up to the cap. */
export function causesSection(report: RunReport, plans: readonly PlanResult[] | undefined): string[] {
  const causes = shownCauses(report);
  if (!causes.length) return [];
  const icon = causes.some((c) => c.status === 'fail') ? '❌' : '⚠️';
  const lines = [`### ${icon} Causes (${causes.length})`, ''];
  for (const c of causes.slice(0, SUMMARY_CAUSE_CAP)) lines.push(...causeItem(report, c, plans));
  if (causes.length > SUMMARY_CAUSE_CAP) lines.push(`- … and ${causes.length - SUMMARY_CAUSE_CAP} more (see index.html)`);
  lines.push('');
  return lines;
}
