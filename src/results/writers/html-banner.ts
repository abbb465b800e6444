/**
 * The top of index.html, in the order a reader needs it: the outcome banner
 * (headline, scope sentence, diagnosis, failed MUSTs), the run-to-run
 * comparison ("new since the last run" first), the counts, the suite's own
 * errors, and the MUST requirements that were not exercised (reason and remedy;
 * in a run over several plans, once per requirement and reason, with the plans
 * it concerns).
 */
import { unverifiedK6 } from '../../core/engine-record.ts';
import { networkText } from '../../core/target-info.ts';
import type { RunReport, Status } from '../types.ts';
import { suiteLabel } from '../meta.ts';
import {
  engineReason,
  engineText,
  envLabel,
  COMPARISON_PARTS,
  dateTimeOf,
  durationSeconds,
  failedMusts,
  headline,
  mustWaiversAllowed,
  plansOf,
  remedyText,
  STATUS_LABEL,
  toneOf,
  worldText,
} from './common.ts';
import { scopeSentence } from './scope.ts';
import { causeComparisonRows } from './html-causes.ts';
import { html, joinHtml, raw, type SafeHtml } from './html-safe.ts';
import { ACROSS_PLANS_NOTE, onPlans } from './plan-view.ts';
import { notExercisedList } from './not-exercised.ts';

const SEAL: Record<string, SafeHtml> = {
  certified: raw('<path d="M10 24l9 9 19-20"/>'),
  'not-conformant': raw('<path d="M14 14l20 20M34 14L14 34"/>'),
  incomplete: raw('<path d="M24 12v15M24 34v1"/>'),
};

function flags(report: RunReport): SafeHtml {
  const out: SafeHtml[] = [];
  if (report.target.embedded)
    out.push(
      html`<span class="flag stop" data-testid="flag-embedded">Embedded reference server${report.target.world ? ` in its short world (${worldText(report.target)})` : ''}: a self-test, not a certificate of a real service</span>`,
    );
  const mustWaived = report.requirements.filter((r) => r.level === 'MUST' && r.status === 'waived').length;
  if (mustWaived || mustWaiversAllowed(report))
    out.push(
      html`<span class="flag alert" data-testid="flag-must-waivers">MUST waivers allowed (--allow-must-waivers): ${mustWaived} MUST requirement${mustWaived === 1 ? '' : 's'} waived</span>`,
    );
  if (report.counts.waived) out.push(html`<span class="flag">${report.counts.waived} waived</span>`);
  if (report.target.network?.insecure && /^https:/i.test(report.target.baseUrl))
    out.push(
      html`<span class="flag stop" data-testid="flag-insecure">Server certificate NOT verified (--insecure): the server's identity was not checked; no certificate of a real service</span>`,
    );
  const k6 = unverifiedK6(report.engine);
  if (k6)
    out.push(
      html`<span class="flag alert" data-testid="flag-k6-unverified">Rate limits ran on ${k6}, which the suite is not yet verified on (${report.engine?.k6?.verifiedOn}): a failure found there says so</span>`,
    );
  return out.length ? html`<div class="flags">${out}</div>` : html``;
}

function failedList(report: RunReport): SafeHtml {
  const musts = failedMusts(report);
  if (!musts.length) return html``;
  const shown = musts.slice(0, 12).map((r) => html`<li><a href="#req-${r.id}">${r.id}</a></li>`);
  if (musts.length > 12) shown.push(html`<li>… and ${musts.length - 12} more</li>`);
  return html`<ul class="failed-list" data-testid="failed-musts" aria-label="Failed MUST requirements">${shown}</ul>`;
}

export function banner(report: RunReport): SafeHtml {
  const t = report.target;
  const tone = toneOf(report);
  const plans = plansOf(report);
  const plan: [string, string, string][] = plans
    ? [
        ['Plans', plans.map((p) => p.plan).join(', '), 'meta-plan'],
        ...(report.conformanceKey
          ? [['Conformance key from', report.conformanceKey, 'meta-conformance-key'] as [string, string, string]]
          : []),
      ]
    : [['Plan', t.plan ?? 'not given', 'meta-plan']];
  const meta: [string, string, string][] = [
    ['Target', t.baseUrl, 'meta-target'],
    ['Environment', envLabel(t), 'meta-env'],
    ...(t.world ? [['Short world', worldText(t) as string, 'meta-world'] as [string, string, string]] : []),
    ...(t.network ? [['Network', networkText(t.network, t.baseUrl), 'meta-network'] as [string, string, string]] : []),
    ...plan,
    ['Date', dateTimeOf(report.startedAt), 'meta-date'],
    ['Duration', `${durationSeconds(report.startedAt, report.endedAt).toFixed(1)} s`, 'meta-duration'],
    ['Requests sent', String(report.requestsSent), 'meta-requests'],
    ...(engineText(report) ? [['Rate-limit engine', engineText(report) as string, 'meta-engine'] as [string, string, string]] : []),
    ...(report.engine ? [['Engine chosen', engineReason(report) as string, 'meta-engine-reason'] as [string, string, string]] : []),
    ['Suite', suiteLabel(report), 'meta-suite'],
    ['Spec SHA-256', report.specSha256, 'meta-spec'],
  ];
  const dl = meta.map(([k, v, id]) => html`<div class="m-${id}"><dt>${k}</dt><dd data-testid="${id}">${v}</dd></div>`);
  return html`<header class="card banner v-${tone}" data-testid="banner" data-outcome="${report.outcome}" data-headline="${headline(report)}">
<div class="seal" aria-hidden="true"><svg viewBox="0 0 48 48"><circle cx="24" cy="24" r="21"/>${SEAL[tone]}</svg></div>
<div class="banner-main">
<div class="eyebrow">Animal Store API · ${report.kind === 'certification' ? 'certification' : 'conformance'} report</div>
<h1 class="verdict" data-testid="verdict">${headline(report)}</h1>
<p class="verdict-sub" data-testid="scope">${scopeSentence(report)}</p>
${report.diagnosis ? html`<p class="reason" data-testid="diagnosis"><b>Diagnosis:</b> ${report.diagnosis}</p>` : ''}
${report.abort ? html`<p class="reason" data-testid="abort-reason"><b>Stopped early:</b> ${report.abort}</p>` : ''}
${flags(report)}
${failedList(report)}
</div>
<dl class="meta">${dl}</dl>
</header>`;
}

