/**
 * The plan matrix of index.html, for a run that certified several plans at
 * once: one column per plan (its outcome by the certificate's rules, its limits
 * and where its key came from, linked to its scenarios and charts), the
 * conformance requirements once (judged on one key, the same for every plan),
 * then one row per requirement judged per plan whose status differs between
 * plans or is not a pass on some plan — each cell its status, with the reason
 * on hover and on expand, and a failure's link to the marked chart — and the
 * rate-limit requirements that passed (or were observed) alike on every plan,
 * folded into one row. The table scrolls inside its own box on a narrow
 * screen (where the plans' outcomes are also listed above it); the page does not.
 */
import type { PlanResult, RequirementResult, RunReport, Status } from '../types.ts';
import {
  areaTitle,
  explainingFinding,
  groupByArea,
  notExercisedText,
  planHeadline,
  plansCertified,
  plansOf,
  planTone,
  reasonOf,
  STATUS_LABEL,
  STATUSES,
} from './common.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import { chartLink, planAnchor } from './load-runs.ts';
import { limitsText, perPlanRequirements, planEntry, planRequirement, sharedRequirements } from './plan-view.ts';

/** The outcome of a plan as a pill in its tone (green only for a certified plan). */
export function planPill(report: RunReport, p: PlanResult): SafeHtml {
  return html`<span class="pill o-${planTone(report, p)}" data-testid="plan-outcome">${planHeadline(report, p)}</span>`;
}

/** Where a plan's key came from: a variable's name (never the key). */
export const keyFrom = (source: string): SafeHtml => html`key from <code>${source}</code>`;

function column(report: RunReport, p: PlanResult): SafeHtml {
  return html`<th scope="col" class="plan-col p-${planTone(report, p)}" data-testid="plan-column" data-plan="${p.plan}" data-outcome="${p.outcome}">
<a class="plan-name" href="#${planAnchor(p.plan)}">${p.plan}</a>${planPill(report, p)}<span class="limits" data-testid="plan-limits">${limitsText(p)}</span><span class="key" data-testid="plan-key">${keyFrom(p.keySource)}</span></th>`;
}

/** A failure's link to the chart of the scenario that found it on this plan. */
function chartOf(pr: RequirementResult, p: PlanResult): SafeHtml | undefined {
  const f = explainingFinding(pr);
  const lr = f && p.load.find((l) => l.judgements.some((j) => j.requirement === f.requirement && j.message === f.message));
  return lr && f ? html` <a href="${chartLink(lr, f).href}">marked on the chart</a>` : undefined;
}

function cell(r: RequirementResult, p: PlanResult): SafeHtml {
  const pr = planRequirement(r, p);
  const label = STATUS_LABEL[pr.status];
  const why = pr.status === 'skip' && pr.notExercised ? notExercisedText(pr.notExercised) : reasonOf(pr);
  const open = html`<td data-testid="matrix-cell" data-plan="${p.plan}" data-status="${pr.status}" title="${`${p.plan}: ${label}${why ? ` — ${why}` : ''}`}">`;
  const pill = html`<span class="pill st-${pr.status}">${label}</span>`;
  if (pr.status === 'pass' || pr.status === 'observed' || !why) return html`${open}${pill}</td>`;
  return html`${open}<details class="cell"><summary>${pill}</summary><p class="why" data-testid="matrix-reason">${why}${pr.status === 'fail' && chartOf(pr, p)}</p></details></td>`;
}

function row(r: RequirementResult, plans: readonly PlanResult[]): SafeHtml {
  return html`<tr data-testid="matrix-row" data-requirement="${r.id}" data-level="${r.level}"><th scope="row"><a href="#req-${r.id}"><code>${r.id}</code></a> <span class="pill lv lv-${r.level}">${r.level}</span></th>${plans.map((p) => cell(r, p))}</tr>`;
}

