/**
 * index.html: ONE self-contained file (inline CSS, a little inline JS, inline
 * SVG; no external asset, no network) that opens from disk and as a CI
 * artifact. A Content-Security-Policy allowing only this page's own style and
 * script (by hash) makes injected markup inert even if an escape were missed.
 */
import { createHash } from 'node:crypto';
import type { RunReport } from '../types.ts';
import { escapeAttr, escapeXml, headline } from './common.ts';
import { CSS } from './html-css.ts';
import { SCRIPT } from './html-script.ts';
import { banner, counts, load, notes, requirements } from './html-sections.ts';

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

export const CSP = [
  "default-src 'none'",
  `style-src ${sha256(CSS)}`,
  `script-src ${sha256(SCRIPT)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function renderHtml(report: RunReport): string {
  const h = headline(report);
  const title = `${h} · Animal Store ${report.kind} · ${report.target.baseUrl}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>${escapeXml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${banner(report)}
${counts(report)}
${requirements(report)}
${load(report)}
${notes(report)}
<footer data-testid="footer">Animal Store conformance suite ${escapeXml(report.suiteVersion)} · spec sha256 ${escapeXml(report.specSha256)} · run ${escapeXml(report.startedAt)} – ${escapeXml(report.endedAt)}</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
