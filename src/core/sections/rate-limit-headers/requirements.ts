/**
 * Rate limit headers on every response, and what every 429 carries.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';
import { NO_429_TITLES, SCENARIO_TITLES } from '../rate-limit-load/requirements.ts';

export const RATE_LIMIT_HEADERS = section('rate-limit-headers', {
  'RL-HEADERS-PRESENT': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'Every API response carries these headers',
    title: 'Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.',
    faults: ['ratelimit-headers-missing-on-errors', 'idle-keepalive-502'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Rate-limit headers present',
      fail: 'Rate-limit header missing',
      'no-status': 'No {status} to inspect',
    },
  },
  'RL-HEADERS-INTEGER': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'X-RateLimit-Limit | The request limit in force.',
    title: 'X-RateLimit-Limit and X-RateLimit-Remaining are non-negative integers.',
    faults: ['ratelimit-non-integer', 'ratelimit-limit-duplicated', 'remaining-negative-on-429'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Integer rate-limit headers',
      fail: 'Rate-limit header is not a non-negative integer',
    },
  },
  'RL-REMAINING-LE-LIMIT': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'X-RateLimit-Remaining | Requests remaining in the current window.',
    title: 'X-RateLimit-Remaining never exceeds X-RateLimit-Limit.',
    faults: ['remaining-above-limit'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Remaining within Limit',
      fail: 'Remaining exceeds Limit',
    },
  },
  'RL-LIMIT-PLAN': {
    level: 'MUST',
    section: 'Limits / Rate limits by plan',
    quote: '| Free | 60 | 1,000 |',
    title: "X-RateLimit-Limit on an authenticated response equals the plan's per-minute (or per-day) limit.",
    faults: ['wrong-plan-limit'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Limit matches the plan',
      fail: 'Limit differs from the plan',
      'no-plan': 'Limit observed without a plan',
      'plan-not-given': 'Not exercised: plan not given',
      'custom-plan': 'Limit observed for a custom plan',
      'limits-not-given': 'Not exercised: enterprise limits not given',
    },
  },
  'RL-LIMIT-CONSTANT': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'X-RateLimit-Limit | The request limit in force.',
    title: 'X-RateLimit-Limit stays the same for one key throughout a run.',
    faults: ['limit-varies'],
    titles: {
      pass: 'Limit unchanged',
      fail: 'Limit changed during the run',
      'per-day': "Limit moved between the plan's per-minute and per-day numbers",
    },
  },
  'RL-RESET-UNIX-SECONDS': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'X-RateLimit-Reset | Unix timestamp at which the limit resets.',
    title: 'X-RateLimit-Reset is a Unix timestamp in seconds, no earlier than the response and at most one window later.',
    faults: ['reset-in-past', 'reset-in-ms', 'reset-relative', 'reset-one-window-late'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Reset is a Unix timestamp in seconds',
      fail: 'Reset is not a Unix timestamp in seconds ({reason})',
      stale: 'Reset is not when the limit resets',
      late: 'Reset lies beyond the minute’s window',
    },
  },
  'RL-REMAINING-DECREMENTS': {
    level: 'MUST',
    section: 'Limits / Rate limit headers',
    quote: 'Requests remaining in the current window.',
    title: 'X-RateLimit-Remaining falls by one for each request in a window.',
    faults: ['remaining-not-falling', 'remaining-falls-by-two', 'plans-share-bucket', 'create-counted-twice', 'limit-per-route'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'Remaining falls by one per request',
      fail: 'Remaining does not fall by one',
      foreign: 'Requests of another key counted on this one',
      'own-only': "Only this key's own requests counted",
      refilling: 'Refilled as fast as sent',
      sequential: 'Remaining does not fall by one per request',
      'per-operation': 'Remaining counted per operation, not per key',
      'counted-more': 'Requests of one operation counted more than once',
    },
  },
  'RL-429-RETRY-AFTER': {
    level: 'MUST',
    section: 'Limits / Behaviour at the limit',
    quote: 'The response carries a Retry-After header',
    title: 'Every 429 carries a Retry-After header with delay-seconds or an HTTP-date.',
    by: 'load',
    faults: ['no-retry-after', 'retry-after-negative'],
    titles: {
      ...SCENARIO_TITLES,
      ...NO_429_TITLES,
      pass: 'Retry-After present',
      fail: '429 without Retry-After',
      malformed: 'Retry-After is malformed',
    },
  },
  'RL-429-ERROR-BODY': {
    level: 'SHOULD',
    section: 'Errors',
    quote: 'The body of a 429 response: not shown.',
    title: 'A 429 body is an Error.',
    by: 'load',
    note: 'The Errors section says every error response has the Error body; the 429 body itself is not shown, so this is a SHOULD.',
    faults: ['429-body-not-error'],
    titles: {
      ...SCENARIO_TITLES,
      ...NO_429_TITLES,
      pass: '429 body is an Error',
      fail: '429 body is not an Error',
    },
  },
  'RL-429-REMAINING-ZERO': {
    level: 'SHOULD',
    section: 'Limits / Behaviour at the limit',
    quote: 'A request exceeding the limit receives 429 Too Many Requests.',
    title: 'A 429 carries X-RateLimit-Remaining 0.',
    by: 'load',
    faults: ['remaining-on-429'],
    titles: {
      ...SCENARIO_TITLES,
      ...NO_429_TITLES,
      pass: '429 with Remaining 0',
      fail: '429 with Remaining above zero',
      'counts-day': 'Not judged',
    },
  },
  'RL-SCOPE': {
    level: 'INFO',
    section: 'Limits / Behaviour at the limit',
    quote: 'Whether these rate limits apply to the animal endpoints specifically: not shown.',
    title: 'Whether the animal endpoints are rate limited is observed from the headers.',
    titles: {
      'rate-limited': 'Animal endpoints carry rate-limit headers',
      'by-status': 'Rate-limit headers by status',
      unauthenticated: 'A request without a valid key: {counted}',
    },
  },
});
