/**
 * The rate-limit scenarios of index.html, one section per plan: for each
 * scenario its question, verdict, chart (with the offending requests marked),
 * why it stopped, and its judgements failures first — a failure or warning
 * with its request, response and curl line (open), a skip with its reason and
 * remedy — and the requirements the scenario judges that it did not judge in
 * this run, with the reason the report gives. A run over several plans gives
 * every plan its section (outcome, limits, key source), even one that ran no
 * scenario, and reads each plan's reasons from that plan.
 */
import { SCENARIO_INFO, isScenarioName } from '../../core/scenarios.ts';
import type { Judgement } from '../../core/sections/define.ts';
import type { PlanResult, RequirementResult, RunReport } from '../types.ts';
import { dateTimeOf, durationSeconds, notExercisedText, plansOf } from './common.ts';
import { chart } from './html-chart.ts';
import { evidenceDetails } from './html-evidence.ts';
import { keyFrom, planPill } from './html-plans.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import { byOutcome, chartLink, loadAnchor, loadByPlan, planAnchor, type LoadReport } from './load-runs.ts';
import { limitsText, planRequirement, replayKey } from './plan-view.ts';

/** A requirement as the section's plan saw it (a single-plan run: as the report has it). */
type View = (r: RequirementResult) => RequirementResult;

const VERDICT_LABEL: Record<string, string> = { pass: 'passed', fail: 'failed', incomplete: 'incomplete' };

function line(j: Judgement): SafeHtml {
  const remedy = j.remedy ? html`<br><span class="remedy">To exercise it: ${j.remedy}</span>` : '';
  return html`<span class="pill st-${j.outcome}">${j.outcome === 'observe' ? 'observed' : j.outcome}</span> <code>${j.requirement}</code> ${j.title}${j.message ? html` — <span class="msg-text">${j.message}</span>` : ''}${remedy}`;
}

/**
 * Failures and warnings first, with their evidence (open for the first failure
 * about each request, so one request is not shown twice), then skips and suite
 * errors; passes and observations folded into one row.
 */
function judgements(lr: LoadReport, keyVariable: string | undefined): SafeHtml {
  const shownFor = new Set<number>();
  const item = (j: Judgement, body: SafeHtml) =>
    html`<li data-testid="load-judgement" data-requirement="${j.requirement}" data-status="${j.outcome}">${body}</li>`;
  const all = byOutcome(lr.judgements);
  const problems = all
    .filter((j) => j.outcome !== 'pass' && j.outcome !== 'observe')
    .map((j) => {
      if (j.outcome !== 'fail' && j.outcome !== 'warn' && !j.evidence) return item(j, line(j));
      const at = j.evidence?.at?.request;
      const open = j.outcome === 'fail' && (at === undefined || !shownFor.has(at));
      if (open && at !== undefined) shownFor.add(at);
      return item(j, html`<code>${j.requirement}</code>${evidenceDetails(j, open, chartLink(lr, j), keyVariable)}`);
    });
  const passed = all.filter((j) => j.outcome === 'pass' || j.outcome === 'observe');
  const fold = passed.length
    ? html`<li class="fold"><details class="passed" data-testid="load-passed-fold"><summary><span class="pill st-pass">${passed.length} passed or observed</span> <span class="fold-ids">${passed.map((j) => j.requirement).join(', ')}</span></summary><ul class="judgements">${passed.map((j) => item(j, line(j)))}</ul></details></li>`
    : undefined;
  return problems.length || fold
    ? html`<ul class="judgements">${problems}${fold}</ul>`
    : html`<p class="muted">This scenario made no judgement.</p>`;
}

