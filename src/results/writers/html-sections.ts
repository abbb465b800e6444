/**
 * The sections of index.html: verdict banner, counts, filter bar, requirements
 * grouped by area (with evidence), load scenarios and notes. Every value is
 * escaped with escapeXml/escapeAttr: the content comes from hostile servers.
 */
import type { Evidence, Finding, HttpExcerpt, RequirementResult, RunReport, Status } from '../types.ts';
import {
  areaTitle,
  dateTimeOf,
  durationSeconds,
  escapeAttr as a,
  escapeXml as e,
  failedMusts,
  groupByArea,
  headline,
  isCertified,
  LEVELS,
  mustWaiversAllowed,
  reasonOf,
  scopeSentence,
  STATUSES,
} from './common.ts';
import { renderChart } from './html-chart.ts';
import { loadRuns, type LoadRun } from './load-runs.ts';

const ICON: Record<string, string> = {
  pass: '<path d="M10 24l9 9 19-20"/>',
  fail: '<path d="M14 14l20 20M34 14L14 34"/>',
  stop: '<path d="M24 12v15M24 34v1"/>',
};

export function banner(report: RunReport): string {
  const h = headline(report);
  const tone = isCertified(report) ? 'pass' : report.outcome === 'not-conformant' ? 'fail' : 'stop';
  const t = report.target;
  const sub = scopeSentence(report);
  const flags: string[] = [];
  if (t.embedded)
    flags.push(
      '<span class="flag stop" data-testid="flag-embedded">Embedded reference server: a self-test, not a certificate of a real service</span>',
    );
  const mustWaived = report.requirements.filter((r) => r.level === 'MUST' && r.status === 'waived').length;
  if (mustWaived || mustWaiversAllowed(report))
    flags.push(
      `<span class="flag alert" data-testid="flag-must-waivers">MUST waivers allowed (--allow-must-waivers): ${mustWaived} MUST requirement${mustWaived === 1 ? '' : 's'} waived</span>`,
    );
  if (report.counts.waived) flags.push(`<span class="flag">${report.counts.waived} waived</span>`);
  const meta: [string, string, string][] = [
    ['Target', t.baseUrl, 'meta-target'],
    ['Environment', t.env, 'meta-env'],
    ['Plan', t.plan ?? 'not given', 'meta-plan'],
    ['Date', dateTimeOf(report.startedAt), 'meta-date'],
    ['Duration', `${durationSeconds(report.startedAt, report.endedAt).toFixed(1)} s`, 'meta-duration'],
    ['Requests sent', String(report.requestsSent), 'meta-requests'],
    ['Suite version', report.suiteVersion, 'meta-suite'],
    ['Spec SHA-256', report.specSha256, 'meta-spec'],
  ];
  return `<header class="card banner v-${tone}" data-testid="banner" data-outcome="${a(report.outcome)}" data-headline="${a(h)}">
<div class="seal" aria-hidden="true"><svg viewBox="0 0 48 48"><circle cx="24" cy="24" r="21"/>${ICON[tone]}</svg></div>
<div>
<div class="eyebrow">Animal Store API · ${report.kind === 'certification' ? 'certification' : 'conformance'} report</div>
<h1 class="verdict" data-testid="verdict">${e(h)}</h1>
<p class="verdict-sub">${e(sub)}</p>
${report.abort ? `<p class="reason" data-testid="abort-reason"><b>Reason:</b> ${e(report.abort)}</p>` : ''}
${flags.length ? `<div class="flags">${flags.join('')}</div>` : ''}
${failedList(report)}
<dl class="meta">${meta.map(([k, v, id]) => `<div${id === 'meta-spec' ? ' class="span2"' : ''}><dt>${e(k)}</dt><dd${id === 'meta-spec' ? ' class="mono"' : ''} data-testid="${id}">${e(v)}</dd></div>`).join('')}</dl>
</div>
</header>`;
}

function failedList(report: RunReport): string {
  const musts = failedMusts(report);
  if (!musts.length) return '';
  const shown = musts.slice(0, 12).map((r) => `<li><a href="#req-${a(r.id)}">${e(r.id)}</a></li>`);
  if (musts.length > 12) shown.push(`<li>… and ${musts.length - 12} more</li>`);
  return `<ul class="failed-list" data-testid="failed-musts" aria-label="Failed MUST requirements">${shown.join('')}</ul>`;
}

const LABEL: Record<Status, string> = {
  pass: 'Passed',
  fail: 'Failed',
  warn: 'Warnings',
  skip: 'Not exercised',
  waived: 'Waived',
  observed: 'Observed',
};