/** The conformance requirements, once: how they ended, the same on every plan. */
function shared(report: RunReport, plans: readonly PlanResult[]): SafeHtml {
  const reqs = sharedRequirements(report, plans);
  const tally = STATUSES.map((s) => [s, reqs.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n)
    .map(([s, n]) => `${n} ${STATUS_LABEL[s]}`)
    .join(' · ');
  const failed = reqs.filter((r) => r.level === 'MUST' && r.status === 'fail');
  const links = joinHtml(
    failed.map((r) => html`<a href="#req-${r.id}"><code>${r.id}</code></a>`),
    ' ',
  );
  const key = report.conformanceKey ? html` on the key from <code>${report.conformanceKey}</code>` : '';
  return html`<tr class="shared" data-testid="matrix-conformance"><th scope="row">Conformance <span class="muted">(${reqs.length} requirements)</span></th><td colspan="${plans.length}">Judged once${key}: ${tally} — the same on every plan.${failed.length ? html` <span class="failed">Failed MUSTs: ${links}</span>` : ''}</td></tr>`;
}

/** The one status a requirement has on every plan, when that is a pass or an observation (its row is folded). */
function alike(r: RequirementResult, plans: readonly PlanResult[]): Status | undefined {
  const statuses = new Set(plans.map((p) => planEntry(p, r.id)?.status));
  const [only] = [...statuses];
  return statuses.size === 1 && (only === 'pass' || only === 'observed') ? only : undefined;
}

/** The rate-limit requirements that passed (or were observed) on every plan, folded into one row. */
function same(reqs: readonly RequirementResult[], plans: readonly PlanResult[]): SafeHtml {
  if (!reqs.length) return html``;
  const links = reqs.map(
    (r) =>
      html`<a href="#req-${r.id}"><code>${r.id}</code></a> <span class="pill st-${alike(r, plans)}">${STATUS_LABEL[alike(r, plans)!]}</span>`,
  );
  return html`<tr class="same" data-testid="matrix-same"><th scope="row">Alike on every plan</th><td colspan="${plans.length}"><details class="cell"><summary>${reqs.length} rate-limit requirement${reqs.length === 1 ? '' : 's'} passed or observed on every plan</summary><p class="same-list">${joinHtml(links, ' · ')}</p></details></td></tr>`;
}

/** On a narrow screen, the plans' outcomes above the table (whose columns scroll). */
function chips(report: RunReport, plans: readonly PlanResult[]): SafeHtml {
  const items = plans.map((p) => html`<a href="#${planAnchor(p.plan)}">${p.plan}</a> ${planPill(report, p)}`);
  return html`<p class="plan-chips" data-testid="plan-chips">${items.map((i) => html`<span>${i}</span>`)}</p>`;
}

export function planMatrix(report: RunReport): SafeHtml {
  const plans = plansOf(report);
  if (!plans) return html``;
  const perPlan = perPlanRequirements(report, plans);
  const groups = groupByArea(perPlan.filter((r) => !alike(r, plans)));
  const body = groups.map(
    (g) =>
      html`<tr class="area-row"><th scope="colgroup" colspan="${plans.length + 1}">${areaTitle(g.area)}</th></tr>\n${joinHtml(
        g.requirements.map((r) => row(r, plans)),
        '\n',
      )}`,
  );
  body.push(
    same(
      perPlan.filter((r) => alike(r, plans)),
      plans,
    ),
  );
  return html`<section class="card plans" data-testid="plan-matrix" aria-label="Plans">
<h2>Plans <span class="muted">· ${plansCertified(report, plans)}</span></h2>
<p class="intro">Each plan is certified by the same rules as a whole run. Conformance was judged once${report.conformanceKey ? html`, on the key from <code>${report.conformanceKey}</code>` : ''}; the rate-limit requirements below, on each plan’s own key. Hover or open a cell for its reason.</p>
${chips(report, plans)}
<div class="matrix-scroll" role="region" aria-label="Requirements by plan" tabindex="0">
<table class="matrix" data-testid="plan-table">
<thead><tr><th scope="col">Requirement</th>${plans.map((p) => column(report, p))}</tr></thead>
<tbody>
${shared(report, plans)}
${joinHtml(body, '\n')}
</tbody>
</table>
</div>
</section>`;
}
