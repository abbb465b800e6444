/**
 * Evidence excerpts: the redacted request and response of an exchange, with
 * the body cut to a few kilobytes. The API key is replaced wherever it occurs.
 */
import type { Evidence, HttpExcerpt } from '../core/sections/define.ts';
import type { ApiExchange } from '../http/client.ts';

const BODY_EXCERPT = 2048;
const HEADER_EXCERPT = 512;

function cut(s: string, n: number): { text: string; truncated: boolean } {
  return s.length > n ? { text: s.slice(0, n), truncated: true } : { text: s, truncated: false };
}

function cleanHeaders(h: Record<string, string> | undefined, redact: (s: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    const name = k.toLowerCase();
    out[redact(name)] = name === 'authorization' ? redactAuthorization(v, redact) : redact(cut(v, HEADER_EXCERPT).text);
  }
  return out;
}

/** Keep the scheme, hide the credential (even an invalid one the suite made up). */
export function redactAuthorization(v: string, redact: (s: string) => string): string {
  const m = /^(\S+)(\s+)(.*)$/.exec(v);
  if (!m) return v === '' ? '' : '[REDACTED]';
  return `${redact(m[1])} ${m[3] === '' ? '' : '[REDACTED]'}`;
}

/** Which credential a request carried: the configured key (in any spelling), none, or one the suite made up. */
function credentialOf(auth: ApiExchange['api']['auth']): HttpExcerpt['credential'] {
  if (auth === undefined || auth === 'valid' || (typeof auth === 'object' && 'spelled' in auth)) return 'key';
  return auth === 'none' ? 'none' : 'other';
}

export function excerpt(ex: ApiExchange, redact: (s: string) => string, extra: Partial<Evidence> = {}): Evidence {
  const request: HttpExcerpt = {
    method: ex.request.method,
    url: redact(ex.request.url),
    headers: cleanHeaders(ex.request.headers, redact),
    credential: credentialOf(ex.api.auth),
  };
  const auth = ex.api.auth;
  if (typeof auth === 'object' && 'spelled' in auth) request.keySpelling = auth.spelled;
  if (ex.request.body !== undefined) {
    const b = cut(ex.request.body, BODY_EXCERPT);
    request.body = redact(b.text);
    request.bodyTruncated = b.truncated;
  }
  const ev: Evidence = { request, ...extra };
  if (ex.response) {
    const b = cut(ex.response.bodyText, BODY_EXCERPT);
    ev.response = {
      status: ex.response.status,
      headers: cleanHeaders(ex.response.headers, redact),
      body: redact(b.text),
      bodyTruncated: b.truncated || ex.response.truncated,
    };
  }
  if (ex.error) ev.error = redact(ex.error.message);
  if (ev.expected) ev.expected = redact(ev.expected);
  if (ev.actual) ev.actual = redact(ev.actual);
  return ev;
}
