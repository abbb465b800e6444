/**
 * The text of summary.md, safe for a pull-request comment: escaped Markdown on one line (no HTML, links, tables or
 * @-mentions a server's text could inject), inline code, and fenced blocks longer than any backtick run inside them.
 */
import { visible } from '../../core/visible.ts';
import { oneLine, stripInvalidXml } from './common.ts';

/** Escape Markdown and inline HTML; keep the text on one line. */
export function escapeMarkdown(s: string, max = 200): string {
  return oneLine(withoutControls(s), max)
    .replace(/[\\`*_{}[\]()#+!|~>]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@/g, '&#64;')
    .replace(/:\/\//g, '&#58;//');
}

/** Inline code span that survives backticks in the value. */
export function code(s: string): string {
  return `\`${oneLine(s, 200).replace(/`/g, "'")}\``;
}

/** Text with its control, invisible and reordering characters made visible (\u escapes), nothing XML would refuse. */
function withoutControls(s: string): string {
  return stripInvalidXml(visible(s));
}

/** A fenced code block, indented for a list item; the fence is longer than any backtick run of the text. */
export function fenced(text: string, lang: string, indent = '  '): string[] {
  const clean = withoutControls(text);
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${indent}${fence}${lang}`, ...clean.split(/\r?\n/).map((l) => `${indent}${l}`), `${indent}${fence}`];
}