export function counts(report: RunReport): string {
  const total = report.requirements.length || 1;
  const order: Status[] = ['pass', 'fail', 'warn', 'waived', 'skip', 'observed'];
  const fill: Record<Status, string> = {
    pass: '#2da44e',
    fail: '#cf222e',
    warn: '#d4a72c',
    waived: '#8250df',
    skip: '#afb8c1',
    observed: '#54aeff',
  };
  let x = 0;
  const bars = order.map((s) => {
    const w = ((report.counts[s] ?? 0) / total) * 1000;
    const r = w ? `<rect x="${x.toFixed(1)}" width="${w.toFixed(1)}" height="6" fill="${fill[s]}"/>` : '';
    x += w;
    return r;
  });
  const cells = order.map(
    (s) => `<div class="count c-${s}" data-testid="count-${s}"><b>${report.counts[s] ?? 0}</b><span>${LABEL[s]}</span></div>`,
  );
  return `<section class="card counts" data-testid="counts" aria-label="Requirement counts">
<div class="count"><b>${report.requirements.length}</b><span>Requirements</span></div>${cells.join('')}
<svg class="ratio" viewBox="0 0 1000 6" preserveAspectRatio="none" aria-hidden="true">${bars.join('')}</svg>
</section>`;
}

export function filters(report: RunReport): string {
  const n = (s: Status) => report.counts[s] ?? 0;
  const chip = (name: string, value: string, label: string) =>
    `<label class="chip"><input type="checkbox" name="${name}" value="${a(value)}" checked data-testid="filter-${name}-${a(value)}">${e(label)}</label>`;
  return `<form class="card filters no-print" id="filters" data-testid="filters" role="search">
<fieldset><legend>Status</legend>${STATUSES.map((s) => chip('status', s, `${s} (${n(s)})`)).join('')}</fieldset>
<fieldset><legend>Level</legend>${LEVELS.map((l) => chip('level', l, l)).join('')}</fieldset>
<input type="search" id="filter-text" data-testid="filter-text" placeholder="Search id, title, message…" aria-label="Search requirements">
<button type="button" id="filter-reset">Reset</button>
<button type="button" id="expand-all">Expand evidence</button>
<button type="button" id="collapse-all">Collapse</button>
<span class="shown" id="filter-shown" data-testid="filter-shown" aria-live="polite"></span>
</form>`;
}

function http(x: HttpExcerpt, kind: 'request' | 'response'): string {
  const first =
    kind === 'request'
      ? `<span class="sl">${e(x.method ?? '?')} ${e(x.url ?? '')}</span>`
      : `<span class="sl${x.status !== undefined && x.status >= 400 ? ' bad' : ''}">HTTP ${e(x.status ?? '(no status)')}</span>${x.url ? ` ${e(x.url)}` : ''}`;
  const headers = Object.entries(x.headers ?? {}).map(([k, v]) => `<span class="hn">${e(k)}</span>: ${e(v)}`);
  const body =
    x.body !== undefined && x.body !== ''
      ? `\n\n${e(x.body)}${x.bodyTruncated ? '\n<span class="trunc">… (body truncated)</span>' : ''}`
      : '';
  return `<pre class="http" data-testid="evidence-${kind}">${[first, ...headers].join('\n')}${body}</pre>`;
}

function evidenceBody(ev: Evidence | undefined): string {
  if (!ev) return '<p class="wide">No request/response excerpt was recorded for this finding.</p>';
  const exp: string[] = [];
  if (ev.expected !== undefined) exp.push(`<dt>Expected</dt><dd data-testid="evidence-expected">${e(ev.expected)}</dd>`);
  if (ev.actual !== undefined) exp.push(`<dt>Actual</dt><dd data-testid="evidence-actual">${e(ev.actual)}</dd>`);
  if (ev.error !== undefined) exp.push(`<dt>Error</dt><dd data-testid="evidence-error">${e(ev.error)}</dd>`);
  const parts: string[] = [];
  if (exp.length) parts.push(`<dl class="exp wide">${exp.join('')}</dl>`);
  if (ev.request) parts.push(`<div><h4>Request</h4>${http(ev.request, 'request')}</div>`);
  if (ev.response) parts.push(`<div><h4>Response</h4>${http(ev.response, 'response')}</div>`);
  return parts.join('\n');
}

function evidence(f: Finding, open: boolean): string {
  return `<details class="evidence" data-testid="evidence" data-outcome="${a(f.outcome)}"${open ? ' open' : ''}>
<summary><span class="pill st-${f.outcome === 'observe' ? 'skip' : a(f.outcome)}">${e(f.outcome)}</span> ${e(f.title)}</summary>
<div class="ev"><p class="wide why">${e(f.message)}</p>
${evidenceBody(f.evidence)}</div>
<div class="src">Source: ${e(f.source)}${f.at ? ` · ${e(f.at)}` : ''}</div>
</details>`;
}

