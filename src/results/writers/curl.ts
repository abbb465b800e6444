/**
 * A replayable curl line for a piece of evidence: method, URL, the request's
 * headers and body, with the key written as `$ANIMAL_STORE_API_KEY` (never its
 * value). A credential the suite made up (a near-miss key, another scheme) is
 * not the user's key: it stays redacted and the line says so.
 */
import type { Evidence } from '../types.ts';

/** Quote for a POSIX shell (single quotes). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlOf(ev: Evidence | undefined): string | undefined {
  const r = ev?.request;
  if (!r || !r.url) return undefined;
  const parts = ['curl', '-i'];
  if (r.method && r.method !== 'GET') parts.push('-X', r.method);
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    if (k === 'authorization') {
      if (r.credential === 'key') parts.push('-H', '"Authorization: Bearer $ANIMAL_STORE_API_KEY"');
      else if (r.credential !== 'none') parts.push('-H', shellQuote(`Authorization: ${v}`), '# a credential the suite made up, redacted');
      continue;
    }
    if (k === 'content-length' || k === 'host') continue;
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (r.body !== undefined && r.body !== '') parts.push('--data-raw', shellQuote(r.body));
  parts.push(shellQuote(r.url));
  return parts.join(' ');
}
