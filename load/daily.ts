/**
 * k6 scenario "daily" (defined once in load/lib/scenarios.ts; this file only picks it).
 *
 * The question it answers:
 *   Is the per-day quota enforced at the plan's number? (Opt-in: it spends the key's whole
 *   daily quota.)
 *
 * Load shape:
 *   Opt-in (-e ANIMAL_STORE_LOAD_DAILY=yes): paced at 90% of the per-minute limit until the
 *   day's quota refuses a request. It spends the key's whole daily quota — use a dedicated
 *   key.
 *
 * Verdicts:
 *   RL-DAILY-QUOTA.
 * Thresholds encode them, so k6's exit code is the verdict (0 pass, 99 a verdict failed, 108
 * target unreachable); handleSummary writes reports/load-daily-<plan>.json and .junit.xml.
 *
 *   npm run build:load
 *   k6 run -e ANIMAL_STORE_BASE_URL=https://…/v1 -e ANIMAL_STORE_API_KEY=… \
 *          -e ANIMAL_STORE_PLAN=free -e ANIMAL_STORE_LOAD_DAILY=yes load/dist/daily.js
 */
import { k6Scenario } from './k6/runtime.ts';

const scenario = k6Scenario('daily');

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
