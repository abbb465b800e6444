/**
 * The query string of a request, generated from RFC 3986: the same parameters in any order, any character of a name
 * or a value percent-encoded (hex digits in either case: §2.1, §6.2.2.2 — the characters here are unreserved, so
 * encoded or not they are equivalent), empty pairs anywhere (a form-urlencoded parser skips them) — one equivalent
 * form (served alike, else HTTP-EQUIVALENT-FORMS warns); and what the query's structure leaves to the server (§3.4):
 * a parameter given twice, a name in another case, unknown parameters — refusable (a clean 400 Error, or a page that
 * respects every reading).
 */
import fc from 'fast-check';
import type { Form } from './surface.ts';

const RFC3986 = 'RFC 3986';
type Query = Record<string, string>;

const hex = (c: string, upper: boolean) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
const pick = <T>(xs: readonly T[], i: number, none: T) => (xs.length ? xs[i % xs.length] : none);

/** The choices of one equivalent spelling of a query: order, which characters are encoded and how, where empty pairs go. */
export interface QueryShape {
  /** Rotate the pairs by this much (0: as given). */
  rotate: number;
  /** Reverse them. */
  reverse: boolean;
  /** Which characters of names and values are percent-encoded, cycled. */
  encode: readonly boolean[];
  /** Upper-case hex digits, cycled per encoded character. */
  upper: readonly boolean[];
  /** Empty pairs before the pair of each index (cycled; the last one after the last pair). */
  empties: readonly number[];
}

/** The raw query of `q` spelled as `s` says. */
export function spellQuery(q: Query, s: QueryShape): string {
  let pairs = Object.entries(q);
  if (s.reverse) pairs = pairs.reverse();
  const r = pairs.length ? s.rotate % pairs.length : 0;
  pairs = [...pairs.slice(r), ...pairs.slice(0, r)];
  let c = 0;
  let h = 0;
  // Unreserved characters encoded where the mask says; what must be encoded is, its hex digits in the case chosen.
  const enc = (t: string) =>
    encodeURIComponent(t).replace(/%[0-9A-F]{2}|[A-Za-z0-9._~-]/g, (m) =>
      m.length === 3
        ? m[pick(s.upper, h++, true) ? 'toUpperCase' : 'toLowerCase']()
        : pick(s.encode, c++, false)
          ? hex(m, pick(s.upper, h++, true))
          : m,
    );
  const out = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  const withEmpties: string[] = [];
  for (let i = 0; i <= out.length; i++) {
    for (let e = 0; e < pick(s.empties, i, 0); e++) withEmpties.push('');
    if (i < out.length) withEmpties.push(out[i]);
  }
  return withEmpties.join('&');
}

/** What a shape does, for people. */
function shapeLabel(s: QueryShape): string {
  const parts = [
    s.rotate || s.reverse ? 'the parameters in another order' : '',
    s.encode.some(Boolean)
      ? `characters percent-encoded (${s.upper.every((u) => u) ? 'upper' : s.upper.some(Boolean) ? 'mixed' : 'lower'}-case hex)`
      : '',
    s.empties.some((n) => n > 0) ? 'empty pairs' : '',
  ].filter(Boolean);
  return `the query with ${parts.join(', ') || 'no change'}`;
}

/** A query form of one shape: equivalent to the query it spells. */
export function queryForm(s: QueryShape, id = 'query'): Form {
  return {
    kind: 'query',
    id,
    cls: 'equivalent-http',
    label: shapeLabel(s),
    source: `${RFC3986} §2.1, §2.3, §6.2.2 (percent-encoded unreserved characters are equivalent; hex digits in either case), §3.4; WHATWG URL (empty pairs are skipped)`,
    shape: (q) => (Object.keys(q).length ? { raw: spellQuery(q, s), reading: q } : undefined),
  };
}

/** Any equivalent spelling of a query; shrinks towards the plain one. */
export const queryShapeArb: fc.Arbitrary<QueryShape> = fc.record({
  rotate: fc.nat(3),
  reverse: fc.boolean(),
  encode: fc.array(fc.boolean(), { maxLength: 8 }),
  upper: fc.array(fc.boolean(), { maxLength: 4 }),
  empties: fc.array(fc.nat(2), { maxLength: 3 }),
});

export const queryFormArb: fc.Arbitrary<Form> = queryShapeArb.map((s) => queryForm(s));

const pairs = (q: Query) => Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
const omit = (q: Query, k: string): Query => Object.fromEntries(Object.entries(q).filter(([n]) => n !== k));
const maxLimit = (a: string | undefined, b: number) => String(Math.max(Number(a ?? 0) || 0, b));
const refusable = (id: string, label: string, source: string, shape: (q: Query) => { raw: string; reading: Query } | undefined): Form => ({
  kind: 'query',
  id,
  cls: 'refusable',
  label,
  source,
  shape,
});

/** What the query's structure leaves to the server (RFC 3986 §3.4), each as a form. */
export const OPEN_QUERY_FORMS: readonly Form[] = [
  refusable(
    'q-repeated-same',
    'the limit given twice, with the same value',
    `${RFC3986} §3.4 (the query's structure is the server's)`,
    (q) => (q.limit ? { raw: [...pairs(q), `limit=${q.limit}`].join('&'), reading: q } : undefined),
  ),
  refusable(
    'q-repeated-limits',
    'the limit given twice, with two values (a server keeps the first, or the last)',
    `${RFC3986} §3.4`,
    (q) => (q.limit ? { raw: [...pairs(q), 'limit=3'].join('&'), reading: { ...q, limit: maxLimit(q.limit, 3) } } : undefined),
  ),
  refusable('q-repeated-status', 'the status given twice, with two values', `${RFC3986} §3.4`, (q) =>
    q.status
      ? { raw: [...pairs(q), `status=${q.status === 'sold' ? 'pending' : 'sold'}`].join('&'), reading: omit(q, 'status') }
      : undefined,
  ),
  refusable(
    'q-case-name',
    'the parameter name in capitals (LIMIT=…): another parameter',
    `${RFC3986} §6.2.2.1 (only scheme and host are case-insensitive)`,
    (q) =>
      q.limit
        ? {
            raw: pairs(q)
              .map((p) => p.replace(/^limit=/, 'LIMIT='))
              .join('&'),
            reading: { ...omit(q, 'limit'), limit: maxLimit(q.limit, 20) },
          }
        : undefined,
  ),
  refusable(
    'q-unknown',
    'unknown parameters (offset, cursor, a cache-buster _)',
    'Pagination controls other than limit: not shown',
    (q) => ({
      raw: [...pairs(q), 'offset=0', 'cursor=abc', '_=1700000000000'].join('&'),
      reading: q,
    }),
  ),
];
