/**
 * The request around the body is input too: the HTTP surface a client controls besides the JSON values — the header
 * fields the operations depend on (Accept, Content-Type, the Authorization spelling), the bytes of the body (what may
 * come before or after the JSON value, duplicated and case-variant member names, escapes, nesting, size) and the
 * shape of the query string (repeated, case-variant, percent-encoded, empty and unknown names, order).
 *
 * Each variant is classified as the spec and the RFCs it builds on make it:
 * - `served`: the same JSON value as a valid request (RFC 8259): served exactly as that request (its MUSTs);
 * - `served-http`: equivalent to a valid request by HTTP or URI syntax (RFC 9110, 3986): served the same, else
 *   the HTTP-EQUIVALENT-FORMS warning (the spec names no such form; HTTP makes them equivalent);
 * - `refusable`: left open by an RFC (a BOM, a duplicated member, a repeated parameter, another media type): a clean
 *   4xx Error, or served as one of its readings;
 * - `invalid`: not what the operation takes (data after the JSON value, JSON5, a case-variant name instead of a
 *   required one): createPet must refuse it with 400; any operation, never a 5xx.
 */
/** How the spec and its RFCs class a surface variant. */
export type VariantClass = 'served' | 'served-http' | 'refusable' | 'invalid';

export interface Variant {
  id: string;
  cls: VariantClass;
  label: string;
  /** The RFC section (or the spec's words) that makes it so. */
  source: string;
  /** An invalid variant: the requirement its refusal proves (CREATE-400-BAD-BODY when not said). */
  requirement?: RefusedRequirement;
}

import { num, prop, render, renderSpaced, str, withProp, type JNode } from './json-text.ts';
import type { RefusedRequirement } from '../core/spec/create-pet/rules.ts';

/** A valid NewPet as a variant starts from: its syntax tree (named), its text, and the name it carries. */
type Body = { node: JNode; text: string; name?: string };

/** A body variant: the text sent, and the texts a correct server may have read (its readings). */
export interface BodyVariant extends Variant {
  body(b: Body): { text: string; readings?: string[] };
}

export interface QueryVariant extends Variant {
  /** The query string sent, and the query a correct server reads (judged leniently where readings differ). */
  query(q: Record<string, string>): { raw: string; reading: Record<string, string> } | undefined;
}

export interface HeaderVariant extends Variant {
  headers?: Record<string, string | null>;
  /** The key, spelled another way (`{key}` for it). */
  spelled?: string;
}

const v = <T extends Variant>(x: T): T => x;
const RFC8259 = 'RFC 8259';
const RFC9110 = 'RFC 9110';
const RFC3986 = 'RFC 3986';

/** The same JSON value, whitespace and escapes aside: a JSON parser reads exactly the valid request. */
const SAME_VALUE: BodyVariant[] = [
  v({
    id: 'json-whitespace',
    cls: 'served',
    label: 'insignificant whitespace around and inside the JSON value',
    source: `${RFC8259} §2`,
    body: (b) => ({ text: ` \r\n${renderSpaced(b.node)}\n ` }),
  }),
  v({
    id: 'json-escaped-member-name',
    cls: 'served',
    label: 'the member name "name" written with an escape (n\\u0061me)',
    source: `${RFC8259} §7`,
    body: (b) => ({ text: b.text.replace('"name":', '"n\\u0061me":') }),
  }),
  v({
    id: 'json-escaped-member-name-2',
    cls: 'served',
    label: 'the categoryId member name written with escapes (\\u0063ategoryId)',
    source: `${RFC8259} §7`,
    body: (b) => ({ text: b.text.replace('"categoryId":', '"\\u0063ategoryId":') }),
  }),
];

/** A second value of a NewPet member, valid too, so that either reading of the duplicate is a valid NewPet. */
function secondValue(key: string, first: JNode | undefined, name: string | undefined): JNode | undefined {
  if (key === 'name') return str(`${name ?? ''}-2`);
  if (key === 'status') return str(first?.k === 'str' && first.value === 'sold' ? 'available' : 'sold');
  if (key === 'categoryId') return num(first?.k === 'num' && first.text === '1' ? '2' : '1');
  return undefined;
}

/**
 * The member `key` given twice with two valid values (added first when the NewPet omits it): a server may keep the
 * first or the last (or refuse), but what it answers and what it stores must be the same reading.
 */
