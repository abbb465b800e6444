/**
 * The valid variants of the reference server as `npm run reference` takes them
 * (`--variants limiter=sliding,retryAfter=http-date`), one line each in its
 * --help: unusual behaviours the suite must never fail. Each is certified
 * without a warning, except where its description says a requirement warns (a
 * departure from the spec's letter that clients commonly accept: the run is
 * passed, incomplete — not certified).
 */
import type { Variants } from './options.ts';

export interface VariantSpec {
  name: string;
  /** Allowed values ("N" for a number, "yes" for a switch). */
  values: readonly string[];
  description: string;
}

export const VARIANTS: readonly VariantSpec[] = [
  { name: 'retryAfter', values: ['seconds', 'http-date'], description: 'Retry-After as delay-seconds or as an HTTP-date' },
  {
    name: 'limiter',
    values: ['fixed', 'sliding', 'token-bucket'],
    description: 'per-minute window: fixed, a sliding log, or a token bucket',
  },
  { name: 'outOfRangeLimit', values: ['reject', 'clamp'], description: 'listPets limit outside 1..100: 400 Error, or clamped into range' },
  {
    name: 'nonIntegerLimit',
    values: ['reject', 'default'],
    description: 'listPets limit that is no integer: 400 Error, or the default page',
  },
  { name: 'retryAfterPaddingS', values: ['N'], description: 'seconds added to every Retry-After (a conservative wait)' },
  { name: 'longNames', values: ['accept', 'reject-422'], description: 'names longer than 255 characters: accepted, or 422 with an Error' },
  { name: 'defaultStatus', values: ['available', 'none'], description: 'status of a pet created without one' },
  {
    name: 'nameCharacters',
    values: ['any', 'no-controls', 'printable-ascii'],
    description: 'names refused with a 400 Error: none, those with control characters, or all outside printable ASCII',
  },
  { name: 'nameMaxLength', values: ['N'], description: 'names longer than N characters refused with a 400 Error (0: none)' },
  { name: 'unknownProperties', values: ['ignore', 'reject'], description: 'createPet properties outside NewPet: ignored, or a 400 Error' },
  { name: 'strictIntegers', values: ['yes'], description: 'integers written non-canonically (1.0, 1e2, +5, 007) refused with a 400 Error' },
  { name: 'positiveIds', values: ['yes'], description: 'categoryId or petId below 1 refused with a 400 Error' },
  { name: 'trimNames', values: ['yes'], description: 'names stored without leading and trailing spaces' },
  { name: 'latencyMs', values: ['N'], description: 'delay before every response' },
  {
    name: 'latencyJitterMs',
    values: ['N'],
    description: 'up to N ms more per request, partly before it is counted: responses overtake one another',
  },
  {
    name: 'banOnEarlyRetry',
    values: ['yes'],
    description: 'a key retrying before Retry-After is banned for 10 windows (the spec allows it)',
  },
  { name: 'rateLimitHeaders', values: ['minute', 'day'], description: "X-RateLimit-* describe the minute, or the day's quota" },
  { name: 'extraFields', values: ['yes'], description: 'undocumented fields on every Pet' },
  {
    name: 'contentType',
    values: ['charset', 'problem'],
    description:
      'application/json; charset=utf-8 (certified), or application/problem+json errors (RESP-CONTENT-TYPE-JSON warns: passed, incomplete, not certified)',
  },
  { name: 'wwwAuthenticate', values: ['yes'], description: '401s carry WWW-Authenticate: Bearer' },
  { name: 'noDate', values: ['yes'], description: 'no Date header' },
  { name: 'chunkedClose', values: ['yes'], description: 'Connection: close and chunked bodies' },
  { name: 'oddHeaders', values: ['yes'], description: 'header names in odd case, plus ETag, Cache-Control, RateLimit-* and friends' },
  { name: 'prettyJson', values: ['yes'], description: 'JSON with insignificant whitespace' },
  {
    name: 'compress',
    values: ['yes'],
    description: "bodies in the content coding the request's Accept-Encoding prefers (gzip, br, deflate)",
  },
  {
    name: 'duplicateMembers',
    values: ['last', 'first', 'reject'],
    description: 'a body member given twice: its last value, its first, or a 400 Error',
  },
  { name: 'bom', values: ['reject', 'ignore'], description: 'a byte order mark before the body: a 400 Error, or ignored' },
  { name: 'unlimitedNesting', values: ['yes'], description: 'bodies nested to any depth are read (default: 400 beyond 256 levels)' },
  { name: 'mediaType', values: ['lenient', 'strict'], description: 'createPet without Content-Type application/json: read, or 415' },
  { name: 'accept', values: ['ignore', 'strict'], description: 'an Accept without application/json: the JSON anyway, or 406' },
  {
    name: 'repeatedParams',
    values: ['first', 'last', 'reject'],
    description: 'a query parameter given twice: its first value, its last, or a 400 Error',
  },
  { name: 'caseInsensitiveParams', values: ['yes'], description: 'query parameter names in any case (LIMIT is limit)' },
  { name: 'unknownParams', values: ['ignore', 'reject'], description: 'unknown query parameters: ignored, or a 400 Error' },
  // methods, paths and routers (reference/methods.ts)
  { name: 'head', values: ['get', '405'], description: 'HEAD served as GET, or 405 with Allow' },
  { name: 'cors', values: ['yes'], description: 'a CORS preflight answered 204 without credentials' },
  {
    name: 'options',
    values: ['after-auth', 'open', 'express'],
    description: "OPTIONS: 204 with Allow after the key, 204 with Allow without credentials, or Express's 200 with Allow and a text body",
  },
  { name: 'routerFirst', values: ['yes'], description: 'the router decides before authentication: 404 and 405 with or without a key' },
  { name: 'trailingSlash', values: ['yes'], description: 'a path with a trailing slash served as the path without it' },
  { name: 'idNotInt64', values: ['404', '400'], description: 'a petId outside int64: 404, or a 400 Error' },
  // held out with the faults of issue 39 (reference/held-out-variants-39.ts)
  { name: 'listOrder', values: ['created', 'newest', 'name'], description: 'the order of a page: as created, newest first, or by name' },
  { name: 'ids', values: ['sequential', 'snowflake'], description: 'ids of created pets: a sequence, or Snowflake ids (far apart)' },
  {
    name: 'maxRequestsPerConnection',
    values: ['N'],
    description: 'a connection closed after N requests, the last answered Connection: close (0: no limit)',
  },
];

