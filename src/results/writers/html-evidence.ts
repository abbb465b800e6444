/**
 * The evidence of a finding or a load judgement in index.html: expected and
 * actual, the request and the response (status line, headers, body — a long
 * body shows its beginning and opens in full on demand, never cut by a
 * fixed-height box), where in a load scenario it happened, and a replayable
 * curl line with a copy button. Every value is escaped: it comes from the server.
 */
import type { Judgement } from '../../core/judgement.ts';
import type { Evidence, HttpExcerpt, Replay } from '../types.ts';
import { escapeAttr as a, escapeXml as e } from './common.ts';
import { curlOf } from './curl.ts';
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

function body(x: HttpExcerpt, kind: string): string {
  if (x.body === undefined || x.body === '') return '';
  const cut = x.bodyTruncated ? `<span class="trunc">… (the suite kept only the first ${x.body.length} characters)</span>` : '';
  const short = preview(x.body);
  if (short === undefined) return `<pre class="http body" data-testid="evidence-${kind}-body">${e(x.body)}${cut ? `\n${cut}` : ''}</pre>`;
  return `<pre class="http body preview">${e(short)}<span class="trunc">…</span></pre>
<details class="full-body" data-testid="full-body"><summary>Show the whole ${kind} body (${x.body.length} characters)</summary><pre class="http body" data-testid="evidence-${kind}-body">${e(x.body)}${cut ? `\n${cut}` : ''}</pre></details>`;
}

function http(x: HttpExcerpt, kind: 'request' | 'response'): string {
  const first =
    kind === 'request'
      ? `<span class="sl">${e(x.method ?? 'GET')} ${e(x.url ?? '(URL not recorded)')}</span>`
      : `<span class="sl${x.status !== undefined && x.status >= 400 ? ' bad' : ''}">HTTP ${e(x.status ?? '(no status)')}</span>${x.url ? ` ${e(x.url)}` : ''}`;
  const headers = Object.entries(x.headers ?? {}).map(([k, v]) => `<span class="hn">${e(k)}</span>: ${e(v)}`);
  return `<div class="msg" data-testid="evidence-${kind}"><pre class="http head">${[first, ...headers].join('\n')}</pre>${body(x, kind)}</div>`;
}

/** The curl line of a piece of evidence and its copy button (the button works with the page's script). */
export function curlBlock(ev: Evidence | undefined, keyVariable?: string): string {
  const curl = curlOf(ev, keyVariable);
  if (!curl) return '';
  return `<div class="curl wide" data-testid="curl"><code data-testid="curl-line">${e(curl)}</code><button type="button" class="copy" data-testid="copy-curl" aria-label="Copy the curl command">Copy as curl</button></div>`;
}

/** The scenario a load judgement belongs to: the anchor of its chart, and the time of the request on its timeline. */
export interface ChartLink {
  href: string;
  /** Milliseconds since the scenario started, from the timeline point of the request (when the timeline kept it). */
  t?: number;
}

/** Request, response, expected/actual, position in a load scenario and the curl line. */
export function evidenceBody(ev: Evidence | undefined, chart?: ChartLink, keyVariable?: string): string {
  if (!ev) return '<p class="wide muted">No request/response excerpt was recorded for this finding.</p>';
  const exp: string[] = [];
  if (ev.at) {
    const where = `request #${ev.at.request}, ${seconds(chart?.t ?? ev.at.ms)} after the scenario started`;
    const link = chart ? ` — <a href="${a(chart.href)}">marked on the chart</a>` : '';
    exp.push(`<dt>When</dt><dd data-testid="evidence-at">${e(where)}${link}</dd>`);
  }
  if (ev.expected !== undefined) exp.push(`<dt>Expected</dt><dd data-testid="evidence-expected">${e(ev.expected)}</dd>`);
  if (ev.actual !== undefined) exp.push(`<dt>Actual</dt><dd data-testid="evidence-actual">${e(ev.actual)}</dd>`);
  if (ev.error !== undefined) exp.push(`<dt>Error</dt><dd data-testid="evidence-error">${e(ev.error)}</dd>`);
  const parts: string[] = [];
  if (exp.length) parts.push(`<dl class="exp wide">${exp.join('')}</dl>`);
  if (ev.request) parts.push(`<div><h5>Request</h5>${http(ev.request, 'request')}</div>`);
  if (ev.response) parts.push(`<div><h5>Response</h5>${http(ev.response, 'response')}</div>`);
  parts.push(curlBlock(ev, keyVariable));
  return parts.join('\n');
}

const PILL: Record<string, string> = { observe: 'observed', error: 'suite error' };

/** A finding or judgement with its evidence, in a <details> (open for a failure); its curl line reads the key from `keyVariable`. */
export function evidenceDetails(
  j: Judgement & { source?: string; at?: string; replay?: Replay },
  open: boolean,
  chart?: ChartLink,
  keyVariable?: string,
): string {
  const src = j.source ? `<div class="src">Source: ${e(j.source)}${j.at ? ` · ${e(j.at)}` : ''}</div>` : '';
  const remedy = j.remedy ? `<p class="wide remedy">To exercise it: ${e(j.remedy)}</p>` : '';
  const lines = replayLines(j.replay, keyVariable);
  const replay = lines.length ? `<ul class="wide replay" data-testid="replay">${lines.map((l) => `<li>${e(l)}</li>`).join('')}</ul>` : '';
  return `<details class="evidence" data-testid="evidence" data-outcome="${a(j.outcome)}"${open ? ' open' : ''}>
<summary><span class="pill st-${a(j.outcome)}">${e(PILL[j.outcome] ?? j.outcome)}</span> ${e(j.title)}</summary>
<div class="ev"><p class="wide why">${e(j.message)}</p>${remedy}${replay}
${evidenceBody(j.evidence, chart, keyVariable)}</div>
${src}</details>`;
}
