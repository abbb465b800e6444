/**
 * The header fields of a request, generated from their RFC 9110 grammar: the ones an operation depends on (Accept,
 * Content-Type, Authorization) and the ones real clients send by default (Accept-Encoding, Accept-Language,
 * Accept-Charset, Connection, User-Agent, Cache-Control, Pragma) — media ranges with parameters and q-values, content
 * codings, language ranges, the credentials' scheme in any case and with any number of spaces. Each field is a form of
 * the request's surface (surface.ts), classed by what the grammar makes it: equivalent to the request without it
 * (served alike, else HTTP-EQUIVALENT-FORMS warns) or refusable (Accept without JSON, identity refused: a clean 4xx
 * or the usual answer). Real clients' defaults are examples of the same forms (`CLIENTS`).
 */
import fc from 'fast-check';
import type { Form } from './surface.ts';

const RFC9110 = 'RFC 9110';

/** A header form: one field set (or left out: null), classed by `cls` on the grounds of `source`. */
export const headerForm = (
  [id, value]: [string, string | null],
  cls: Form['cls'],
  source: string,
  label = value === null ? `no ${id}` : `${id}: ${value}`,
): Form => ({ kind: 'header', id, cls, label, source, headers: { [id]: value } });

/** Letters of `s` in upper case where `mask` says so (cycled): a token in any case. */
export const cased = (s: string, mask: readonly boolean[]): string =>
  mask.length ? [...s].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c.toLowerCase())).join('') : s;

const caseMask = fc.array(fc.boolean(), { maxLength: 6 });
/** Optional whitespace (RFC 9110 §5.6.3: OWS = *( SP / HTAB )). */
const ows = fc.constantFrom('', ' ', '  ', '\t');
/** A weight (§12.4.2): none, or q= a qvalue in any of its spellings. */
const weight = fc.option(fc.constantFrom('1', '1.0', '1.000', '0.9', '0.5', '0.001', '0'), { nil: undefined });

interface Item {
  value: string;
  q?: string;
}

/** A comma-separated list of items with weights (§5.6.1: #element, OWS around the commas). */
function list(items: readonly Item[], space: string, tight: string): string {
  return items.map((it) => (it.q === undefined ? it.value : `${it.value}${tight};${tight}q=${it.q}`)).join(`${space},${space}`);
}

const itemArb = (values: readonly string[]): fc.Arbitrary<Item> =>
  fc
    .record({ value: fc.constantFrom(...values), q: weight, mask: caseMask })
    .map(({ value, q, mask }) => ({ value: cased(value, mask), ...(q !== undefined ? { q } : {}) }));

const listArb = (values: readonly string[]) =>
  fc.record({ items: fc.array(itemArb(values), { minLength: 1, maxLength: 4 }), space: ows, tight: ows });

/** The weight of an item (no q: 1). */
const qOf = (it: Item) => (it.q === undefined ? 1 : Number(it.q));

/** Media ranges of Accept (§12.5.1), with parameters. */
const RANGES = [
  'application/json',
  'application/*',
  '*/*',
  'text/html',
  'application/xml',
  'text/plain',
  'application/json; charset=utf-8',
  'application/problem+json',
];

/** Does a list of media ranges accept application/json (the most specific range that matches decides, §12.5.1)? */
export function acceptsJson(items: readonly Item[]): boolean {
  const rank = (v: string) => {
    const type = v.split(';')[0].trim().toLowerCase();
    return type === 'application/json' ? 3 : type === 'application/*' ? 2 : type === '*/*' ? 1 : 0;
  };
  const best = [...items].filter((it) => rank(it.value) > 0).sort((a, b) => rank(b.value) - rank(a.value))[0];
  return best !== undefined && qOf(best) > 0;
}

export const acceptArb: fc.Arbitrary<Form> = listArb(RANGES).map(({ items, space, tight }) => {
  const value = list(items, space, tight);
  return acceptsJson(items)
    ? headerForm(['accept', value], 'equivalent-http', `${RFC9110} §12.5.1 (a list of media ranges that accepts application/json)`)
    : headerForm(['accept', value], 'refusable', `${RFC9110} §12.5.1 (406, or disregard Accept)`);
});

