/**
 * Fault modes of a request's surface that only the exploration's generated forms reach: header fields real clients
 * send (Accept-Language with q-values, a scripted client's User-Agent), the query's percent-encoding and empty pairs,
 * the JSON text's escapes and declared charset, a status one letter off, a name cut by its UTF-8 bytes. Each shows for
 * some ordinary members of a class only.
 */
import type { Has } from './faults.ts';
import type { ErrorFactory } from './errors.ts';
import type { Reply } from './reply.ts';
import { PET_STATUSES } from './pet-store.ts';

/** Faults accept-language-500 and user-agent-403: a request answered by its headers alone. */
export function headerFault(header: (name: string) => string | undefined, has: Has, error: ErrorFactory): Reply | undefined {
  if (has('accept-language-500') && /;\s*q=/i.test(header('accept-language') ?? ''))
    return error('internal_error', 'cannot parse Accept-Language');
  if (has('user-agent-403') && /curl\/|python-requests|Go-http-client/i.test(header('user-agent') ?? ''))
    return {
      status: 403,
      headers: {},
      body: JSON.stringify({ code: 'forbidden', message: 'Automated clients are not allowed.', status: 403 }),
    };
  return undefined;
}

/** Fault query-lowercase-hex-ignored: the query read with only upper-case %XX decoded (the others left as they are). */
export function upperHexOnly(url: URL): void {
  const decode = (s: string) => s.replace(/%([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const q = new URLSearchParams();
  for (const pair of url.search.slice(1).split('&').filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    q.append(decode(k), decode(v));
  }
  url.search = q.toString();
}

/** Fault escape-upper-hex-400 / escaped-solidus-400: the escapes of a body's text a hand-written reader refuses. */
export function escapeFault(text: string, has: Has, error: ErrorFactory): Reply | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\') continue;
    const next = text[i + 1];
    if (has('escaped-solidus-400') && next === '/') return error('invalid_body', 'invalid escape \\/');
    if (has('escape-upper-hex-400') && next === 'u' && /[A-F]/.test(text.slice(i + 2, i + 6)))
      return error('invalid_body', `invalid escape ${text.slice(i, i + 6)}`);
    i++;
  }
  return undefined;
}

/** Fault charset-latin1: the body read in the charset its Content-Type names, unless that is exactly utf-8. */
export function declaredCharset(text: string, contentType: string | undefined, has: Has): string {
  const charset = /;\s*charset\s*=\s*([^;\s]+)/i.exec(contentType ?? '')?.[1];
  return has('charset-latin1') && charset !== undefined && charset !== 'utf-8' ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/** Fault status-one-typo-accepted: the valid status one ASCII letter (a substitution) away from `v`, if there is one. */
export function typoStatus(v: unknown): string | undefined {
  if (typeof v !== 'string' || !/^[a-z]+$/i.test(v)) return undefined;
  return PET_STATUSES.find((s) => s.length === v.length && [...s].filter((c, i) => c !== v[i]).length === 1);
}

/** Fault name-cut-utf8-255: `name` cut to at most `bytes` UTF-8 bytes, at a code point boundary. */
export function cutUtf8(name: string, bytes: number): string {
  let out = '';
  let n = 0;
  for (const ch of name) {
    n += Buffer.byteLength(ch, 'utf8');
    if (n > bytes) break;
    out += ch;
  }
  return out;
}
