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
import type { Judgement } from '../../core/judgement.ts';
import type { PlanResult, RequirementResult, RunReport } from '../types.ts';
import { dateTimeOf, durationSeconds, escapeAttr as a, escapeXml as e, notExercisedText, plansOf } from './common.ts';
import { renderChart } from './html-chart.ts';
import { evidenceDetails } from './html-evidence.ts';
import { keyFrom, planPill } from './html-plans.ts';
import { byOutcome, chartLink, loadAnchor, loadByPlan, planAnchor, type LoadReport } from './load-runs.ts';
import { limitsText, planRequirement, replayKey } from './plan-view.ts';

/** A requirement as the section's plan saw it (a single-plan run: as the report has it). */
type View = (r: RequirementResult) => RequirementResult;

const VERDICT_LABEL: Record<string, string> = { pass: 'passed', fail: 'failed', incomplete: 'incomplete' };

function line(j: Judgement): string {
  const remedy = j.remedy ? `<br><span class="remedy">To exercise it: ${e(j.remedy)}</span>` : '';
  return `<span class="pill st-${a(j.outcome)}">${e(j.outcome === 'observe' ? 'observed' : j.outcome)}</span> <code>${e(j.requirement)}</code> ${e(j.title)}${j.message ? ` — <span class="msg-text">${e(j.message)}</span>` : ''}${remedy}`;
}

/**
 * Failures and warnings first, with their evidence (open for the first failure
 * about each request, so one request is not shown twice), then skips and suite
 * errors; passes and observations folded into one row.
 */
function judgements(lr: LoadReport, keyVariable: string | undefined): string {
  const shownFor = new Set<number>();
  const item = (j: Judgement, body: string) =>
    `<li data-testid="load-judgement" data-requirement="${a(j.requirement)}" data-status="${a(j.outcome)}">${body}</li>`;
  const all = byOutcome(lr.judgements);
  const problems = all
    .filter((j) => j.outcome !== 'pass' && j.outcome !== 'observe')
    .map((j) => {
      if (j.outcome !== 'fail' && j.outcome !== 'warn' && !j.evidence) return item(j, line(j));
      const at = j.evidence?.at?.request;
      const open = j.outcome === 'fail' && (at === undefined || !shownFor.has(at));
      if (open && at !== undefined) shownFor.add(at);
      return item(j, `<code>${e(j.requirement)}</code>${evidenceDetails(j, open, chartLink(lr, j), keyVariable)}`);
    });
  const passed = all.filter((j) => j.outcome === 'pass' || j.outcome === 'observe');
  const fold = passed.length
    ? `<li class="fold"><details class="passed" data-testid="load-passed-fold"><summary><span class="pill st-pass">${passed.length} passed or observed</span> <span class="fold-ids">${passed.map((j) => e(j.requirement)).join(', ')}</span></summary><ul class="judgements">${passed.map((j) => item(j, line(j))).join('')}</ul></details></li>`
    : '';
  return problems.length || fold
    ? `<ul class="judgements">${problems.join('')}${fold}</ul>`
    : '<p class="muted">This scenario made no judgement.</p>';
}

/** Requirements the scenario judges but did not in this run, with the reason the report records. */
function unjudged(report: RunReport, lr: LoadReport, view: View): string {
  if (!isScenarioName(lr.scenario)) return '';
  const judged = new Set(lr.judgements.filter((j) => j.outcome !== 'observe').map((j) => j.requirement));
  const missing = SCENARIO_INFO[lr.scenario].requirements.filter((id) => !judged.has(id));
  if (!missing.length) return '';
  const items = missing.map((id) => {
    const found = report.requirements.find((q) => q.id === id);
    const r = found && view(found);
    const why = r?.notExercised ? notExercisedText(r.notExercised) : r ? `judged elsewhere in this run (${r.status})` : '';
    return `<li data-testid="load-unjudged" data-requirement="${a(id)}"><a href="#req-${a(id)}"><code>${e(id)}</code></a>${why ? ` — ${e(why)}` : ''}</li>`;
  });
  const no429 = !(lr.timeline ?? []).some((p) => p.status === 429) ? ' — no response of this run was a 429' : '';
  return `<details class="unjudged" data-testid="load-unjudged-list"><summary>${missing.length} requirement${missing.length === 1 ? '' : 's'} of this scenario not judged by it${no429}</summary><ul>${items.join('')}</ul></details>`;
}

function scenario(report: RunReport, lr: LoadReport, view: View): string {
  const question = isScenarioName(lr.scenario) ? `<p class="question">${e(SCENARIO_INFO[lr.scenario].question)}</p>` : '';
  const notes = [
    lr.stoppedBecause ? `<li>Stopped: ${e(lr.stoppedBecause)}</li>` : '',
    ...(lr.notes ?? []).map((n) => `<li>${e(n)}</li>`),
    lr.key?.waitRefusedMs !== undefined ? `<li>A wait of ${e(lr.key.waitRefusedMs)} ms was longer than allowed (--max-wait-ms).</li>` : '',
    lr.key?.blockedUntil !== undefined
      ? `<li>The key was blocked until ${e(dateTimeOf(new Date(lr.key.blockedUntil).toISOString()))}.</li>`
      : '',
  ].filter(Boolean);
  return `<article class="card load" id="${a(loadAnchor(lr))}" data-testid="load-run" data-scenario="${a(lr.scenario)}" data-plan="${a(lr.plan)}" data-status="${a(lr.verdict)}">
<h4>Scenario <code>${e(lr.scenario)}</code> <span class="pill st-${a(lr.verdict === 'incomplete' ? 'skip' : lr.verdict)}">${e(VERDICT_LABEL[lr.verdict] ?? lr.verdict)}</span></h4>
${question}
<p class="sub">${e(lr.engine)} engine · ${e(lr.requestsSent)} requests · ${e(dateTimeOf(lr.startedAt))} · ${durationSeconds(lr.startedAt, lr.endedAt).toFixed(1)}\u00a0s</p>
${renderChart(lr)}
${notes.length ? `<ul class="obs" data-testid="load-notes">${notes.join('')}</ul>` : ''}
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

function section(report: RunReport, { plan, reports, result }: PlanSection): string {
  const scenarios = `${reports.length} scenario${reports.length === 1 ? '' : 's'}${reports.length ? ': ' : ''}${reports.map((r) => `${e(r.scenario)} ${e(VERDICT_LABEL[r.verdict] ?? r.verdict)}`).join(', ')}`;
  const view: View = result ? (r) => planRequirement(r, result) : (r) => r;
  const facts = result ? ` ${planPill(report, result)} · ${e(limitsText(result))} · ${keyFrom(result.keySource)} ·` : '';
  const none = reports.length ? '' : '<p class="card empty" data-testid="load-none">No rate-limit scenario ran on this plan.</p>';
  return `<section class="load-plan"${result ? ` id="${a(planAnchor(plan))}"` : ''} data-testid="load-plan" data-plan="${a(plan)}">
<h3 class="plan">Plan ${e(plan)} ·${facts} ${scenarios}</h3>
${none}${reports.map((lr) => scenario(report, lr, view)).join('\n')}
</section>`;
}

export function load(report: RunReport): string {
  const results = plansOf(report);
  const plans: PlanSection[] = results ? results.map((p) => ({ plan: p.plan, reports: p.load, result: p })) : loadByPlan(report);
  if (!plans.length) return '';
  const sections = plans.map((p) => section(report, p));
  return `<section aria-label="Rate limits under load" data-testid="load"><h2 class="section">Rate limits under load</h2>
${sections.join('\n')}
</section>`;
}
