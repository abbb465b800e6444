/**
 * The embedded reference server's short world: its rate-limit window, its quota
 * day and each plan's per-day quota, sized so that a run exercises every
 * scenario — the daily quota included — in about a minute, without cutting a
 * corner of any judgement:
 * - the window: one second for every 300 requests of the largest limit under
 *   test (at least one, whole seconds as Retry-After and X-RateLimit-Reset
 *   count them), so one machine reaches the limit well within a window — or for
 *   every half of what this machine was measured to sustain against the embedded
 *   server when that is less (a busy machine: src/cli/machine-rate.ts);
 * - the daily scenario runs on a key of its own (reference/keys.ts DAILY_KEYS),
 *   which no other request of the run touches: its quota is the plan's
 *   published one capped at 2 windows' worth (DAILY_KEY_WINDOWS) — still more
 *   than a window allows, so the day's 429 is not the window's;
 * - the quota of the run's own key: the plan's published one, capped just above
 *   what a run sends on it — the conformance specs and exploration, and at most
 *   9 windows' worth of the per-minute scenarios — so that none of them can use
 *   it up;
 * - the day: DAY_SPANS times what the daily scenario needs of one — its whole
 *   pace on its key from the day's start, and its last 429 asking to wait longer
 *   than a window plus the judges' tolerance (the way a day's 429 is told from a
 *   window's): on its unused key the scenario starts at once when the current
 *   day still leaves what it needs (load/node/key-rest.ts), else on the next.
 * A window or day given with --window-ms / --day-ms is kept; the quotas then fit
 * that day. Pure.
 */

/** Requests a second one machine offers comfortably, both engines: the window grows with the limit beyond it. */
export const EMBEDDED_RATE_PER_S = 300;
/**
 * The share of what this machine was measured to sustain against the embedded server (src/cli/machine-rate.ts) that a window
 * may ask for: the room to spare for the client's own pauses and the scenarios' bursts. A busy machine gets a longer
 * window (and day), never a rate it cannot offer.
 */
export const MACHINE_SHARE = 0.75;

/** The rate a window of the short world may ask of this machine: EMBEDDED_RATE_PER_S, or less when it sustained less. */
export function windowRatePerS(measuredPerS?: number): number {
  if (measuredPerS === undefined || !(measuredPerS > 0)) return EMBEDDED_RATE_PER_S;
  return Math.max(1, Math.min(EMBEDDED_RATE_PER_S, Math.floor(measuredPerS * MACHINE_SHARE)));
}
/** What the conformance specs send besides the exploration phase (about 100 today), with room to grow. */
export const EMBEDDED_SPEC_REQUESTS = 200;
/** The per-minute scenarios of a run send at most this many windows' worth of successes (ceiling and recovery 2 each, sustained 1.8, overload 3). */
export const PER_MINUTE_WINDOWS = 9;
/** The daily key's quota, in windows' worth of the plan's per-minute limit: more than one, so the day's 429 is not a window's. */
export const DAILY_KEY_WINDOWS = 2;
/**
 * The quota day, in spans of what the daily scenario needs of it (dayNeededMs). Its days are aligned on the epoch; on its
 * unused key the scenario starts at once when the day it comes in still leaves a span, else it waits for the next day:
 * with a day of two spans, half the time at once, a quarter of a span on average — a day of one span waited half a span on
 * average — and never longer than a span. A longer day waits less but makes a second attempt, which starts on a fresh
 * day (load/node/orchestrator.ts), wait up to a whole one.
 */
export const DAY_SPANS = 2;
/** The daily scenario's pace (load/lib/scenario-options.ts: sustainedFraction) and its slack beyond the quota (load/lib/load-shapes.ts: dailyPace). */
const DAILY_FRACTION = 0.9;
const DAILY_EXTRA_LIMITS = 2;
/** How much longer than a window a 429's Retry-After must be to refuse the day (load/lib/scenario-options.ts: toleranceMs). */
const TOLERANCE_MS = 2000;

/** What this machine sustained against the embedded server (src/cli/machine-rate.ts measures it). */
export interface MachineRate {
  /** Complete responses a second. */
  perS: number;
  /** Over how long, ms, with how many requests in flight. */
  ms: number;
  inFlight: number;
}