function duplicated(key: string, id: string): BodyVariant {
  return v({
    id,
    cls: 'refusable',
    label: `the member "${key}" given twice, with two values`,
    source: `${RFC8259} §4 (names SHOULD be unique; a parser may keep the first or the last)`,
    body: (b) => {
      const given = prop(b.node, key);
      const first = given ?? secondValue(key, str(''), b.name)!;
      const second = secondValue(key, first, b.name)!;
      const base = given ? b.node : withProp(b.node, key, first);
      const baseText = render(base);
      const text = `${baseText.slice(0, -1)},${JSON.stringify(key)}:${render(second)}}`;
      return { text, readings: [baseText, render(withProp(base, key, second))] };
    },
  });
}

/** What an RFC leaves to the server: a clean refusal, or one of the readings. */
const OPEN: BodyVariant[] = [
  v({
    id: 'bom',
    cls: 'refusable',
    label: 'a byte order mark before the JSON value',
    source: `${RFC8259} §8.1 (a parser MAY ignore a BOM)`,
    body: (b) => ({ text: `\uFEFF${b.text}`, readings: [b.text] }),
  }),
  duplicated('name', 'duplicate-member'),
  duplicated('status', 'duplicate-status'),
  duplicated('categoryId', 'duplicate-category-id'),
  v({
    id: 'deep-nesting',
    cls: 'refusable',
    label: 'an unknown property nested 2,000 levels deep',
    source: `${RFC8259} §9 (a parser may limit the depth of nesting)`,
    body: (b) => {
      // Read by a server that takes it, the unknown property is ignored: the NewPet is the valid one.
      return { text: `${b.text.slice(0, -1)},"x-nested":${'['.repeat(2000)}${']'.repeat(2000)}}`, readings: [b.text] };
    },
  }),
  v({
    id: 'large-body',
    cls: 'refusable',
    label: 'a body of 1.5 MB (an unknown property)',
    source: `${RFC9110} §15.5.14 (413 Content Too Large)`,
    body: (b) => {
      return { text: `${b.text.slice(0, -1)},"x-padding":"${'x'.repeat(1_500_000)}"}`, readings: [b.text] };
    },
  }),
];

/** Not a NewPet, whatever a lenient parser makes of it: refused with 400 (CREATE-400-BAD-BODY unless said). */
const NOT_JSON: BodyVariant[] = [
  v({
    id: 'trailing-garbage',
    cls: 'invalid',
    label: 'data after the JSON value',
    source: `${RFC8259} §2 (JSON-text = ws value ws)`,
    body: (b) => ({ text: `${b.text}x` }),
  }),
  v({
    id: 'trailing-brace',
    cls: 'invalid',
    label: 'a closing brace too many',
    source: `${RFC8259} §2`,
    body: (b) => ({ text: `${b.text}}` }),
  }),
  v({
    id: 'two-values',
    cls: 'invalid',
    label: 'a second JSON value after the first',
    source: `${RFC8259} §2`,
    body: (b) => ({ text: `${b.text}\n${b.text}` }),
  }),
  v({
    id: 'trailing-comma',
    cls: 'invalid',
    label: 'a trailing comma (JSON5)',
    source: `${RFC8259} §4`,
    body: (b) => ({ text: `${b.text.slice(0, -1)},}` }),
  }),
  v({
    id: 'comment',
    cls: 'invalid',
    label: 'a comment (JSON5)',
    source: `${RFC8259} §2`,
    body: (b) => ({ text: `${b.text.slice(0, -1)}/* note */}` }),
  }),
  v({
    id: 'single-quotes',
    cls: 'invalid',
    label: 'member names in single quotes (JSON5)',
    source: `${RFC8259} §7`,
    body: (b) => ({ text: b.text.replace(/"(name|categoryId|status)":/g, "'$1':") }),
  }),
  v({
    id: 'unescaped-control',
    cls: 'invalid',
    label: 'a raw control character inside the name string',
    source: `${RFC8259} §7 (control characters MUST be escaped)`,
    body: (b) => ({ text: b.text.replace('"name":"', '"name":"\u0001') }),
  }),
  v({
    id: 'leading-zero',
    cls: 'invalid',
    label: 'a categoryId with a leading zero (07)',
    source: `${RFC8259} §6`,
    body: (b) => ({ text: b.text.replace(/"categoryId":(\d)/, '"categoryId":0$1') }),
  }),
  v({
    id: 'member-case-variant',
    cls: 'invalid',
    requirement: 'CREATE-400-MISSING-FIELD',
    label: 'the required member "name" written "Name" (member names are case-sensitive)',
    source: `${RFC8259} §8.3 (names compared code unit by code unit)`,
    body: (b) => ({ text: b.text.replace('"name":', '"Name":') }),
  }),
];

export const BODY_VARIANTS: readonly BodyVariant[] = [...SAME_VALUE, ...OPEN, ...NOT_JSON];

