/**
 * What an older suite saved: one surface variant per counterexample, by its id (`variant: 'ct-charset'`), with what it
 * sent beside it. Each id is the form it was (surface.ts), written here as data, so that a saved counterexample of the
 * old shape is replayed and judged as before (the command's own process reads the store: no generator is loaded for
 * it); an id no form stands for is left out, and said. test/explore/surface-forms.test.ts keeps the ids that are
 * still examples equal to them.
 */
import type { ReplayProbe, SurfaceRecord } from '../results/types.ts';

const RFC9110 = 'RFC 9110';
/** A record of the old kinds: `[kind, id, cls]` and what it does. */
const rec = ([kind, id, cls]: [SurfaceRecord['kind'], string, SurfaceRecord['cls']], label: string, source: string): SurfaceRecord => ({
  kind,
  id,
  cls,
  label,
  source,
});
const json = (label: string) => rec(['body', 'json-text', 'equivalent'], label, 'RFC 8259 §7');
const ct = (label: string) => rec(['header', 'content-type', 'equivalent-http'], label, `${RFC9110} §8.3.1`);
const accept = (label: string, cls: SurfaceRecord['cls'] = 'equivalent-http') =>
  rec(['header', 'accept', cls], label, `${RFC9110} §12.5.1`);
const auth = (label: string) => rec(['auth', 'authorization', 'equivalent-http'], label, `${RFC9110} §11.1`);
const query = (label: string) => rec(['query', 'query', 'equivalent-http'], label, 'RFC 3986 §6.2.2');

/** The old ids that are still examples of today's forms (body-forms.ts, query-forms.ts), as those examples are. */
export const LEGACY_EXAMPLES: Readonly<Record<string, SurfaceRecord>> = {
  bom: {
    kind: 'body',
    id: 'bom',
    cls: 'refusable',
    label: 'a byte order mark before the JSON value',
    source: 'RFC 8259 §8.1 (a parser MAY ignore a BOM)',
  },
  'duplicate-member': {
    kind: 'body',
    id: 'duplicate-member',
    cls: 'refusable',
    label: 'the member "name" given twice, with two values',
    source: 'RFC 8259 §4 (names SHOULD be unique; a parser may keep the first or the last)',
  },
  'duplicate-status': {
    kind: 'body',
    id: 'duplicate-status',
    cls: 'refusable',
    label: 'the member "status" given twice, with two values',
    source: 'RFC 8259 §4 (names SHOULD be unique; a parser may keep the first or the last)',
  },
  'duplicate-category-id': {
    kind: 'body',
    id: 'duplicate-category-id',
    cls: 'refusable',
    label: 'the member "categoryId" given twice, with two values',
    source: 'RFC 8259 §4 (names SHOULD be unique; a parser may keep the first or the last)',
  },
  'deep-nesting': {
    kind: 'body',
    id: 'deep-nesting',
    cls: 'refusable',
    label: 'an unknown property nested 2,000 levels deep',
    source: 'RFC 8259 §9 (a parser may limit the depth of nesting)',
  },
  'large-body': {
    kind: 'body',
    id: 'large-body',
    cls: 'refusable',
    label: 'a body of 1.5 MB (an unknown property)',
    source: 'RFC 9110 §15.5.14 (413 Content Too Large)',
  },
  'trailing-garbage': {
    kind: 'body',
    id: 'trailing-garbage',
    cls: 'latitude',
    label: 'data after the JSON value',
    source: "RFC 8259 §9 (Go's json.Decoder, Jackson without FAIL_ON_TRAILING_TOKENS read the first value)",
  },
  'trailing-brace': { kind: 'body', id: 'trailing-brace', cls: 'latitude', label: 'a closing brace too many', source: 'RFC 8259 §9' },
  'two-values': {
    kind: 'body',
    id: 'two-values',
    cls: 'latitude',
    label: 'a second JSON value after the first (another NewPet)',
    source: 'RFC 8259 §9 (a parser reading the first value keeps the first)',
  },
  'trailing-comma': {
    kind: 'body',
    id: 'trailing-comma',
    cls: 'latitude',
    label: 'a trailing comma (JSON5)',
    source: 'RFC 8259 §9 (JSON5)',
  },
  comment: { kind: 'body', id: 'comment', cls: 'latitude', label: 'a comment (JSON5)', source: 'RFC 8259 §9 (JSON5)' },
  'single-quotes': {
    kind: 'body',
    id: 'single-quotes',
    cls: 'latitude',
    label: 'member names in single quotes (JSON5)',
    source: 'RFC 8259 §9 (JSON5)',
  },
  'unescaped-control': {
    kind: 'body',
    id: 'unescaped-control',
    cls: 'latitude',
    label: 'a raw control character inside the name string',
    source: "RFC 8259 §9 (Jackson's ALLOW_UNQUOTED_CONTROL_CHARS)",
  },
  'leading-zero': {
    kind: 'body',
    id: 'leading-zero',
    cls: 'latitude',
    label: 'a categoryId with a leading zero (07)',
    source: "RFC 8259 §9 (Jackson's ALLOW_LEADING_ZEROS_FOR_NUMBERS)",
  },
  'member-case-variant': {
    kind: 'body',
    id: 'member-case-variant',
    cls: 'invalid',
    label: 'the required member "name" written "Name" (member names are case-sensitive)',
    source: 'RFC 8259 §8.3 (names compared code unit by code unit)',
    requirement: 'CREATE-400-MISSING-FIELD',
  },
  'json-whitespace': {
    kind: 'body',
    id: 'json-whitespace',
    cls: 'equivalent',
    label: 'insignificant whitespace around and inside the JSON value',
    source: 'RFC 8259 §2 (whitespace around any token), §7 (any character may be escaped, hex digits in either case, \\/)',
  },
  'ct-absent': {
    kind: 'header',
    id: 'ct-absent',
    cls: 'refusable',
    label: 'no Content-Type',
    source: 'RFC 9110 §8.3 (a recipient may refuse, or sniff)',
  },
  'ct-text': {
    kind: 'header',
    id: 'ct-text',
    cls: 'refusable',
    label: 'Content-Type: text/plain',
    source: 'RFC 9110 §15.5.16 (415 Unsupported Media Type)',
  },
  'ct-form': {
    kind: 'header',
    id: 'ct-form',
    cls: 'refusable',
    label: 'Content-Type: application/x-www-form-urlencoded',
    source: 'RFC 9110 §15.5.16',
  },
  'ct-suffix': {
    kind: 'header',
    id: 'ct-suffix',
    cls: 'refusable',
    label: 'Content-Type: application/vnd.animal-store+json',
    source: 'RFC 9110 §15.5.16',
  },
  'q-repeated-same': {
    kind: 'query',
    id: 'q-repeated-same',
    cls: 'refusable',
    label: 'the limit given twice, with the same value',
    source: "RFC 3986 §3.4 (the query's structure is the server's)",
  },
  'q-repeated-limits': {
    kind: 'query',
    id: 'q-repeated-limits',
    cls: 'refusable',
    label: 'the limit given twice, with two values (a server keeps the first, or the last)',
    source: 'RFC 3986 §3.4',
  },
  'q-repeated-status': {
    kind: 'query',
    id: 'q-repeated-status',
    cls: 'refusable',
    label: 'the status given twice, with two values',
    source: 'RFC 3986 §3.4',
  },
  'q-case-name': {
    kind: 'query',
    id: 'q-case-name',
    cls: 'refusable',
    label: 'the parameter name in capitals (LIMIT=…): another parameter',
    source: 'RFC 3986 §6.2.2.1 (only scheme and host are case-insensitive)',
  },
  'q-unknown': {
    kind: 'query',
    id: 'q-unknown',
    cls: 'refusable',
    label: 'unknown parameters (offset, cursor, a cache-buster _)',
    source: 'Pagination controls other than limit: not shown',
  },
};

