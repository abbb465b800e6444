/**
 * index.html: ONE self-contained file (inline CSS, a little inline JS, inline
 * SVG; no external asset, no network) that opens from disk and as a CI
 * artifact. Its stylesheet and script are real files (assets/), read and
 * inlined when the report is written (html-assets.ts). A Content-Security-Policy allowing only this page's own style and
 * script (by hash) makes injected markup inert even if an escape were missed.
 *
 * Order: the outcome banner, what is new since the last run, the plan matrix
 * (a run over several plans), the counts, the causes (each once, with every
 * requirement it breaks and one reproduction), the suite's own errors, the MUSTs not
 * exercised, the requirements failures first (each pointing to its causes), the rate-limit scenarios per
 * plan, the run's traffic (a link to traffic.har beside the page: the one href
 * that is not an anchor of the page), the notes.
 */
import type { RunReport } from '../types.ts';
import { suiteLabel } from '../meta.ts';
import { headline } from './common.ts';
import { banner, comparison, counts, notExercised, suiteErrors } from './html-banner.ts';
import { causes } from './html-causes.ts';
import { load } from './html-load.ts';
import { planMatrix } from './html-plans.ts';
import { requirements } from './html-requirements.ts';
import { readPageAssets } from './html-assets.ts';
import { html, raw, type SafeHtml } from './html-safe.ts';

export function notes(report: RunReport): SafeHtml {
  const items = report.notes.map((n) => html`<li>${n}</li>`);
  if (report.interrupted && !report.abort) items.unshift(html`<li>The run was interrupted before every test ran.</li>`);
  return html`<section class="card notes" data-testid="notes"><h2>Notes</h2>
${items.length ? html`<ul>${items}</ul>` : html`<p>No notes.</p>`}
</section>`;
}

/** The link to the run's HAR, a sibling file of the page in its run folder and at the top of reports/. */
export function traffic(report: RunReport): SafeHtml {
  const t = report.traffic;
  if (!t) return html``;
  const n = (x: number) => x.toLocaleString('en-US');
  const left = t.omitted ? `; ${n(t.omitted)} more past its cap are not listed` : '';
  return html`<section class="card notes" data-testid="traffic"><h2>Traffic</h2>
<p><a href="${t.file}" data-testid="traffic-link">${t.file}</a> (HAR 1.2): every request and response of the conformance specs and the exploration phase, ${n(t.entries)} on ${n(t.pages)} pages${left}, each tagged with the requirements judged on it (<code>_requirements</code>). Open it in the browser's network panel (import a HAR), Insomnia, Postman or har-to-k6. The key is redacted; cut bodies are marked <code>_truncated</code>; the rate-limit scenarios are only summarised in it.</p>
</section>`;
}

export function renderHtml(report: RunReport): string {
  const title = `${headline(report)} · Animal Store ${report.kind} · ${report.target.baseUrl}`;
  const assets = readPageAssets();
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${assets.csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>${title}</title>
<style>${raw(assets.css)}</style>
</head>
<body>
<main>
${banner(report)}
${comparison(report)}
${planMatrix(report)}
${counts(report)}
${causes(report)}
${suiteErrors(report)}
${notExercised(report)}
${requirements(report)}
${load(report)}
${traffic(report)}
${notes(report)}
<footer data-testid="footer">Animal Store conformance suite ${suiteLabel(report)} · spec sha256 ${report.specSha256} · run ${report.startedAt} – ${report.endedAt}</footer>
</main>
<script>${raw(assets.script)}</script>
</body>
</html>
`.toString();
}
