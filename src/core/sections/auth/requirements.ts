/**
 * Authentication: the bearer key, decided before anything else.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const AUTH = section('auth', {
  'AUTH-MISSING-401': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'When the key is missing or invalid, the service answers 401 with an Error body.',
    title: 'A request without an Authorization header is answered 401 on every operation.',
    faults: ['auth-missing-accepted', 'cache-serves-anonymous'],
    titles: {
      pass: '{operation} answered 401',
      fail: 'Bad credential not rejected with 401',
    },
  },
  'AUTH-WRONG-SCHEME-401': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'Scheme: HTTP bearer.',
    title: 'A key sent with another scheme than Bearer is answered 401 on every operation.',
    faults: ['auth-any-scheme', 'basic-password-key'],
    titles: {
      pass: '{operation} answered 401',
      fail: 'Bad credential not rejected with 401',
    },
  },
  'AUTH-EMPTY-TOKEN-401': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'When the key is missing or invalid, the service answers 401 with an Error body.',
    title: 'A Bearer header with an empty token is answered 401 on every operation.',
    faults: ['auth-empty-token-accepted'],
    titles: {
      pass: '{operation} answered 401',
      fail: 'Bad credential not rejected with 401',
    },
  },
  'AUTH-UNKNOWN-KEY-401': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'When the key is missing or invalid, the service answers 401 with an Error body.',
    title: 'An unknown key is answered 401 on every operation.',
    faults: ['auth-unknown-key-accepted', 'auth-prefix-match', 'key-case-insensitive', 'token-unanchored'],
    titles: {
      pass: '{operation} answered 401',
      fail: 'Bad credential not rejected with 401',
    },
  },
  'AUTH-BEFORE-VALIDATION': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'All endpoints require the bearer credential described under Authentication.',
    title: 'Authentication is decided before validation or lookup: unauthenticated bad requests get 401, not 400 or 404.',
    faults: ['validate-before-auth'],
    titles: {
      pass: 'Authentication decided first',
      fail: 'Validation or lookup before authentication',
    },
  },
  'AUTH-VALID-KEY-ACCEPTED': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'The client sends its API key as the bearer token in the Authorization header.',
    title: 'A valid key is accepted (no 401) on every operation.',
    faults: ['auth-rejects-valid-key'],
    titles: {
      pass: 'Valid key accepted',
      fail: 'Valid key refused',
      accepted: '{operation} accepted the key',
      rejected: 'Valid key rejected',
    },
  },
  'AUTH-EVERY-METHOD': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'All endpoints require the bearer credential described under Authentication.',
    title: 'No method on any path of the API is answered 2xx without a valid key (HEAD and methods the spec does not list included).',
    note: 'RFC 9110 §9.3.2: HEAD is GET without content, so a HEAD served without the key serves what GET refuses (verb tampering, OWASP API2). An OPTIONS answered 2xx without a key is observed, never failed: a CORS preflight carries no credentials (Fetch standard), and OPTIONS describes the resource (RFC 9110 §9.3.7).',
    faults: ['head-skips-auth', 'undocumented-delete-no-auth'],
    titles: {
      pass: '{method} {path} refused without a valid key',
      fail: 'A method served without a valid key',
      options: 'OPTIONS answered without a key',
    },
  },
  'AUTH-KEY-CHANNEL': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'The client sends its API key as the bearer token in the Authorization header.',
    title: 'The key sent anywhere but the Authorization header (a query parameter, another header, a cookie) is answered 401.',
    note: 'A request with no Authorization header carries no credential the spec knows of: "When the key is missing or invalid, the service answers 401". A key read from a URL is also written to access logs and Referer headers (RFC 6750 §5.3).',
    faults: ['key-from-query', 'key-from-header'],
    titles: {
      pass: 'The key in {channel} refused',
      fail: 'The key accepted outside the Authorization header',
    },
  },
  'AUTH-KEY-IN-URL': {
    level: 'SHOULD',
    section: 'Authentication',
    quote: 'The client sends its API key as the bearer token in the Authorization header.',
    title: 'The key in the access_token query parameter is refused (RFC 6750 §2.3 defines that form; the spec names the header only).',
    note: "RFC 6750 §2.3 lets a resource server take a bearer token from the access_token URI query parameter, and §5.3 says it SHOULD NOT be used (tokens in URLs end up in logs). The spec names the Authorization header; a server taking the RFC's other form is warned, never failed.",
    faults: ['access-token-query-accepted'],
    titles: {
      pass: 'The key in access_token refused',
      fail: 'The key accepted in the access_token query parameter',
    },
  },
});