/** Requirements the scenario judges but did not in this run, with the reason the report records. */
function unjudged(report: RunReport, lr: LoadReport, view: View): SafeHtml {
  if (!isScenarioName(lr.scenario)) return html``;
  const judged = new Set(lr.judgements.filter((j) => j.outcome !== 'observe').map((j) => j.requirement));
  const missing = SCENARIO_INFO[lr.scenario].requirements.filter((id) => !judged.has(id));
  if (!missing.length) return html``;
  const items = missing.map((id) => {
    const found = report.requirements.find((q) => q.id === id);
    const r = found && view(found);
    const why = r?.notExercised ? notExercisedText(r.notExercised) : r ? `judged elsewhere in this run (${r.status})` : '';
    return html`<li data-testid="load-unjudged" data-requirement="${id}"><a href="#req-${id}"><code>${id}</code></a>${why ? ` — ${why}` : ''}</li>`;
  });
  const no429 = !(lr.timeline ?? []).some((p) => p.status === 429) ? ' — no response of this run was a 429' : '';
  return html`<details class="unjudged" data-testid="load-unjudged-list"><summary>${missing.length} requirement${missing.length === 1 ? '' : 's'} of this scenario not judged by it${no429}</summary><ul>${items}</ul></details>`;
}

function scenario(report: RunReport, lr: LoadReport, view: View): SafeHtml {
  const question = isScenarioName(lr.scenario) ? html`<p class="question">${SCENARIO_INFO[lr.scenario].question}</p>` : '';
  const notes = [
    lr.stoppedBecause ? html`<li>Stopped: ${lr.stoppedBecause}</li>` : undefined,
    ...(lr.notes ?? []).map((n) => html`<li>${n}</li>`),
    lr.key?.waitRefusedMs !== undefined
      ? html`<li>A wait of ${lr.key.waitRefusedMs} ms was longer than allowed (--max-wait-ms).</li>`
      : undefined,
    lr.key?.blockedUntil !== undefined
      ? html`<li>The key was blocked until ${dateTimeOf(new Date(lr.key.blockedUntil).toISOString())}.</li>`
      : undefined,
  ].filter((n) => n !== undefined);
  return html`<article class="card load" id="${loadAnchor(lr)}" data-testid="load-run" data-scenario="${lr.scenario}" data-plan="${lr.plan}" data-status="${lr.verdict}">
<h4>Scenario <code>${lr.scenario}</code> <span class="pill st-${lr.verdict === 'incomplete' ? 'skip' : lr.verdict}">${VERDICT_LABEL[lr.verdict] ?? lr.verdict}</span></h4>
${question}
<p class="sub">${lr.engine} engine · ${lr.requestsSent} requests · ${dateTimeOf(lr.startedAt)} · ${durationSeconds(lr.startedAt, lr.endedAt).toFixed(1)}\u00a0s</p>
${chart(lr)}
${notes.length ? html`<ul class="obs" data-testid="load-notes">${notes}</ul>` : ''}
${judgements(lr, replayKey(report, lr.plan))}
${unjudged(report, lr, view)}
</article>`;
}

interface PlanSection {
  plan: string;
  reports: LoadReport[];
  /** The plan's result, in a run over several plans. */
  result?: PlanResult;
}

function section(report: RunReport, { plan, reports, result }: PlanSection): SafeHtml {
  const scenarios = `${reports.length} scenario${reports.length === 1 ? '' : 's'}${reports.length ? ': ' : ''}${reports.map((r) => `${r.scenario} ${VERDICT_LABEL[r.verdict] ?? r.verdict}`).join(', ')}`;
  const view: View = result ? (r) => planRequirement(r, result) : (r) => r;
  const facts = result ? html` ${planPill(report, result)} · ${limitsText(result)} · ${keyFrom(result.keySource)} ·` : '';
  const none = reports.length ? '' : html`<p class="card empty" data-testid="load-none">No rate-limit scenario ran on this plan.</p>`;
  return html`<section class="load-plan"${result ? html` id="${planAnchor(plan)}"` : ''} data-testid="load-plan" data-plan="${plan}">
<h3 class="plan">Plan ${plan} ·${facts} ${scenarios}</h3>
${none}${joinHtml(
    reports.map((lr) => scenario(report, lr, view)),
    '\n',
  )}
</section>`;
}

export function load(report: RunReport): SafeHtml {
  const results = plansOf(report);
  const plans: PlanSection[] = results ? results.map((p) => ({ plan: p.plan, reports: p.load, result: p })) : loadByPlan(report);
  if (!plans.length) return html``;
  const sections = plans.map((p) => section(report, p));
  return html`<section aria-label="Rate limits under load" data-testid="load"><h2 class="section">Rate limits under load</h2>
${joinHtml(sections, '\n')}
</section>`;
}