export interface WorldPlan {
  perMinute: number;
  /** The plan's published per-day quota (or the one asked for with --rpd). */
  perDay: number;
  /** A quota asked for (--rpd): the server's as asked, never capped. */
  asked?: boolean;
}

export interface World {
  windowMs: number;
  dayMs: number;
  /** Each plan's per-day quota on the server, in the order given. */
  quotas: number[];
  /** Each plan's per-day quota on its daily key (the daily scenario's own), in the order given. */
  dailyQuotas: number[];
  /** What the daily scenario needs of a quota day on each plan's daily key (dayNeededMs), in the order given. */
  dailyNeedMs: number[];
}

const perWindow = (perMinute: number) => Math.max(1, Math.floor(perMinute * DAILY_FRACTION));
/** Windows of the daily scenario's pace for a quota (as load/lib/load-shapes.ts paces it). */
const paceWindows = (perMinute: number, quota: number) => Math.ceil((quota + DAILY_EXTRA_LIMITS * perMinute) / perWindow(perMinute)) + 1;

/** The window of the embedded server for the limits under test, at a rate a second the machine offers. */
export function worldWindowMs(limits: readonly number[], ratePerS = EMBEDDED_RATE_PER_S): number {
  return 1000 * Math.max(1, ...limits.map((l) => Math.ceil(l / ratePerS)));
}

/** The day the daily scenario needs to spend `quota` from a day's start, its last 429 still asking to wait beyond a window. */
export function dayNeededMs(perMinute: number, quota: number, windowMs: number): number {
  const ms = (paceWindows(perMinute, quota) + 2) * windowMs + TOLERANCE_MS;
  return Math.ceil(ms / windowMs) * windowMs;
}

/** The largest quota the daily scenario can spend in a given day. */
function spendable(perMinute: number, dayMs: number, windowMs: number): number {
  const windows = Math.floor((dayMs - TOLERANCE_MS) / windowMs) - 3;
  return Math.max(1, windows * perWindow(perMinute) - DAILY_EXTRA_LIMITS * perMinute);
}

/**
 * The short world for `underTest` (the plans the run judges) and `others` (the
 * server's other keys), when the run sends `conformance` requests on a key before
 * its rate-limit scenarios (the specs and the exploration budget).
 */
export function embeddedWorld(o: {
  underTest: readonly WorldPlan[];
  others?: readonly WorldPlan[];
  conformance: number;
  windowMs?: number;
  dayMs?: number;
  /** What this machine sustained against the embedded server, responses a second (src/cli/machine-rate.ts), when measured. */
  measuredPerS?: number;
}): World & { otherQuotas: number[]; otherDailyQuotas: number[] } {
  const windowMs =
    o.windowMs ||
    worldWindowMs(
      o.underTest.map((p) => p.perMinute),
      windowRatePerS(o.measuredPerS),
    );
  const fit = (p: WorldPlan, q: number) => (o.dayMs ? Math.min(q, spendable(p.perMinute, o.dayMs, windowMs)) : q);
  const quota = (p: WorldPlan) => (p.asked ? p.perDay : fit(p, Math.min(p.perDay, o.conformance + PER_MINUTE_WINDOWS * p.perMinute)));
  const dailyQuota = (p: WorldPlan) => (p.asked ? p.perDay : fit(p, Math.min(p.perDay, DAILY_KEY_WINDOWS * p.perMinute)));
  const dailyQuotas = o.underTest.map(dailyQuota);
  const dailyNeedMs = o.underTest.map((p, i) => dayNeededMs(p.perMinute, dailyQuotas[i], windowMs));
  const dayMs = o.dayMs || Math.max(windowMs, ...dailyNeedMs.map((ms) => DAY_SPANS * ms));
  const others = o.others ?? [];
  return {
    windowMs,
    dayMs,
    quotas: o.underTest.map(quota),
    dailyQuotas,
    dailyNeedMs,
    otherQuotas: others.map(quota),
    otherDailyQuotas: others.map(dailyQuota),
  };
}
