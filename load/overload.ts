/**
 * k6 scenario "overload" (defined once in load/lib/scenarios.ts; this file only picks it).
 *
 * The question it answers:
 *   Well above the ceiling, do successes in any window stay within the limit — is the limit
 *   really per minute, not per shorter window — while every Retry-After is obeyed?
 *
 * Load shape:
 *   A preflight request in setup(), then the constant-arrival-rate executor at 3x the limit
 *   for two windows; slots that fall in a Retry-After pause are skipped, so the key is never
 *   at risk of a ban. Window verdicts are computed per VU (one VU by default).
 *
 * Verdicts:
 *   RL-WINDOW-PER-MINUTE, RL-NOT-EARLY, RL-429-RETRY-AFTER (and the 429 checks).
 * Thresholds encode them, so k6's exit code is the verdict (0 pass, 99 a verdict failed, 108
 * target unreachable); handleSummary writes reports/load-overload-<plan>.json and .junit.xml.
 *
 *   npm run build:load
 *   k6 run -e ANIMAL_STORE_BASE_URL=https://…/v1 -e ANIMAL_STORE_API_KEY=… \
 *          -e ANIMAL_STORE_PLAN=free load/dist/overload.js
 */
import { k6Scenario } from './k6/runtime.ts';

const scenario = k6Scenario('overload');

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