/** Content-Type of a createPet with a valid body. */
export const CONTENT_TYPE_VARIANTS: readonly HeaderVariant[] = [
  v({
    id: 'ct-charset',
    cls: 'served-http',
    label: 'Content-Type: application/json; charset=utf-8',
    source: `${RFC9110} §8.3.1, ${RFC8259} §11`,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  }),
  v({
    id: 'ct-case',
    cls: 'served-http',
    label: 'Content-Type: Application/JSON;Charset=UTF-8',
    source: `${RFC9110} §8.3.1 (type, subtype and parameter names are case-insensitive)`,
    headers: { 'content-type': 'Application/JSON;Charset=UTF-8' },
  }),
  v({
    id: 'ct-ows',
    cls: 'served-http',
    label: 'Content-Type: application/json ; charset="utf-8"',
    source: `${RFC9110} §5.6.6 (parameters: OWS ";" OWS, quoted values)`,
    headers: { 'content-type': 'application/json ; charset="utf-8"' },
  }),
  v({
    id: 'ct-absent',
    cls: 'refusable',
    label: 'no Content-Type',
    source: `${RFC9110} §8.3 (a recipient may refuse, or sniff)`,
    headers: { 'content-type': null },
  }),
  v({
    id: 'ct-text',
    cls: 'refusable',
    label: 'Content-Type: text/plain',
    source: `${RFC9110} §15.5.16 (415 Unsupported Media Type)`,
    headers: { 'content-type': 'text/plain' },
  }),
  v({
    id: 'ct-form',
    cls: 'refusable',
    label: 'Content-Type: application/x-www-form-urlencoded',
    source: `${RFC9110} §15.5.16`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }),
  v({
    id: 'ct-suffix',
    cls: 'refusable',
    label: 'Content-Type: application/vnd.animal-store+json',
    source: `${RFC9110} §15.5.16`,
    headers: { 'content-type': 'application/vnd.animal-store+json' },
  }),
];

/** Accept and the Authorization spelling of any operation. */
export const HEADER_VARIANTS: readonly HeaderVariant[] = [
  v({ id: 'accept-any', cls: 'served-http', label: 'Accept: */*', source: `${RFC9110} §12.5.1`, headers: { accept: '*/*' } }),
  v({
    id: 'accept-absent',
    cls: 'served-http',
    label: 'no Accept',
    source: `${RFC9110} §12.5.1 (no Accept: any media type)`,
    headers: { accept: null },
  }),
  v({
    id: 'accept-range',
    cls: 'served-http',
    label: 'Accept: application/*',
    source: `${RFC9110} §12.5.1`,
    headers: { accept: 'application/*' },
  }),
  v({
    id: 'accept-weighted',
    cls: 'served-http',
    label: 'Accept: text/html;q=0.9, application/json',
    source: `${RFC9110} §12.4.2`,
    headers: { accept: 'text/html;q=0.9, application/json' },
  }),
  v({
    id: 'accept-param',
    cls: 'served-http',
    label: 'Accept: application/json; charset=utf-8',
    source: `${RFC9110} §12.5.1 (a media range with parameters), ${RFC8259} §11`,
    headers: { accept: 'application/json; charset=utf-8' },
  }),
  v({
    id: 'accept-case',
    cls: 'served-http',
    label: 'Accept: Application/JSON',
    source: `${RFC9110} §8.3.1 (type and subtype are case-insensitive)`,
    headers: { accept: 'Application/JSON' },
  }),
  v({
    id: 'accept-charset',
    cls: 'served-http',
    label: 'Accept-Charset: utf-8',
    source: `${RFC9110} §12.5.2 (UTF-8, the charset JSON is written in, accepted)`,
    headers: { 'accept-charset': 'utf-8' },
  }),
  v({
    id: 'accept-html',
    cls: 'refusable',
    label: 'Accept: text/html',
    source: `${RFC9110} §12.5.1 (406, or disregard Accept)`,
    headers: { accept: 'text/html' },
  }),
  v({
    id: 'auth-lower',
    cls: 'served-http',
    label: 'Authorization: bearer <key>',
    source: `${RFC9110} §11.1 (the scheme is case-insensitive)`,
    spelled: 'bearer {key}',
  }),
  v({ id: 'auth-upper', cls: 'served-http', label: 'Authorization: BEARER <key>', source: `${RFC9110} §11.1`, spelled: 'BEARER {key}' }),
  v({
    id: 'auth-spaces',
    cls: 'served-http',
    label: 'Authorization: Bearer  <key> (two spaces)',
    source: `${RFC9110} §11.4 (credentials = auth-scheme 1*SP token68)`,
    spelled: 'Bearer  {key}',
  }),
];

