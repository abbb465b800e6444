/**
 * The page's own stylesheet and script: real files (assets/report.css, assets/report.js), formatted and linted like
 * the rest, read when a report is written and inlined into it, so that index.html stays one self-contained file. The
 * page's Content-Security-Policy allows exactly these two, by their hashes, and nothing else.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface PageAssets {
  css: string;
  script: string;
  /** The Content-Security-Policy of a page holding them. */
  csp: string;
}

/** An asset as the page inlines it; one that would close its own element early (`</style`, `</script`) is refused. */
function asset(file: string, element: 'style' | 'script'): string {
  const text = readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');
  if (text.toLowerCase().includes(`</${element}`)) throw new Error(`assets/${file} holds "</${element}": it cannot be inlined`);
  return text;
}

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** The stylesheet and the script, read now, and the policy that allows them. */
export function readPageAssets(): PageAssets {
  const css = asset('report.css', 'style');
  const script = asset('report.js', 'script');
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(css)}`,
    `script-src ${sha256(script)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { css, script, csp };
}
