/**
 * k6 scenario "sustained" (defined once in load/lib/scenarios.ts; this file only picks it).
 *
 * The question it answers:
 *   Is a steady rate just below the plan's ceiling, held for two windows (so a whole fixed
 *   window lies inside), ever throttled?
 *
 * Load shape:
 *   A preflight request in setup() (it waits one window if the key is not fresh), then the
 *   constant-arrival-rate executor at 90% of the limit for two windows. Every Retry-After is
 *   obeyed. May be distributed (k6-operator parallelism, k6 cloud): any 429 anywhere fails the
 *   rl_throttled threshold.
 *
 * Verdicts:
 *   RL-SUSTAINED-BELOW-CEILING.
 * Thresholds encode them, so k6's exit code is the verdict (0 pass, 99 a verdict failed, 108
 * target unreachable); handleSummary writes reports/load-sustained-<plan>.json and .junit.xml.
 *
 *   npm run build:load
 *   k6 run -e ANIMAL_STORE_BASE_URL=https://…/v1 -e ANIMAL_STORE_API_KEY=… \
 *          -e ANIMAL_STORE_PLAN=free load/dist/sustained.js
 */
import { k6Scenario } from './k6/runtime.ts';

const scenario = k6Scenario('sustained');

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
