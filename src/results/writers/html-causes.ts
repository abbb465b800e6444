/**
 * The causes of index.html: a section that shows each cause once, failing ones first — its title and stable id, how
 * many requests showed it, every requirement it breaks (each a link to its row in the requirements below, with its
 * level and status, the consequences marked), the other requests that showed it, and the finding that names it with
 * its evidence, replay and curl line (the one reproduction); a requirement's link to its causes; and the causes new or
 * fixed since the last run. Every value is escaped by the `html` tag.
 */
import type { CauseRef, CauseResult, RequirementResult, RunReport } from '../types.ts';
import { STATUS_LABEL } from './common.ts';
import { causeReach, causesOf, causesVerdict, shownCauses } from './causes.ts';
import { evidenceDetails } from './html-evidence.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import { chartLink, loadReportOf } from './load-runs.ts';
import { replayKeyOf } from './plan-view.ts';

function requirementItem(q: CauseResult['requirements'][number]): SafeHtml {
  const follows = q.consequence ? html` <span class="muted">(consequence)</span>` : '';
  return html`<li data-testid="cause-requirement" data-requirement="${q.id}" data-consequence="${q.consequence ? 'yes' : 'no'}"><a href="#req-${q.id}"><code>${q.id}</code></a> <span class="pill lv lv-${q.level}">${q.level}</span> <span class="pill st-${q.status}">${STATUS_LABEL[q.status]}</span>${follows}</li>`;
}

function causeArticle(report: RunReport, c: CauseResult): SafeHtml {
  const f = c.primary;
  const lr = f.evidence?.at ? loadReportOf(report, f) : undefined;
  const reach = c.requests > 1 ? html` <span class="muted" data-testid="cause-reach">${causeReach(c)}</span>` : '';
  const seen = c.seenOn.length ? html`<p class="muted" data-testid="cause-seen-on">Also seen on: ${c.seenOn.join(' · ')}</p>` : '';
  return html`<article class="req cause s-${c.status}" id="cause-${c.id}" data-testid="cause" data-cause="${c.id}" data-status="${c.status}">
<div class="cause-head"><span class="pill st-${c.status}">${STATUS_LABEL[c.status]}</span> <code class="req-id" data-testid="cause-id">${c.id}</code> <span class="req-title" data-testid="cause-title">${c.title}</span>${reach}</div>
<div class="cause-body"><p>Breaks ${c.requirements.length === 1 ? 'one requirement' : `${c.requirements.length} requirements`}:</p>
<ul class="cause-reqs" data-testid="cause-requirements">${c.requirements.map(requirementItem)}</ul>
${seen}
${evidenceDetails(f, true, lr ? chartLink(lr, f) : undefined, replayKeyOf(report, f))}</div>
</article>`;
}

/** The causes section (nothing when no cause failed or warned). */
export function causes(report: RunReport): SafeHtml {
  const list = shownCauses(report);
  if (!list.length) return html``;
  return html`<section class="card causes" data-testid="causes" aria-label="Causes"><h2>Causes (${list.length})</h2>
<p class="muted" data-testid="causes-verdict">${causesVerdict(report) ?? ''}: each cause once, with every requirement it breaks and one reproduction.</p>
${joinHtml(
  list.map((c) => causeArticle(report, c)),
  '\n',
)}
</section>`;
}

/** "Cause: <title> C-…" under a failed or warned requirement, each a link to its cause. */
export function causeLinks(report: RunReport, r: RequirementResult): SafeHtml | undefined {
  const list = causesOf(report, r);
  if (!list.length) return undefined;
  const links = list.map((c) => html`<a href="#cause-${c.id}" data-testid="cause-link">${c.title}</a> <code>${c.id}</code>`);
  return html`<p class="cause-of" data-testid="cause-of"><b>${list.length === 1 ? 'Cause' : 'Causes'}:</b> ${joinHtml(links, '; ')}</p>`;
}

/** The causes new or fixed since the last run, as rows of the comparison (nothing when the baseline had no causes). */
export function causeComparisonRows(report: RunReport): SafeHtml[] {
  const k = report.comparison;
  const row = (key: string, label: string, refs: readonly CauseRef[] | undefined) =>
    refs && refs.length
      ? html`<div class="cmp cmp-${key}" data-testid="comparison-${key}"><dt>${label} (${refs.length})</dt><dd>${joinHtml(
          refs.map((c) =>
            key === 'newCauses'
              ? html`<span><a href="#cause-${c.id}"><code>${c.id}</code></a> ${c.title}</span>`
              : html`<span><code>${c.id}</code> ${c.title}</span>`,
          ),
          ' ',
        )}</dd></div>`
      : undefined;
  return [row('newCauses', 'New causes', k?.newCauses), row('fixedCauses', 'Causes fixed', k?.fixedCauses)].filter(
    (x): x is SafeHtml => !!x,
  );
}