/** Content codings of Accept-Encoding (§12.5.3). */
const CODINGS = ['gzip', 'deflate', 'br', 'identity', '*', 'x-gzip', 'zstd', 'compress'];

/** Is identity refused (identity;q=0, or *;q=0 without identity)? Then a server may answer 406. */
export function refusesIdentity(items: readonly Item[]): boolean {
  const named = items.find((it) => it.value.toLowerCase() === 'identity');
  if (named) return qOf(named) === 0;
  const star = items.find((it) => it.value === '*');
  return star !== undefined && qOf(star) === 0;
}

const acceptEncodingArb: fc.Arbitrary<Form> = fc.oneof(
  listArb(CODINGS).map(({ items, space, tight }) =>
    headerForm(
      ['accept-encoding', list(items, space, tight)],
      refusesIdentity(items) ? 'refusable' : 'equivalent-http',
      `${RFC9110} §12.5.3 (the response in a coding it accepts, or none)`,
    ),
  ),
  fc.constant(headerForm(['accept-encoding', ''], 'equivalent-http', `${RFC9110} §12.5.3 (empty: no coding but identity)`)),
);

const LANGUAGES = ['en-US', 'en', 'fr-CH', 'fr', 'de', '*', 'zh-Hant-TW', 'ar', 'pt-BR'];
const acceptLanguageArb = listArb(LANGUAGES).map(({ items, space, tight }) =>
  headerForm(['accept-language', list(items, space, tight)], 'equivalent-http', `${RFC9110} §12.5.4 (a preference; JSON has none)`),
);

const CHARSETS = ['utf-8', 'UTF-8', 'iso-8859-1', '*', 'us-ascii'];
const acceptCharsetArb = listArb(CHARSETS)
  .filter(({ items }) => items.some((it) => /^(utf-8|\*)$/i.test(it.value) && qOf(it) > 0))
  .map(({ items, space, tight }) =>
    headerForm(
      ['accept-charset', list(items, space, tight)],
      'equivalent-http',
      `${RFC9110} §12.5.2 (UTF-8, the charset JSON is written in, accepted)`,
    ),
  );

/** User-Agent of real clients (§10.1.5: product tokens and comments). */
export const USER_AGENTS = [
  'curl/8.5.0',
  'python-requests/2.31.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'node',
  'k6/0.52.0 (https://k6.io/)',
  'Go-http-client/1.1',
  'okhttp/4.12.0',
  'PostmanRuntime/7.39.0',
  'axios/1.7.2',
  'Java-http-client/17.0.12',
  'Wget/1.21.4',
];
const userAgentArb = fc
  .constantFrom(...USER_AGENTS)
  .map((ua) => headerForm(['user-agent', ua], 'equivalent-http', `${RFC9110} §10.1.5 (any product; the spec names no client)`));

// close one time in four: each costs the client a new connection (a run spends its CPU where it finds most).
const connectionArb = fc
  .tuple(fc.oneof({ weight: 3, arbitrary: fc.constant('keep-alive') }, { weight: 1, arbitrary: fc.constant('close') }), caseMask)
  .map(([v, m]) => headerForm(['connection', cased(v, m)], 'equivalent-http', `${RFC9110} §7.6.1 (connection options)`));

const cacheControlArb = fc
  .constantFrom('no-cache', 'max-age=0', 'no-store', 'no-cache, no-store, must-revalidate', 'max-age=0, private', 'No-Cache')
  .map((v) =>
    headerForm(
      ['cache-control', v],
      'equivalent-http',
      'RFC 9111 §5.2.1 (request directives: the response may come fresh from the origin)',
    ),
  );

const pragmaArb = fc.constant(headerForm(['pragma', 'no-cache'], 'equivalent-http', 'RFC 9111 §5.4'));

