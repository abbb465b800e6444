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
    faults: ['auth-any-scheme'],
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
    faults: ['auth-unknown-key-accepted', 'auth-prefix-match'],
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
});
