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
import { areaTitle, groupByArea, LEVELS, plansOf, reasonOf, remedyText, STATUS_LABEL, STATUSES } from './common.ts';
import { evidenceDetails } from './html-evidence.ts';
import { causeLinks } from './html-causes.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import { chartLink, loadReportOf } from './load-runs.ts';
import { isPerPlan, planEntry, replayKeyOf } from './plan-view.ts';

/** How a requirement judged per plan ended on each plan (nothing for a single-plan run or a conformance requirement). */
function byPlan(report: RunReport, r: RequirementResult): SafeHtml | undefined {
  const plans = plansOf(report);
  if (!plans || !isPerPlan(r, plans)) return undefined;
  const pills = plans.map((p) => {
    const st = planEntry(p, r.id)?.status ?? 'skip';
    return html`<span class="pill st-${st}" data-plan="${p.plan}">${p.plan}: ${STATUS_LABEL[st]}</span>`;
  });
  return html`<p class="by-plan" data-testid="by-plan">On each plan: ${joinHtml(pills, ' ')}</p>`;
}

export function filters(report: RunReport): SafeHtml {
  const chip = (name: string, value: string, label: string) =>
    html`<label class="chip"><input type="checkbox" name="${name}" value="${value}" checked data-testid="filter-${name}-${value}">${label}</label>`;
  return html`<form class="card filters no-print" id="filters" data-testid="filters" role="search">
<fieldset><legend>Status</legend>${STATUSES.map((s) => chip('status', s, `${STATUS_LABEL[s]} ${report.counts[s] ?? 0}`))}</fieldset>
<fieldset><legend>Level</legend>${LEVELS.map((l) => chip('level', l, l))}</fieldset>
<div class="filter-line"><input type="search" id="filter-text" data-testid="filter-text" placeholder="Search id, title, message…" aria-label="Search requirements">
<button type="button" id="filter-reset">Reset</button><button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse</button></div>
<span class="shown" id="filter-shown" data-testid="filter-shown" aria-live="polite"></span>
</form>`;
}

function body(report: RunReport, r: RequirementResult): SafeHtml {
  const n = r.counts.pass;
  const checks = r.status === 'pass' && n ? html` · <span class="checks">${n} check${n === 1 ? '' : 's'} passed</span>` : '';
  const out: SafeHtml[] = [html`<p class="spec">§ ${r.section} — <q>${r.quote}</q>${checks}</p>`];
  const plans = byPlan(report, r);
  if (plans) out.push(plans);
  const problems = r.findings.filter((f) => f.outcome === 'fail' || f.outcome === 'warn');
  if (r.status === 'skip') {
    const reason = r.notExercised?.reason ?? reasonOf(r);
    out.push(html`<p class="why" data-testid="reason"><b>Not exercised:</b> ${reason}</p>`);
    if (r.notExercised?.remedy) out.push(html`<p class="remedy" data-testid="remedy">${remedyText(r.notExercised.remedy)}</p>`);
  } else if ((r.status === 'fail' || r.status === 'warn') && !problems.length)
    out.push(html`<p class="why" data-testid="reason">${reasonOf(r)}</p>`);
  if (r.waiver)
    out.push(
      html`<p class="waiver" data-testid="waiver"><b>Waived</b> until <b data-testid="waiver-expires">${r.waiver.expires}</b>: <span data-testid="waiver-reason">${r.waiver.reason}</span></p>`,
    );
  if (r.observations.length)
    out.push(html`<ul class="obs" data-testid="observations">${r.observations.map((o) => html`<li>${o}</li>`)}</ul>`);
  const links = causeLinks(report, r);
  if (links) out.push(links);
  for (const f of problems) {
    const lr = f.evidence?.at ? loadReportOf(report, f) : undefined;
    // A consequence's evidence is its cause's, shown open in the causes above: folded here.
    const open = (r.status === 'fail' || r.status === 'warn') && !f.cause?.consequence;
    out.push(evidenceDetails(f, open, lr ? chartLink(lr, f) : undefined, replayKeyOf(report, f)));
  }
  return joinHtml(out, '\n');
}

function requirement(report: RunReport, r: RequirementResult): SafeHtml {
  return html`<article class="req s-${r.status}" data-testid="requirement" data-requirement="${r.id}" data-status="${r.status}" data-level="${r.level}" id="req-${r.id}">
<div class="req-head"><span class="pill st-${r.status}" data-testid="status">${STATUS_LABEL[r.status]}</span><span class="pill lv lv-${r.level}" data-testid="level">${r.level}</span><code class="req-id">${r.id}</code><span class="req-title">${r.title}</span></div>
<div class="req-body">${body(report, r)}</div>
</article>`;
}

/** Display order inside an area: problems first, passes last (folded). */
const ROW_ORDER: readonly Status[] = ['fail', 'warn', 'waived', 'skip', 'observed', 'pass'];
const rank = (s: Status) => ROW_ORDER.indexOf(s);

function area(report: RunReport, name: string, reqs: RequirementResult[]): SafeHtml {
  const sorted = reqs.map((r, i) => ({ r, i })).sort((x, y) => rank(x.r.status) - rank(y.r.status) || x.i - y.i);
  const shown = sorted.filter(({ r }) => r.status !== 'pass').map(({ r }) => requirement(report, r));
  const passed = sorted.filter(({ r }) => r.status === 'pass').map(({ r }) => r);
  const tally = STATUSES.map((s) => [s, reqs.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n)
    .map(([s, n]) => `${n} ${STATUS_LABEL[s]}`)
    .join(' · ');
  const fold = passed.length
    ? html`<details class="passed" data-testid="passed-fold"><summary><span class="pill st-pass">${passed.length} passed</span> <span class="fold-ids">${passed.map((r) => r.id).join(', ')}</span></summary>
${joinHtml(
  passed.map((r) => requirement(report, r)),
  '\n',
)}
</details>`
    : '';
  const worst = sorted[0]?.r.status ?? 'pass';
  return html`<section class="card area" data-testid="area" data-area="${name}" data-worst="${worst}">
<header><h3>${areaTitle(name)}</h3><span class="area-tally">${tally}</span></header>
${joinHtml(shown, '\n')}
${fold}
</section>`;
}

/** Areas with a failure first, then with a warning, then the rest, each in catalogue order. */
export function requirements(report: RunReport): SafeHtml {
  const groups = groupByArea(report.requirements)
    .map((g, i) => ({ ...g, i, worst: Math.min(...g.requirements.map((r) => (r.status === 'fail' ? 0 : r.status === 'warn' ? 1 : 2))) }))
    .sort((x, y) => x.worst - y.worst || x.i - y.i);
  return html`<section aria-label="Requirements" data-testid="requirements"><h2 class="section">Requirements, failures first</h2>
${filters(report)}
<p class="card empty" id="filter-empty" data-testid="filter-empty" hidden>No requirement matches the filter.</p>
${joinHtml(
  groups.map((g) => area(report, g.area, g.requirements)),
  '\n',
)}
</section>`;
}