function requirement(r: RequirementResult): string {
  const n = r.counts.pass;
  const checks = r.status === 'pass' && n ? ` · <span class="checks">${n} check${n === 1 ? '' : 's'} passed</span>` : '';
  const body: string[] = [`<p class="spec">§ ${e(r.section)} — <q>${e(r.quote)}</q>${checks}</p>`];
  const shown = r.findings.filter((f) => f.outcome === 'fail' || f.outcome === 'warn');
  if ((r.status === 'skip' || r.status === 'fail' || r.status === 'warn') && !shown.length)
    body.push(`<p class="why" data-testid="reason">${e(reasonOf(r))}</p>`);
  if (r.waiver)
    body.push(
      `<p class="waiver" data-testid="waiver"><b>Waived</b> until <b data-testid="waiver-expires">${e(r.waiver.expires)}</b>: <span data-testid="waiver-reason">${e(r.waiver.reason)}</span></p>`,
    );
  if (r.observations.length)
    body.push(`<ul class="obs" data-testid="observations">${r.observations.map((o) => `<li>${e(o)}</li>`).join('')}</ul>`);
  for (const f of shown) body.push(evidence(f, r.status === 'fail' && f.outcome === 'fail'));
  return `<article class="req s-${a(r.status)}" data-testid="requirement" data-requirement="${a(r.id)}" data-status="${a(r.status)}" data-level="${a(r.level)}" id="req-${a(r.id)}">
<div class="req-head"><span class="pill st-${a(r.status)}" data-testid="status">${e(r.status)}</span><span class="pill lv lv-${a(r.level)}" data-testid="level">${e(r.level)}</span><code class="req-id">${e(r.id)}</code><span class="req-title">${e(r.title)}</span></div>
<div class="req-body">${body.join('\n')}</div>
</article>`;
}

export function requirements(report: RunReport): string {
  const groups = groupByArea(report.requirements).map(({ area, requirements: reqs }) => {
    const tally = STATUSES.map((s) => [s, reqs.filter((r) => r.status === s).length] as const)
      .filter(([, n]) => n)
      .map(([s, n]) => `${n} ${s}`)
      .join(' · ');
    return `<section class="card area" data-testid="area" data-area="${a(area)}">
<header><h2>${e(areaTitle(area))}</h2><span class="area-tally">${e(tally)}</span></header>
${reqs.map(requirement).join('\n')}
</section>`;
  });
  return `<section aria-label="Requirements"><h2 class="section">Requirements</h2>
${filters(report)}
<p class="card empty" id="filter-empty" data-testid="filter-empty" hidden>No requirement matches the filter.</p>
${groups.join('\n')}
</section>`;
}

function loadRun(run: LoadRun): string {
  const rows = run.verdicts.map(
    (v) =>
      `<tr data-testid="load-verdict" data-verdict-requirement="${a(v.requirement)}" data-status="${a(v.outcome)}"><td><span class="pill st-${a(v.outcome)}">${e(v.outcome)}</span></td><td><code>${e(v.requirement)}</code></td><td>${e(v.title)}${v.message ? ` — ${e(v.message)}` : ''}</td></tr>`,
  );
  return `<section class="card load" data-testid="load-run" data-scenario="${a(run.scenario)}" data-status="${a(run.verdict)}">
<h3>Scenario <code>${e(run.scenario)}</code> <span class="pill st-${a(run.verdict)}">${e(run.verdict)}</span></h3>
<p class="sub">${e(run.engine)} engine · plan ${e(run.plan)} · ${e(run.requestsSent)} requests · ${e(dateTimeOf(run.startedAt))} · ${durationSeconds(run.startedAt, run.endedAt).toFixed(1)} s</p>
${renderChart(run)}
${run.stoppedBecause || run.notes.length ? `<ul class="obs" data-testid="load-notes">${run.stoppedBecause ? `<li>Stopped: ${e(run.stoppedBecause)}</li>` : ''}${run.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>` : ''}
${rows.length ? `<table class="lv-table"><thead><tr><th>Outcome</th><th>Requirement</th><th>Verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : ''}
</section>`;
}

export function load(report: RunReport): string {
  const runs = loadRuns(report.load);
  if (!runs.length) return '';
  return `<section aria-label="Load scenarios" data-testid="load"><h2 class="section">Rate limits under load</h2>
${runs.map(loadRun).join('\n')}
</section>`;
}

export function notes(report: RunReport): string {
  const items = report.notes.map((n) => `<li>${e(n)}</li>`);
  if (report.interrupted && !report.abort) items.unshift('<li>The run was interrupted before every test ran.</li>');
  return `<section class="card notes" data-testid="notes"><h2>Notes</h2>
${items.length ? `<ul>${items.join('')}</ul>` : '<p>No notes.</p>'}
</section>`;
}
