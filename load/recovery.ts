/**
 * k6 scenario "recovery" (defined once in load/lib/scenarios.ts; this file only picks it).
 *
 * The question it answers:
 *   After the 429, does waiting exactly what Retry-After asks (plus a little jitter) bring the
 *   key back — without ever sending early?
 *
 * Load shape:
 *   The ceiling, then one probe once Retry-After (measured against the Date header for an
 *   HTTP-date) plus a little jitter has elapsed; exponential backoff with full jitter, a
 *   bounded number of times, when a 429 has no usable Retry-After. Never sends on the key
 *   before the wait elapsed. Must stay single-VU.
 *
 * Verdicts:
 *   RL-RECOVERY and the ceiling verdicts.
 * Thresholds encode them, so k6's exit code is the verdict (0 pass, 99 a verdict failed, 108
 * target unreachable); handleSummary writes reports/load-recovery-<plan>.json and .junit.xml.
 *
 *   npm run build:load
 *   k6 run -e ANIMAL_STORE_BASE_URL=https://…/v1 -e ANIMAL_STORE_API_KEY=… \
 *          -e ANIMAL_STORE_PLAN=free load/dist/recovery.js
 */
import { k6Scenario } from './k6/runtime.ts';

const scenario = k6Scenario('recovery');

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
