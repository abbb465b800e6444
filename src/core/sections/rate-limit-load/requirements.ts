/**
 * Each plan's limits under load: the 429 at the ceiling, recovery, the window, the daily quota.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

/**
 * What the k6 engine says of any requirement a scenario judges (every entry a scenario lists has these titles): the
 * outcome handleSummary read from its fixed-name metric (the message is in k6's log), a failure threshold no judgement explains.
 */
export const SCENARIO_TITLES = {
  carried: 'Outcome carried by k6 metrics',
  threshold: 'k6 threshold failed',
} as const;

/** What is said of a scenario's own requirement (the first it lists) when the run itself broke: a suite error. */
export const RUN_TITLES = {
  unfinished: 'The scenario did not finish',
  'no-report': 'k6 ended without a report',
  'no-request': 'No request in the shares',
} as const;

/** What a scenario that got no 429 says of what a 429 must carry. */
export const NO_429_TITLES = { 'no-429': 'No 429 to judge' } as const;

export const RATE_LIMIT_LOAD = section('rate-limit-load', {
  'RL-CEILING-429': {
    level: 'MUST',
    section: 'Limits / Behaviour at the limit',
    quote: 'A request exceeding the limit receives 429 Too Many Requests.',
    title: "The first request beyond the plan's per-minute limit is answered 429, exactly when Remaining said.",
    by: 'load',
    faults: ['never-429', 'throttle-503'],
    titles: {
      ...SCENARIO_TITLES,
      ...RUN_TITLES,
      pass: '429 exactly when predicted',
      fail: '429 not when predicted',
      'at-limit': '429 at the limit',
      'before-plan-limit': "429 before the plan's limit",
      'no-429': 'No 429 at the limit',
      'not-measured': 'Ceiling not measured',
      'not-reached': 'Ceiling not reached',
      'too-slow': 'Limit not reached at this latency',
      'no-remaining': 'Not judged without Remaining',
      'other-status': 'Throttled with {status}, the spec says 429',
    },
  },
  'RL-NOT-EARLY': {
    level: 'MUST',
    section: 'Limits / Rate limits by plan',
    quote: '| Plan | Requests per minute |',
    title: "No request is throttled while X-RateLimit-Remaining is above zero or below the plan's limit.",
    by: 'load',
    faults: ['throttle-after-idle', 'throttle-early'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'No early 429',
      fail: 'Throttled before the limit',
      'before-any-use': 'Throttled before any use',
      banned: 'Key seems banned',
      'already-throttled': 'Key already throttled',
      'counts-day': 'Not judged',
      share: 'Not judged on a share',
    },
  },
  'RL-RETRY-AFTER-CONSISTENT': {
    level: 'SHOULD',
    section: 'Limits / Behaviour at the limit',
    quote: 'the client waits the indicated time before retrying.',
    title: 'Retry-After agrees with X-RateLimit-Reset within a small tolerance.',
    by: 'load',
    faults: ['reset-is-now'],
    titles: {
      ...SCENARIO_TITLES,
      ...NO_429_TITLES,
      pass: 'Retry-After agrees with Reset',
      fail: 'Retry-After asks to wait beyond Reset',
      'earlier-slot': 'Retry-After names an earlier free slot',
      incomparable: 'Retry-After vs Reset not comparable',
      'counts-day': 'Not comparable',
      ban: 'Retry-After asks for a ban, Reset for the window',
    },
  },
  'RL-BAN-EARNED': {
    level: 'MUST',
    section: 'Limits / Behaviour at the limit',
    quote: 'A client that keeps sending requests after a 429 may have its API key banned temporarily.',
    title: 'A key that has sent nothing after a 429 is not banned: its first 429 asks to wait no longer than X-RateLimit-Reset announces.',
    by: 'load',
    note: "The ban is for a client that keeps sending after a 429; the suite knows whether it did. On the first 429 of a window the limit was exactly reached in (Remaining 0 before it, no other client counted), a Retry-After beyond a window while Reset announces the window's end contradicts both the Reset and the spec's ban. Where a ban could have been earned, RL-RETRY-AFTER-CONSISTENT warns instead.",
    faults: ['unearned-ban'],
    titles: {
      ...SCENARIO_TITLES,
      ...NO_429_TITLES,
      pass: 'No ban before one was earned',
      fail: 'Banned on the first 429',
      earnable: 'Not judged: a ban may have been earned',
      incomparable: 'Not judged: no Retry-After or Reset',
    },
  },
  'RL-RECOVERY': {
    level: 'MUST',
    section: 'Limits / Behaviour at the limit',
    quote: 'The response carries a Retry-After header; the client waits the indicated time before retrying.',
    title: 'After waiting Retry-After, the next request succeeds.',
    by: 'load',
    faults: ['429-instead-of-401', 'retry-after-too-short'],
    titles: {
      ...SCENARIO_TITLES,
      ...RUN_TITLES,
      pass: 'Recovered after Retry-After',
      fail: 'Still throttled after Retry-After',
      'no-429': 'No 429 to recover from',
      'not-tried': 'Recovery not tried',
      'early-probe': 'Probe sent before Retry-After',
      'no-retry-after': 'Not judgeable: no usable Retry-After',
      'served-after-retry-after': 'Served after Retry-After',
      'still-429-after-retry-after': 'Still 429 after Retry-After',
      'limit-shared-by-address': 'Not judged: a limit shared by the address',
    },
  },
  'RL-429-NOTHING-STORED': {
    level: 'MUST',
    section: 'Errors',
    quote: 'Rate limit exceeded (see Limits). The client must back off and retry after the time in the `Retry-After` header.',
    title: 'A createPet refused with 429 stores nothing: once its Retry-After has passed, the page of its status does not list it.',
    by: 'load',
    note: "The spec tells a client refused with 429 to retry after Retry-After: a refused create stored all the same (the limiter's decision not awaited) is created twice by every client that does as told. Judged where writes are allowed: the ceiling's request beyond the limit is a POST of a unique name, read back on a page of its status that lists every animal of it.",
    faults: ['create-429-stored'],
    titles: {
      ...SCENARIO_TITLES,
      pass: 'A createPet refused with 429 stored nothing',
      fail: 'A createPet refused with 429 was stored anyway',
      'no-refused-create': 'No createPet refused with 429',
      unpredictable: 'Not judged: the headers cannot say which request is beyond the limit',
      'not-read-back': 'The refused createPet was not read back',
      'full-page': 'Not judged: the page of its status is full',
    },
  },
  'RL-SUSTAINED-BELOW-CEILING': {
    level: 'MUST',
    section: 'Limits / Rate limits by plan',
    quote: '| Pro | 300 | 10,000 |',
    title: 'A steady rate just below the ceiling for a full window is never throttled.',
    by: 'load',
    faults: ['sustained-throttle'],
    titles: {
      ...SCENARIO_TITLES,
      ...RUN_TITLES,
      pass: 'Never throttled below the ceiling',
      fail: 'Throttled below the ceiling',
      'paced-not-run': 'Sustained rate not run',
      'day-over': "The day's quota ran out",
      share: 'Not judged on a share',
      'short-run': 'Ran less than a window',
      'rate-not-reached': 'Sustained rate not reached',
    },
  },
  'RL-WINDOW-PER-MINUTE': {
    level: 'MUST',
    section: 'Limits / Rate limits by plan',
    quote: 'Requests per minute',
    title: 'Above the ceiling, successes in any minute never exceed the limit, and the limit is per minute, not per shorter window.',
    by: 'load',
    faults: ['window-10s'],
    titles: {
      ...SCENARIO_TITLES,
      ...RUN_TITLES,
      pass: 'Limit enforced per window',
      fail: 'Limit not enforced per window',
      'paced-not-run': 'Overload not run',
      share: 'Not judged on a share',
      'not-reached': 'Overload not reached',
      'none-served': 'No request served',
    },
  },
  'RL-DAILY-QUOTA': {
    level: 'MUST',
    section: 'Limits / Rate limits by plan',
    quote: 'Requests per day',
    title: "The per-day quota is enforced at the plan's number (opt-in scenario).",
    by: 'load',
    faults: ['daily-ignored', 'daily-quota-low'],
    titles: {
      ...SCENARIO_TITLES,
      ...RUN_TITLES,
      pass: 'Daily quota enforced',
      'with-earlier': "Daily quota enforced, counting this run's earlier requests",
      exceeded: 'Daily quota exceeded',
      low: 'Daily quota below the plan’s',
      early: 'Daily quota hit early',
      'not-enforced': 'Daily quota not enforced',
      unknown: 'Daily quota unknown',
      'not-reached': 'Daily quota not reached',
    },
  },
});