/** application/json in any case, with a charset parameter (any value: RFC 8259 §11, it has no effect) and OWS. */
const contentTypeArb: fc.Arbitrary<Form> = fc
  .record({
    mask: caseMask,
    charset: fc.option(fc.constantFrom('utf-8', 'UTF-8', '"utf-8"', 'utf8', 'iso-8859-1', 'us-ascii', '"UTF-8"'), { nil: undefined }),
    name: caseMask,
    before: ows,
    after: ows,
  })
  .map(({ mask, charset, name, before, after }) => {
    const value = `${cased('application/json', mask)}${charset === undefined ? '' : `${before};${after}${cased('charset', name)}=${charset}`}`;
    return headerForm(
      ['content-type', value],
      'equivalent-http',
      `${RFC9110} §8.3.1 (type, subtype and parameter names are case-insensitive), RFC 8259 §11 (a charset parameter has no effect)`,
    );
  });

/** The Bearer scheme in any case, with one or more spaces before the token (§11.1, §11.4: auth-scheme 1*SP token68). */
const authorizationArb: fc.Arbitrary<Form> = fc.tuple(caseMask, fc.integer({ min: 1, max: 3 })).map(([m, n]) => ({
  kind: 'auth',
  id: 'authorization',
  cls: 'equivalent-http',
  label: `Authorization: ${cased('bearer', m)}${' '.repeat(n)}<key>`,
  source: `${RFC9110} §11.1 (the scheme is case-insensitive), §11.4 (1*SP before the credentials)`,
  spelled: `${cased('bearer', m)}${' '.repeat(n)}{key}`,
}));

/** The fields any request may carry; Content-Type only where a body goes. */
const FIELDS: Record<string, fc.Arbitrary<Form>> = {
  accept: acceptArb,
  'accept-encoding': acceptEncodingArb,
  'accept-language': acceptLanguageArb,
  'accept-charset': acceptCharsetArb,
  'user-agent': userAgentArb,
  connection: connectionArb,
  'cache-control': cacheControlArb,
  pragma: pragmaArb,
  authorization: authorizationArb,
};

/**
 * Several header fields at once (each present about one time in two; shrinking leaves them out one by one, so a failure
 * ends on the fields it needs): one request exercises several independent dimensions.
 */
export function headerFormsArb(withBody: boolean): fc.Arbitrary<Form[]> {
  const fields = withBody ? { ...FIELDS, 'content-type': contentTypeArb } : FIELDS;
  const parts = Object.values(fields).map((a) => fc.option(a, { nil: undefined, freq: 2 }));
  return fc.tuple(...parts).map((xs) => xs.filter((x): x is Form => x !== undefined));
}

/** The headers of real clients as they send them by default: examples of the same forms. */
export const CLIENTS: readonly { name: string; headers: Record<string, string>; body?: Record<string, string> }[] = [
  { name: 'curl', headers: { 'user-agent': 'curl/8.5.0', accept: '*/*' } },
  { name: 'curl --compressed', headers: { 'user-agent': 'curl/8.5.0', accept: '*/*', 'accept-encoding': 'deflate, gzip, br, zstd' } },
  {
    name: 'a browser (fetch)',
    headers: {
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br, zstd',
      'accept-language': 'en-US,en;q=0.9',
      'user-agent': USER_AGENTS[2],
      connection: 'keep-alive',
      'cache-control': 'no-cache',
      pragma: 'no-cache',
    },
    body: { 'content-type': 'application/json;charset=UTF-8' },
  },
  {
    name: "Node's fetch",
    headers: { accept: '*/*', 'accept-encoding': 'gzip, deflate', 'accept-language': '*', 'user-agent': 'node', connection: 'keep-alive' },
    body: { 'content-type': 'application/json' },
  },
  {
    name: 'Python requests',
    headers: { 'user-agent': 'python-requests/2.31.0', 'accept-encoding': 'gzip, deflate', accept: '*/*', connection: 'keep-alive' },
  },
  { name: 'k6', headers: { 'user-agent': 'k6/0.52.0 (https://k6.io/)', 'accept-encoding': 'gzip' } },
  {
    name: 'axios',
    headers: { accept: 'application/json, text/plain, */*', 'user-agent': 'axios/1.7.2', 'accept-encoding': 'gzip, compress, deflate, br' },
    body: { 'content-type': 'application/json' },
  },
  {
    name: 'Postman',
    headers: {
      'user-agent': 'PostmanRuntime/7.39.0',
      accept: '*/*',
      'cache-control': 'no-cache',
      'accept-encoding': 'gzip, deflate, br',
      connection: 'keep-alive',
    },
  },
];

