/**
 * The evidence of a finding or a load judgement in index.html: expected and
 * actual, the request and the response (status line, headers, body — a long
 * body shows its beginning and opens in full on demand, never cut by a
 * fixed-height box), where in a load scenario it happened, and a replayable
 * curl line with a copy button. Every value is escaped: it comes from the server.
 */
import type { Judgement } from '../../core/sections/define.ts';
import type { Evidence, HttpExcerpt, Replay } from '../types.ts';
import { curlOf } from './curl.ts';
import { html, joinHtml, type SafeHtml } from './html-safe.ts';
import { replayLines } from './replay.ts';
import { seconds } from './html-chart-axis.ts';

/** A body longer than this (characters or lines) shows a preview and opens in full on demand. */
export const BODY_PREVIEW_CHARS = 600;
const BODY_PREVIEW_LINES = 12;

function preview(body: string): string | undefined {
  const lines = body.split('\n');
  if (body.length <= BODY_PREVIEW_CHARS && lines.length <= BODY_PREVIEW_LINES) return undefined;
  return lines.slice(0, BODY_PREVIEW_LINES).join('\n').slice(0, BODY_PREVIEW_CHARS);
}

function body(x: HttpExcerpt, kind: string): SafeHtml {
  if (x.body === undefined || x.body === '') return html``;
  const cut = x.bodyTruncated ? html`\n<span class="trunc">… (the suite kept only the first ${x.body.length} characters)</span>` : '';
  const short = preview(x.body);
  if (short === undefined) return html`<pre class="http body" data-testid="evidence-${kind}-body">${x.body}${cut}</pre>`;
  return html`<pre class="http body preview">${short}<span class="trunc">…</span></pre>
<details class="full-body" data-testid="full-body"><summary>${x.bodyTruncated ? `Show the ${kind} body as kept (its first ${x.body.length} characters)` : `Show the whole ${kind} body (${x.body.length} characters)`}</summary><pre class="http body" data-testid="evidence-${kind}-body">${x.body}${cut}</pre></details>`;
}

function http(x: HttpExcerpt, kind: 'request' | 'response'): SafeHtml {
  const first =
    kind === 'request'
      ? html`<span class="sl">${x.method ?? 'GET'} ${x.url ?? '(URL not recorded)'}</span>`
      : html`<span class="sl${x.status !== undefined && x.status >= 400 ? ' bad' : ''}">HTTP ${x.status ?? '(no status)'}</span>${x.url ? html` ${x.url}` : ''}`;
  const headers = Object.entries(x.headers ?? {}).map(([k, v]) => html`<span class="hn">${k}</span>: ${v}`);
  return html`<div class="msg" data-testid="evidence-${kind}"><pre class="http head">${joinHtml([first, ...headers], '\n')}</pre>${body(x, kind)}</div>`;
}

/** The curl line of a piece of evidence and its copy button (the button works with the page's script). */
export function curlBlock(ev: Evidence | undefined, keyVariable?: string, requirement?: string): SafeHtml {
  const curl = curlOf(ev, keyVariable, requirement);
  if (!curl) return html``;
  return html`<div class="curl wide" data-testid="curl"><code data-testid="curl-line">${curl}</code><button type="button" class="copy" data-testid="copy-curl" aria-label="Copy the curl command">Copy as curl</button></div>`;
}

/** The scenario a load judgement belongs to: the anchor of its chart, and the time of the request on its timeline. */
export interface ChartLink {
  href: string;
  /** Milliseconds since the scenario started, from the timeline point of the request (when the timeline kept it). */
  t?: number;
}

/** Request, response, expected/actual, position in a load scenario and the curl line. */
export function evidenceBody(ev: Evidence | undefined, chart?: ChartLink, keyVariable?: string, requirement?: string): SafeHtml {
  if (!ev) return html`<p class="wide muted">No request/response excerpt was recorded for this finding.</p>`;
  const exp: SafeHtml[] = [];
  if (ev.at) {
    const where = `request #${ev.at.request}, ${seconds(chart?.t ?? ev.at.ms)} after the scenario started`;
    const link = chart ? html` — <a href="${chart.href}">marked on the chart</a>` : '';
    exp.push(html`<dt>When</dt><dd data-testid="evidence-at">${where}${link}</dd>`);
  }
  if (ev.expected !== undefined) exp.push(html`<dt>Expected</dt><dd data-testid="evidence-expected">${ev.expected}</dd>`);
  if (ev.actual !== undefined) exp.push(html`<dt>Actual</dt><dd data-testid="evidence-actual">${ev.actual}</dd>`);
  if (ev.error !== undefined) exp.push(html`<dt>Error</dt><dd data-testid="evidence-error">${ev.error}</dd>`);
  const parts: SafeHtml[] = [];
  if (exp.length) parts.push(html`<dl class="exp wide">${exp}</dl>`);
  if (ev.request) parts.push(html`<div><h5>Request</h5>${http(ev.request, 'request')}</div>`);
  if (ev.response) parts.push(html`<div><h5>Response</h5>${http(ev.response, 'response')}</div>`);
  parts.push(curlBlock(ev, keyVariable, requirement));
  return joinHtml(parts, '\n');
}

const PILL: Record<string, string> = { observe: 'observed', error: 'suite error' };

/** A finding or judgement with its evidence, in a <details> (open for a failure); its curl line reads the key from `keyVariable`. */
export function evidenceDetails(
  j: Judgement & { source?: string; at?: string; replay?: Replay },
  open: boolean,
  chart?: ChartLink,
  keyVariable?: string,
): SafeHtml {
  const src = j.source ? html`<div class="src">Source: ${j.source}${j.at ? html` · ${j.at}` : ''}</div>` : '';
  const remedy = j.remedy ? html`<p class="wide remedy">To exercise it: ${j.remedy}</p>` : '';
  const lines = replayLines(j.replay, keyVariable);
  const replay = lines.length ? html`<ul class="wide replay" data-testid="replay">${lines.map((l) => html`<li>${l}</li>`)}</ul>` : '';
  return html`<details class="evidence" data-testid="evidence" data-outcome="${j.outcome}"${open && ' open'}>
<summary><span class="pill st-${j.outcome}">${PILL[j.outcome] ?? j.outcome}</span> ${j.title}</summary>
<div class="ev"><p class="wide why">${j.message}</p>${remedy}${replay}
${evidenceBody(j.evidence, chart, keyVariable, j.requirement)}</div>
${src}</details>`;
}