const idLinks = (ids: readonly string[]) =>
  joinHtml(
    ids.map((id) => html`<a href="#req-${id}"><code>${id}</code></a>`),
    ' ',
  );

export function comparison(report: RunReport): SafeHtml {
  const k = report.comparison;
  if (!k) return html``;
  const rows = COMPARISON_PARTS.map(({ key, label }) => {
    const ids = k[key];
    if (key !== 'newProblems' && !ids.length) return '';
    const body = ids.length ? idLinks(ids) : html`<span class="muted">none</span>`;
    return html`<div class="cmp cmp-${key}" data-testid="comparison-${key}"><dt>${label} (${ids.length})</dt><dd>${body}</dd></div>`;
  });
  return html`<section class="card comparison" data-testid="comparison" aria-label="Compared with the last run">
<h2>Compared with the last run <span class="muted">(${dateTimeOf(k.baseline.startedAt)}, ${k.baseline.outcome})</span></h2>
<dl>${rows}${causeComparisonRows(report)}</dl>
</section>`;
}

const COUNT_ORDER: readonly Status[] = ['fail', 'warn', 'skip', 'pass', 'observed', 'waived'];
const FILL: Record<Status, string> = {
  pass: '#2da44e',
  fail: '#cf222e',
  warn: '#d4a72c',
  waived: '#8250df',
  skip: '#afb8c1',
  observed: '#54aeff',
};

export function counts(report: RunReport): SafeHtml {
  const total = report.requirements.length || 1;
  let x = 0;
  const bars = COUNT_ORDER.map((s) => {
    const w = ((report.counts[s] ?? 0) / total) * 1000;
    const r = w ? html`<rect x="${x.toFixed(1)}" width="${w.toFixed(1)}" height="6" fill="${FILL[s]}"/>` : '';
    x += w;
    return r;
  });
  const cells = COUNT_ORDER.map(
    (s) => html`<div class="count c-${s}" data-testid="count-${s}"><b>${report.counts[s] ?? 0}</b><span>${STATUS_LABEL[s]}</span></div>`,
  );
  return html`<section class="card counts" data-testid="counts" aria-label="Requirement counts">
<div class="count total"><b>${report.requirements.length}</b><span>requirements</span></div>${cells}
<svg class="ratio" viewBox="0 0 1000 6" preserveAspectRatio="none" aria-hidden="true">${bars}</svg>
<p class="count-note">INFO requirements the run saw are counted as observed, apart from passed. ${report.requestsSent} requests sent.${plansOf(report) ? html` <span data-testid="count-across-plans">${ACROSS_PLANS_NOTE}</span>` : ''}</p>
</section>`;
}

export function suiteErrors(report: RunReport): SafeHtml {
  if (!report.suiteErrors.length) return html``;
  return html`<section class="card notice" data-testid="suite-errors"><h2>Defects of the suite (not the server’s fault)</h2>
<p class="muted">These checks could not run properly; their requirements count as not exercised.</p>
<ul>${report.suiteErrors.map((s) => html`<li>${s}</li>`)}</ul>
</section>`;
}

export function notExercised(report: RunReport): SafeHtml {
  const plans = plansOf(report);
  const gaps = notExercisedList(report);
  const list = gaps.filter((n) => n.decisive);
  if (!list.length) return html``;
  const others = gaps.length - list.length;
  // the count above says how many were not exercised: the others are in the requirements below, each with its reason
  const rest = others
    ? html`<p class="muted" data-testid="not-exercised-others">${others} other requirement${others === 1 ? ' was' : 's were'} not exercised either (SHOULD, INFO, ADVISORY, or outside this run): listed below with the reason.</p>`
    : '';
  const items = list.map((n) => {
    const on =
      plans && n.plans.length ? html` <span class="on-plans" data-testid="not-exercised-plans">on ${onPlans(n.plans, plans)}</span>` : '';
    const attr = plans ? html` data-plans="${n.plans.join(' ')}"` : '';
    return html`<li data-testid="not-exercised-item" data-requirement="${n.id}"${attr}><a href="#req-${n.id}"><code>${n.id}</code></a> ${n.title}${on}<br><span class="why">${n.reason}</span>${n.remedy ? html`<br><span class="remedy">${remedyText(n.remedy)}</span>` : ''}</li>`;
  });
  return html`<section class="card notice" data-testid="not-exercised"><h2>MUST requirements not exercised (${list.length})</h2>
<p class="muted">No MUST requirement may be left out of a certification: each one below says why it was not exercised and what would exercise it.</p>
<ul>${items}</ul>${rest}
</section>`;
}
