/**
 * Each plan's limits under load: the 429 at the ceiling, recovery, the window, the daily quota.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const RATE_LIMIT_LOAD = section("rate-limit-load", {
  "RL-CEILING-429": {
    level: "MUST",
    section: "Limits / Behaviour at the limit",
    quote: "A request exceeding the limit receives 429 Too Many Requests.",
    title: "The first request beyond the plan's per-minute limit is answered 429, exactly when Remaining said.",
    by: 'load',
    faults: ["never-429"],
  },
  "RL-NOT-EARLY": {
    level: "MUST",
    section: "Limits / Rate limits by plan",
    quote: "| Plan | Requests per minute |",
    title: "No request is throttled while X-RateLimit-Remaining is above zero or below the plan's limit.",
    by: 'load',
    faults: ["throttle-after-idle", "throttle-early"],
  },
  "RL-RETRY-AFTER-CONSISTENT": {
    level: "SHOULD",
    section: "Limits / Behaviour at the limit",
    quote: "the client waits the indicated time before retrying.",
    title: "Retry-After agrees with X-RateLimit-Reset within a small tolerance.",
    by: 'load',
    faults: ["reset-is-now"],
  },
  "RL-RECOVERY": {
    level: "MUST",
    section: "Limits / Behaviour at the limit",
    quote: "The response carries a Retry-After header; the client waits the indicated time before retrying.",
    title: "After waiting Retry-After, the next request succeeds.",
    by: 'load',
    faults: ["429-instead-of-401", "retry-after-too-short"],
    titles: {
      'served-after-retry-after': 'Served after Retry-After',
      'still-429-after-retry-after': 'Still 429 after Retry-After',
      'limit-shared-by-address': 'Not judged: a limit shared by the address',
    },
  },
  "RL-SUSTAINED-BELOW-CEILING": {
    level: "MUST",
    section: "Limits / Rate limits by plan",
    quote: "| Pro | 300 | 10,000 |",
    title: "A steady rate just below the ceiling for a full window is never throttled.",
    by: 'load',
    faults: ["sustained-throttle"],
  },
  "RL-WINDOW-PER-MINUTE": {
    level: "MUST",
    section: "Limits / Rate limits by plan",
    quote: "Requests per minute",
    title: "Above the ceiling, successes in any minute never exceed the limit, and the limit is per minute, not per shorter window.",
    by: 'load',
    faults: ["window-10s"],
  },
  "RL-DAILY-QUOTA": {
    level: "MUST",
    section: "Limits / Rate limits by plan",
    quote: "Requests per day",
    title: "The per-day quota is enforced at the plan's number (opt-in scenario).",
    by: 'load',
    faults: ["daily-ignored", "daily-quota-low"],
  },
});
