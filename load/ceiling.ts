/**
 * k6 scenario "ceiling" (defined once in load/lib/scenarios.ts; this file only picks it).
 *
 * The question it answers:
 *   Does the first request beyond the plan's limit get a well-formed 429 exactly when
 *   X-RateLimit-Remaining said it would — and never earlier?
 *
 * Load shape:
 *   One VU, one iteration: requests on one key, one at a time (a few in flight only when the
 *   limit would not fit in half a window at the measured round-trip, never more than Remaining
 *   allows), stopping at the first 429 — at most Limit + 1 requests in the window. Must stay
 *   single-VU: never distribute it.
 *
 * Verdicts:
 *   RL-CEILING-429, RL-NOT-EARLY, RL-LIMIT-PLAN, RL-REMAINING-DECREMENTS, RL-429-RETRY-AFTER,
 *   RL-429-REMAINING-ZERO, RL-429-ERROR-BODY, RL-HEADERS-PRESENT, RL-RESET-UNIX-SECONDS, RL-
 *   RETRY-AFTER-CONSISTENT.
 * Thresholds encode them, so k6's exit code is the verdict (0 pass, 99 a verdict failed, 108
 * target unreachable); handleSummary writes reports/load-ceiling-<plan>.json and .junit.xml.
 *
 *   npm run build:load
 *   k6 run -e ANIMAL_STORE_BASE_URL=https://…/v1 -e ANIMAL_STORE_API_KEY=… \
 *          -e ANIMAL_STORE_PLAN=free load/dist/ceiling.js
 */
import { k6Scenario } from './k6/runtime.ts';

const scenario = k6Scenario('ceiling');

export const options = scenario.options;
export const setup = scenario.setup;
export const handleSummary = scenario.handleSummary;
export default scenario.vu;
// Several plans in one k6 run (ANIMAL_STORE_PLANS): each plan's k6 scenario runs the function named after it.
export const free = scenario.exec.free;
export const pro = scenario.exec.pro;
export const business = scenario.exec.business;
export const enterprise = scenario.exec.enterprise;
// Several VUs on an arrival rate: the last iteration of each VU carries what it saw.
export const flush = scenario.flush;