const enc = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
const pairs = (q: Record<string, string>) => Object.entries(q).map(([k, val]) => `${k}=${encodeURIComponent(val)}`);
const maxLimit = (a: string | undefined, b: number) => String(Math.max(Number(a ?? 0) || 0, b));

/** Query-string shapes of a valid listPets query (undefined when the query has nothing the variant needs). */
export const QUERY_VARIANTS: readonly QueryVariant[] = [
  v({
    id: 'q-order',
    cls: 'served-http',
    label: 'the parameters in the other order',
    source: `${RFC3986} §3.4`,
    query: (q) => (Object.keys(q).length > 1 ? { raw: pairs(q).reverse().join('&'), reading: q } : undefined),
  }),
  v({
    id: 'q-encoded-name',
    cls: 'served-http',
    label: 'a parameter name percent-encoded (%6C%69%6D%69%74=…)',
    source: `${RFC3986} §2.3, §6.2.2.2 (percent-encoded unreserved characters are equivalent)`,
    query: (q) => (q.limit ? { raw: [`${enc('limit')}=${q.limit}`, ...pairs(omit(q, 'limit'))].join('&'), reading: q } : undefined),
  }),
  v({
    id: 'q-encoded-value',
    cls: 'served-http',
    label: 'a status value percent-encoded (%73%6F%6C%64)',
    source: `${RFC3986} §2.3, §6.2.2.2`,
    query: (q) => (q.status ? { raw: [`status=${enc(q.status)}`, ...pairs(omit(q, 'status'))].join('&'), reading: q } : undefined),
  }),
  v({
    id: 'q-trailing-amp',
    cls: 'served-http',
    label: 'an empty pair at the end (…&)',
    source: 'WHATWG URL application/x-www-form-urlencoded parsing (empty sequences are skipped)',
    query: (q) => ({ raw: `${pairs(q).join('&')}&`, reading: q }),
  }),
  v({
    id: 'q-repeated-same',
    cls: 'refusable',
    label: 'the limit given twice, with the same value',
    source: `${RFC3986} §3.4 (the query's structure is the server's)`,
    query: (q) => (q.limit ? { raw: [...pairs(q), `limit=${q.limit}`].join('&'), reading: q } : undefined),
  }),
  v({
    id: 'q-repeated-limits',
    cls: 'refusable',
    label: 'the limit given twice, with two values (a server keeps the first, or the last)',
    source: `${RFC3986} §3.4`,
    query: (q) => (q.limit ? { raw: [...pairs(q), 'limit=3'].join('&'), reading: { ...q, limit: maxLimit(q.limit, 3) } } : undefined),
  }),
  v({
    id: 'q-repeated-status',
    cls: 'refusable',
    label: 'the status given twice, with two values',
    source: `${RFC3986} §3.4`,
    query: (q) =>
      q.status
        ? { raw: [...pairs(q), `status=${q.status === 'sold' ? 'pending' : 'sold'}`].join('&'), reading: omit(q, 'status') }
        : undefined,
  }),
  v({
    id: 'q-case-name',
    cls: 'refusable',
    label: 'the parameter name in capitals (LIMIT=…): another parameter',
    source: `${RFC3986} §6.2.2.1 (only scheme and host are case-insensitive)`,
    query: (q) =>
      q.limit
        ? {
            raw: pairs(q)
              .map((p) => p.replace(/^limit=/, 'LIMIT='))
              .join('&'),
            reading: { ...omit(q, 'limit'), limit: maxLimit(q.limit, 20) },
          }
        : undefined,
  }),
  v({
    id: 'q-unknown',
    cls: 'refusable',
    label: 'unknown parameters (offset, cursor)',
    source: 'Pagination controls other than limit: not shown',
    query: (q) => ({ raw: [...pairs(q), 'offset=0', 'cursor=abc'].join('&'), reading: q }),
  }),
];

function omit(q: Record<string, string>, k: string): Record<string, string> {
  const out = { ...q };
  delete out[k];
  return out;
}

const ALL: readonly (BodyVariant | HeaderVariant | QueryVariant)[] = [
  ...BODY_VARIANTS,
  ...CONTENT_TYPE_VARIANTS,
  ...HEADER_VARIANTS,
  ...QUERY_VARIANTS,
];

/** A variant by its id (a saved counterexample names its variant). */
export function variantById(id: string): BodyVariant | HeaderVariant | QueryVariant | undefined {
  return ALL.find((x) => x.id === id);
}