/** The old ids, each as the form it was. */
const LEGACY: Readonly<Record<string, SurfaceRecord>> = {
  ...LEGACY_EXAMPLES,
  'json-escaped-member-name': json('the member name "name" written with an escape (n\\u0061me)'),
  'json-escaped-member-name-2': json('the categoryId member name written with escapes (\\u0063ategoryId)'),
  'ct-charset': ct('Content-Type: application/json; charset=utf-8'),
  'ct-case': ct('Content-Type: Application/JSON;Charset=UTF-8'),
  'ct-ows': ct('Content-Type: application/json ; charset="utf-8"'),
  'accept-any': accept('Accept: */*'),
  'accept-absent': accept('no Accept'),
  'accept-range': accept('Accept: application/*'),
  'accept-weighted': accept('Accept: text/html;q=0.9, application/json'),
  'accept-param': accept('Accept: application/json; charset=utf-8'),
  'accept-case': accept('Accept: Application/JSON'),
  'accept-charset': rec(['header', 'accept-charset', 'equivalent-http'], 'Accept-Charset: utf-8', `${RFC9110} §12.5.2`),
  'accept-html': accept('Accept: text/html', 'refusable'),
  'auth-lower': auth('Authorization: bearer <key>'),
  'auth-upper': auth('Authorization: BEARER <key>'),
  'auth-spaces': auth('Authorization: Bearer  <key> (two spaces)'),
  'q-order': query('the parameters in the other order'),
  'q-encoded-name': query('a parameter name percent-encoded'),
  'q-encoded-value': query('a status value percent-encoded'),
  'q-trailing-amp': query('an empty pair at the end'),
};

/** A saved request in today's shape: its old variant id turned into its form; undefined when no form stands for it. */
export function upgradeProbe(p: ReplayProbe): ReplayProbe | undefined {
  if (p.variant === undefined) return p;
  const form = LEGACY[p.variant];
  if (!form) return undefined;
  const { variant: _old, ...rest } = p;
  return { ...rest, surface: [form] };
}