/** A client's default headers as forms (equivalent: each accepts JSON and identity). */
export function clientForms(c: (typeof CLIENTS)[number], withBody: boolean): Form[] {
  const all = { ...c.headers, ...(withBody ? (c.body ?? {}) : {}) };
  return Object.entries(all).map(([k, v]) =>
    headerForm([k, v], 'equivalent-http', `${c.name}'s default (${RFC9110})`, `${k}: ${v} (${c.name})`),
  );
}

const auth = (spelled: string, label: string): Form => ({
  kind: 'auth',
  id: 'authorization',
  cls: 'equivalent-http',
  label,
  source: `${RFC9110} §11.1 (the scheme is case-insensitive), §11.4 (credentials = auth-scheme 1*SP token68)`,
  spelled,
});

/** Accept, Accept-Charset and the Authorization spelling of any operation: the hand-written examples of the forms above. */
export const HEADER_EXAMPLES: readonly Form[] = [
  headerForm(['accept', '*/*'], 'equivalent-http', `${RFC9110} §12.5.1`),
  headerForm(['accept', null], 'equivalent-http', `${RFC9110} §12.5.1 (no Accept: any media type)`),
  headerForm(['accept', 'application/*'], 'equivalent-http', `${RFC9110} §12.5.1`),
  headerForm(['accept', 'text/html;q=0.9, application/json'], 'equivalent-http', `${RFC9110} §12.4.2`),
  headerForm(
    ['accept', 'application/json; charset=utf-8'],
    'equivalent-http',
    `${RFC9110} §12.5.1 (a media range with parameters), RFC 8259 §11`,
  ),
  headerForm(['accept', 'Application/JSON'], 'equivalent-http', `${RFC9110} §8.3.1 (type and subtype are case-insensitive)`),
  headerForm(['accept-charset', 'utf-8'], 'equivalent-http', `${RFC9110} §12.5.2 (UTF-8, the charset JSON is written in, accepted)`),
  headerForm(['accept', 'text/html'], 'refusable', `${RFC9110} §12.5.1 (406, or disregard Accept)`),
  auth('bearer {key}', 'Authorization: bearer <key>'),
  auth('BEARER {key}', 'Authorization: BEARER <key>'),
  auth('Bearer  {key}', 'Authorization: Bearer  <key> (two spaces)'),
];

/**
 * No Authorization field: the request is refused with a 401 Error (Authentication), whatever else it carries — what an
 * error answer is made of when the surface forms ride on it.
 */
export const NO_CREDENTIALS: Form = headerForm(
  ['authorization', null],
  'invalid',
  'the spec (Authentication: a missing key is answered 401)',
  'no credentials',
);

/** Accept-Encoding that names codings without the common one, or refuses it by its weight (the response's coding is judged). */
export const ENCODING_EXAMPLES: readonly Form[] = [
  headerForm(['accept-encoding', 'identity'], 'equivalent-http', `${RFC9110} §12.5.3 (no coding but identity)`),
  headerForm(['accept-encoding', 'br;q=1.0, gzip;q=0'], 'equivalent-http', `${RFC9110} §12.5.3 (gzip refused by its weight)`),
];

/** Content-Type spellings of application/json (a createPet with a valid body). */
export const CONTENT_TYPE_EXAMPLES: readonly Form[] = [
  ['application/json; charset=utf-8', `${RFC9110} §8.3.1, RFC 8259 §11`],
  ['Application/JSON;Charset=UTF-8', `${RFC9110} §8.3.1 (type, subtype and parameter names are case-insensitive)`],
  ['application/json ; charset="utf-8"', `${RFC9110} §5.6.6 (parameters: OWS ";" OWS, quoted values)`],
  ['application/json; charset=iso-8859-1', 'RFC 8259 §11 (a charset parameter has no effect on compliant recipients: the body is UTF-8)'],
].map(([value, source]) => headerForm(['content-type', value], 'equivalent-http', source));
