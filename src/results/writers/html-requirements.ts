/**
 * The requirements of index.html, failures first: areas with a failure come
 * first, then areas with a warning, then the rest (catalogue order within
 * each); inside an area, failed and warned requirements come first with their
 * evidence open, then waived, not exercised and observed ones, and the passed
 * ones are folded into one summary row. A filter bar (status, level, text)
 * works with the page's script. In a run over several plans, a requirement
 * judged per plan also says how it ended on each plan.
 */
import type { RequirementResult, RunReport, Status } from '../types.ts';
import {
  areaTitle,
  escapeAttr as a,
  escapeXml as e,
  groupByArea,
  LEVELS,
  plansOf,
  reasonOf,
  remedyText,
  STATUS_LABEL,
  STATUSES,
} from './common.ts';
import { evidenceDetails } from './html-evidence.ts';
import { chartLink, loadReportOf } from './load-runs.ts';
import { isPerPlan, planEntry, replayKeyOf } from './plan-view.ts';

/** How a requirement judged per plan ended on each plan (nothing for a single-plan run or a conformance requirement). */
function byPlan(report: RunReport, r: RequirementResult): string {
  const plans = plansOf(report);
  if (!plans || !isPerPlan(r, plans)) return '';
  const pills = plans.map((p) => {
    const st = planEntry(p, r.id)?.status ?? 'skip';
    return `<span class="pill st-${a(st)}" data-plan="${a(p.plan)}">${e(p.plan)}: ${e(STATUS_LABEL[st])}</span>`;
  });
  return `<p class="by-plan" data-testid="by-plan">On each plan: ${pills.join(' ')}</p>`;
}

export function filters(report: RunReport): string {
  const chip = (name: string, value: string, label: string) =>
    `<label class="chip"><input type="checkbox" name="${name}" value="${a(value)}" checked data-testid="filter-${name}-${a(value)}">${e(label)}</label>`;
  return `<form class="card filters no-print" id="filters" data-testid="filters" role="search">
<fieldset><legend>Status</legend>${STATUSES.map((s) => chip('status', s, `${STATUS_LABEL[s]} ${report.counts[s] ?? 0}`)).join('')}</fieldset>
<fieldset><legend>Level</legend>${LEVELS.map((l) => chip('level', l, l)).join('')}</fieldset>
<div class="filter-line"><input type="search" id="filter-text" data-testid="filter-text" placeholder="Search id, title, message…" aria-label="Search requirements">
<button type="button" id="filter-reset">Reset</button><button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse</button></div>
<span class="shown" id="filter-shown" data-testid="filter-shown" aria-live="polite"></span>
</form>`;
}

function body(report: RunReport, r: RequirementResult): string {
  const n = r.counts.pass;
  const checks = r.status === 'pass' && n ? ` · <span class="checks">${n} check${n === 1 ? '' : 's'} passed</span>` : '';
  const out: string[] = [`<p class="spec">§ ${e(r.section)} — <q>${e(r.quote)}</q>${checks}</p>`, byPlan(report, r)].filter(Boolean);
  const problems = r.findings.filter((f) => f.outcome === 'fail' || f.outcome === 'warn');
  if (r.status === 'skip') {
    const reason = r.notExercised?.reason ?? reasonOf(r);
    out.push(`<p class="why" data-testid="reason"><b>Not exercised:</b> ${e(reason)}</p>`);
    if (r.notExercised?.remedy) out.push(`<p class="remedy" data-testid="remedy">${e(remedyText(r.notExercised.remedy))}</p>`);
  } else if ((r.status === 'fail' || r.status === 'warn') && !problems.length)
    out.push(`<p class="why" data-testid="reason">${e(reasonOf(r))}</p>`);
  if (r.waiver)
    out.push(
      `<p class="waiver" data-testid="waiver"><b>Waived</b> until <b data-testid="waiver-expires">${e(r.waiver.expires)}</b>: <span data-testid="waiver-reason">${e(r.waiver.reason)}</span></p>`,
    );
  if (r.observations.length)
    out.push(`<ul class="obs" data-testid="observations">${r.observations.map((o) => `<li>${e(o)}</li>`).join('')}</ul>`);
  for (const f of problems) {
    const lr = f.evidence?.at ? loadReportOf(report, f) : undefined;
    out.push(evidenceDetails(f, r.status === 'fail' || r.status === 'warn', lr ? chartLink(lr, f) : undefined, replayKeyOf(report, f)));
  }
  return out.join('\n');
}

function requirement(report: RunReport, r: RequirementResult): string {
  return `<article class="req s-${a(r.status)}" data-testid="requirement" data-requirement="${a(r.id)}" data-status="${a(r.status)}" data-level="${a(r.level)}" id="req-${a(r.id)}">
<div class="req-head"><span class="pill st-${a(r.status)}" data-testid="status">${e(STATUS_LABEL[r.status])}</span><span class="pill lv lv-${a(r.level)}" data-testid="level">${e(r.level)}</span><code class="req-id">${e(r.id)}</code><span class="req-title">${e(r.title)}</span></div>
<div class="req-body">${body(report, r)}</div>
</article>`;
}

/** Display order inside an area: problems first, passes last (folded). */
const ROW_ORDER: readonly Status[] = ['fail', 'warn', 'waived', 'skip', 'observed', 'pass'];
const rank = (s: Status) => ROW_ORDER.indexOf(s);

function area(report: RunReport, name: string, reqs: RequirementResult[]): string {
  const sorted = reqs.map((r, i) => ({ r, i })).sort((x, y) => rank(x.r.status) - rank(y.r.status) || x.i - y.i);
  const shown = sorted.filter(({ r }) => r.status !== 'pass').map(({ r }) => requirement(report, r));
  const passed = sorted.filter(({ r }) => r.status === 'pass').map(({ r }) => r);
  const tally = STATUSES.map((s) => [s, reqs.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n)
    .map(([s, n]) => `${n} ${STATUS_LABEL[s]}`)
    .join(' · ');
  const fold = passed.length
    ? `<details class="passed" data-testid="passed-fold"><summary><span class="pill st-pass">${passed.length} passed</span> <span class="fold-ids">${passed.map((r) => e(r.id)).join(', ')}</span></summary>
${passed.map((r) => requirement(report, r)).join('\n')}
</details>`
    : '';
  const worst = sorted[0]?.r.status ?? 'pass';
  return `<section class="card area" data-testid="area" data-area="${a(name)}" data-worst="${a(worst)}">
<header><h3>${e(areaTitle(name))}</h3><span class="area-tally">${e(tally)}</span></header>
${shown.join('\n')}
${fold}
</section>`;
}

/** Areas with a failure first, then with a warning, then the rest, each in catalogue order. */
export function requirements(report: RunReport): string {
  const groups = groupByArea(report.requirements)
    .map((g, i) => ({ ...g, i, worst: Math.min(...g.requirements.map((r) => (r.status === 'fail' ? 0 : r.status === 'warn' ? 1 : 2))) }))
    .sort((x, y) => x.worst - y.worst || x.i - y.i);
  return `<section aria-label="Requirements" data-testid="requirements"><h2 class="section">Requirements, failures first</h2>
${filters(report)}
<p class="card empty" id="filter-empty" data-testid="filter-empty" hidden>No requirement matches the filter.</p>
${groups.map((g) => area(report, g.area, g.requirements)).join('\n')}
</section>`;
}