const WIRE = [
  'contentType',
  'wwwAuthenticate',
  'noDate',
  'chunkedClose',
  'oddHeaders',
  'prettyJson',
  'compress',
  'maxRequestsPerConnection',
];
const SURFACE = [
  'duplicateMembers',
  'bom',
  'unlimitedNesting',
  'mediaType',
  'accept',
  'repeatedParams',
  'caseInsensitiveParams',
  'unknownParams',
];

/** `k=v,k2=v2` → variants. Throws on an unknown name or value. */
export function parseVariants(csv: string | undefined): Partial<Variants> {
  const out: Record<string, unknown> = {};
  const wire: Record<string, unknown> = {};
  const surface: Record<string, unknown> = {};
  for (const item of (csv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, value = 'yes'] = item.split('=').map((s) => s.trim());
    const spec = VARIANTS.find((v) => v.name === name);
    if (!spec) throw new Error(`unknown variant ${JSON.stringify(name)}; known: ${VARIANTS.map((v) => v.name).join(', ')}`);
    let v: unknown;
    if (spec.values[0] === 'N') {
      if (!/^\d+$/.test(value)) throw new Error(`variant ${name} takes a number, got ${JSON.stringify(value)}`);
      v = Number(value);
    } else if (spec.values[0] === 'yes') v = value === 'yes' || value === 'true';
    else if (spec.values.includes(value)) v = value;
    else throw new Error(`variant ${name} must be ${spec.values.join(' or ')}, got ${JSON.stringify(value)}`);
    (WIRE.includes(name) ? wire : SURFACE.includes(name) ? surface : out)[name] = v;
  }
  return {
    ...out,
    ...(Object.keys(wire).length ? { wire: wire } : {}),
    ...(Object.keys(surface).length ? { surface: surface } : {}),
  };
}
