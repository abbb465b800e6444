/**
 * A replayable curl line for a piece of evidence: method, URL, the request's
 * headers and body, with the key written as `$ANIMAL_STORE_API_KEY` (never its
 * value; in a run over several plans, the variable of the key that sent it). A credential the suite made up (a near-miss key, another scheme) is
 * not the user's key: it stays redacted, and a trailing comment says so (after
 * the URL, so that the line still runs when pasted).
 */
import { dependsOnEarlierRequests } from '../../core/catalogue.ts';
import { isInvisible, visible } from '../../core/visible.ts';
import type { Evidence } from '../types.ts';

/**
 * Quote for a shell: single quotes; a value holding a character a reader cannot see (visible.ts) in bash's $'…' form,
 * each such character as its \u or \U escape — exact when pasted, and visible (a bidi override cannot reorder the line).
 */
export function shellQuote(s: string): string {
  if (visible(s) === s) return `'${s.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (!isInvisible(cp)) out += ch;
    else
      out += cp > 0xffff ? `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `$'${out}'`;
}

const SKIPPED_HEADERS = ['content-length', 'host', 'connection', 'transfer-encoding'];

/** The variable the key of a single-plan run is read from. */
export const KEY_VARIABLE = 'ANIMAL_STORE_API_KEY';

/** `requirement`: the requirement the evidence is for — a rate-limit one gets a note that the line alone may not reproduce it. */
export function curlOf(ev: Evidence | undefined, keyVariable = KEY_VARIABLE, requirement?: string): string | undefined {
  const r = ev?.request;
  if (!r || !r.url) return undefined;
  const parts = ['curl', '-i'];
  const notes: string[] = [];
  if (r.method && r.method !== 'GET') parts.push('-X', shellQuote(r.method));
  if (r.credential === 'key') parts.push('-H', `"Authorization: Bearer $${keyVariable}"`);
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    const name = k.toLowerCase();
    if (SKIPPED_HEADERS.includes(name)) continue;
    if (name === 'authorization') {
      if (r.credential === 'key' || r.credential === 'none') continue;
      parts.push('-H', shellQuote(`${k}: ${v}`));
      notes.push('the Authorization value is a credential the suite made up, redacted');
      continue;
    }
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (r.body !== undefined && r.body !== '') {
    parts.push('--data-raw', shellQuote(r.body));
    if (r.bodyTruncated) notes.push('the request body was cut to its first bytes');
  }
  parts.push(shellQuote(r.url));
  if (requirement && dependsOnEarlierRequests(requirement))
    notes.push('alone it may not reproduce this: a rate-limit answer depends on the requests sent on the key before it');
  return notes.length ? `${parts.join(' ')}  # ${notes.join('; ').replace(/[\r\n]+/g, ' ')}` : parts.join(' ');
}
