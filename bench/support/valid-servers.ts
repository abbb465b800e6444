/**
 * Servers that are unusual but valid: the suite must certify each with no
 * failure and no warning (test/conformance/reference-passes.test.ts), over any
 * seed of the exploration phase (npm run bench, group explore).
 */
import type { AppOptions } from '../../reference/options.ts';

export const VALID_SERVERS: { name: string; options: AppOptions }[] = [
  { name: 'the reference server', options: {} },
  { name: 'a server sending Retry-After as an HTTP-date', options: { variants: { retryAfter: 'http-date' } } },
  { name: 'a server with a sliding-window limiter', options: { variants: { limiter: 'sliding' } } },
  { name: 'a server that clamps an out-of-range limit', options: { variants: { outOfRangeLimit: 'clamp' } } },
  { name: 'a server that gives no default status', options: { variants: { defaultStatus: 'none' } } },
  { name: 'a server that answers slowly', options: { variants: { latencyMs: 40 } } },
  { name: 'a server that issues small ids', options: { firstId: 1n } },
  { name: 'a server that issues ids next to the ones the suite probes as unknown', options: { firstId: 9223372036854770000n } },
  { name: 'a server whose rate-limit headers count the day, not the minute', options: { variants: { rateLimitHeaders: 'day' } } },
  { name: 'a server adding undocumented fields that differ between responses', options: { variants: { extraFields: true } } },
  { name: 'a server with a token-bucket limiter', options: { variants: { limiter: 'token-bucket' } } },
  { name: 'a server labelling JSON with charset=utf-8', options: { variants: { wire: { contentType: 'charset' } } } },
  {
    name: "a server answering in the content coding the request's Accept-Encoding prefers (gzip, br, deflate)",
    options: { variants: { wire: { compress: true } } },
  },
  {
    name: 'a server sending WWW-Authenticate on 401s, no Date header, Connection: close and chunked bodies',
    options: { variants: { wire: { wwwAuthenticate: true, noDate: true, chunkedClose: true } } },
  },
  {
    name: 'a server with odd-case header names, ETag, Cache-Control, RateLimit-* and spaced JSON',
    options: { variants: { wire: { oddHeaders: true, prettyJson: true } } },
  },
  { name: 'a server rejecting names over 255 characters with 422', options: { variants: { longNames: 'reject-422' } } },
  // Inputs the spec is silent about, refused with a clean 400 Error or stored trimmed (the exploration phase meets them).
  { name: 'a server refusing names with control characters', options: { variants: { nameCharacters: 'no-controls' } } },
  { name: 'a server accepting only printable ASCII names', options: { variants: { nameCharacters: 'printable-ascii' } } },
  { name: 'a server refusing names over 64 characters', options: { variants: { nameMaxLength: 64 } } },
  { name: 'a server refusing unknown body properties', options: { variants: { unknownProperties: 'reject' } } },
  { name: 'a server refusing integers written non-canonically (1.0, 1e2, +5, 007)', options: { variants: { strictIntegers: true } } },
  { name: 'a server refusing a categoryId or petId below 1', options: { variants: { positiveIds: true } } },
  { name: 'a server storing names without their leading and trailing spaces', options: { variants: { trimNames: true } } },
  // Choices RFC 8259, 9110 and 3986 leave to a server about a request's surface (the exploration phase varies it).
  {
    name: 'a server keeping the first of duplicated members, ignoring a BOM, reading any depth, taking the last of repeated parameters',
    options: { variants: { surface: { duplicateMembers: 'first', bom: 'ignore', unlimitedNesting: true, repeatedParams: 'last' } } },
  },
  {
    name: 'a server refusing duplicated members and repeated or unknown parameters with a 400 Error',
    options: { variants: { surface: { duplicateMembers: 'reject', repeatedParams: 'reject', unknownParams: 'reject' } } },
  },
  {
    name: 'a server refusing other media types with 415, an Accept without JSON with 406, and reading parameter names in any case',
    options: { variants: { surface: { mediaType: 'strict', accept: 'strict', caseInsensitiveParams: true } } },
  },
  {
    name: 'a server ignoring a non-integer limit and padding Retry-After',
    options: { variants: { nonIntegerLimit: 'default', retryAfterPaddingS: 1 } },
  },
  // Methods, paths and routers (reference/methods.ts): choices RFC 9110 and the spec leave to a server.
  { name: 'a server refusing HEAD with 405 and Allow', options: { variants: { head: '405' } } },
  { name: 'a server answering a CORS preflight 204 without credentials', options: { variants: { cors: true } } },
  { name: 'a server answering OPTIONS 204 with Allow without credentials', options: { variants: { options: 'open' } } },
  {
    name: 'a server answering OPTIONS as Express does, without credentials: 200, Allow and the list as a text body',
    options: { variants: { options: 'express' } },
  },
  { name: 'a server whose router answers 404 and 405 before authentication', options: { variants: { routerFirst: true } } },
  { name: 'a server serving a path with a trailing slash', options: { variants: { trailingSlash: true } } },
  {
    name: 'a server refusing ids outside int64 and non-canonical ids with a 400 Error',
    options: { variants: { idNotInt64: '400', strictIntegers: true } },
  },
];
