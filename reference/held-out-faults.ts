/**
 * Fault modes written after the generators were done, with none aimed at them (issue 30 §4: held out). Each is a bug
 * a real implementation has had, and shows only for some ordinary members of a class of inputs a client may send:
 * a body sent chunked, an astral character written as two escapes (Python's json.dumps), members in another order,
 * an Accept naming text/plain (axios's default), a query ending with "&", a limit beyond 32 bits, a petId such as "12.0",
 * names with "&" or "<", names that look like numbers, names with compatibility characters.
 */
import type { Has } from './faults.ts';
import type { Reply } from './reply.ts';

/**
 * Fault chunked-body-empty: the body is read by its Content-Length only (a WSGI app reading CONTENT_LENGTH bytes), so
 * a body sent with Transfer-Encoding: chunked and no Content-Length is read as empty.
 */
export function framedBody(body: string, header: (name: string) => string | undefined, has: Has): string {
  const chunked = /\bchunked\b/i.test(header('transfer-encoding') ?? '') && header('content-length') === undefined;
  return has('chunked-body-empty') && chunked ? '' : body;
}

/**
 * Fault surrogate-escapes-garbled: each \u escape of a body's text decoded on its own into UTF-8, so a surrogate
 * written escaped (half of an astral character, as Python's json.dumps and Jackson's ESCAPE_NON_ASCII write it) becomes
 * U+FFFD. The text is rewritten before it is parsed; escapes of other characters are left as they are.
 */
export function garbleSurrogateEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const escape = text.slice(i, i + 6);
    out += /^\\u[dD][89abAB][0-9a-fA-F]{2}$/.test(escape) ? '\\uFFFD' : escape.slice(0, escape[1] === 'u' ? 6 : 2);
    i += escape[1] === 'u' ? 5 : 1;
  }
  return out;
}

/**
 * Fault category-before-name-400: a reader that takes name first, then categoryId (the order of its own struct), and
 * misses a name that came before: a body whose categoryId precedes its name is refused ("name is required").
 */
export function memberOrderRefusal(body: Record<string, unknown>, has: Has, refuse: (detail: string) => Reply): Reply | undefined {
  if (!has('category-before-name-400')) return undefined;
  const keys = Object.keys(body);
  const [c, n] = [keys.indexOf('categoryId'), keys.indexOf('name')];
  return c >= 0 && n >= 0 && c < n ? refuse('/name is required') : undefined;
}

/** Fault name-html-escaped: an input sanitiser (xss-clean, validator's escape()) HTML-escapes &, < and > in every name. */
export function htmlEscaped(name: unknown, has: Has): unknown {
  if (!has('name-html-escaped') || typeof name !== 'string') return name;
  return name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Fault name-nfkc: names are stored in Unicode NFKC ("…" becomes "...", "Ｒｅｘ" "Rex", "ﬁ" "fi"). */
export function compatibilityFolded(name: unknown, has: Has): unknown {
  return has('name-nfkc') && typeof name === 'string' ? name.normalize('NFKC') : name;
}

/** PHP's is_numeric: optional leading whitespace, a sign, digits with an optional fraction, an optional exponent. */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Fault name-numeric-json: Pet bodies are written with PHP's JSON_NUMERIC_CHECK, which writes every numeric string as
 * a number: a name such as "1984", "007" or "3.14" comes out as a JSON number.
 */
export function numericChecked(name: unknown): unknown {
  return typeof name === 'string' && NUMERIC.test(name) ? Number(name) : name;
}

/**
 * Fault query-trailing-amp-500: a query parser fixed for "&&" (runs of "&" collapsed) but not for its ends: a query
 * that ends with "&" (as URL builders that append "name=value&" leave it) or begins with "?&" has an empty first or
 * last pair, which is unpacked as name=value and crashes.
 */
export function emptyEndPair(search: string, has: Has): boolean {
  return has('query-trailing-amp-500') && /^\?&|.&$/.test(search.replace(/&&+/g, '&'));
}

/**
 * Fault limit-int32-overflow-500: the limit is parsed as a 32-bit integer (Java's Integer.parseInt, C#'s int.Parse), which
 * throws for digits beyond its range before the range check runs: a limit of 2147483648 or 9999999999 crashes.
 */
export function int32Overflow(raw: string, has: Has): boolean {
  if (!has('limit-int32-overflow-500') || !/^[+-]?\d+$/.test(raw)) return false;
  const n = BigInt(raw);
  return n > 2n ** 31n - 1n || n < -(2n ** 31n);
}

/**
 * Fault petid-leading-digits: the petId is read by its leading digits (parseInt, atoi, Sscanf "%d"): "12.0" (an id a
 * client kept as a float), "12abc" or "12%20" is read as 12. Undefined when the fault is off or there are no such digits.
 */
export function leadingDigits(raw: string, has: Has): string | undefined {
  if (!has('petid-leading-digits') || /^-?\d+$/.test(raw)) return undefined;
  return /^-?\d+/.exec(raw)?.[0];
}

/** Does an Accept field name text/plain (or text/*) with a weight above 0? */
function namesTextPlain(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    return ['text/plain', 'text/*'].includes(type) && (q === undefined || Number(q.split('=')[1]) > 0);
  });
}

/**
 * Fault errors-text-plain: the error handler renders text when the request accepts it (a framework's error page
 * negotiated by `accepts('text/plain')` before JSON): with an Accept naming text/plain — axios's default
 * "application/json, text/plain, *\/*" — every error response is "code: message" labelled text/plain.
 */
export function errorAsText(reply: Reply, accept: string | undefined, has: Has): Reply {
  if (!has('errors-text-plain') || reply.status < 400 || accept === undefined || !namesTextPlain(accept)) return reply;
  let text = reply.body;
  try {
    const e = JSON.parse(reply.body) as { code?: string; message?: string };
    text = `${e.code ?? 'error'}: ${e.message ?? ''}`;
  } catch {
    // not JSON: sent as it is
  }
  return { ...reply, body: text, contentType: 'text/plain; charset=utf-8' };
}
