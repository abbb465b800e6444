/**
 * Types shared by the load scenarios, their verdicts and both engines (k6 and
 * Node). Pure: no Node built-ins, no timers; bundled for k6 (ES2017).
 */
import type { HeaderBag } from '../../src/core/ratelimit.ts';
import type { PlanName } from '../../src/core/plans.ts';

export type ScenarioName = 'ceiling' | 'recovery' | 'sustained' | 'overload' | 'daily';

export const SCENARIO_NAMES: readonly ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload', 'daily'];

export function isScenarioName(v: string): v is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).indexOf(v) >= 0;
}

/** What one observation says about one requirement (as in src/results, plus skip). */
export type VerdictOutcome = 'pass' | 'fail' | 'warn' | 'skip';

export interface Verdict {
  requirement: string;
  outcome: VerdictOutcome;
  title: string;
  message: string;
}

/** The phase of a scenario a request belonged to. */
export type PhaseName = 'preflight' | 'ceiling' | 'probe' | 'paced' | 'daily';

/** One request and what came back: the unit every verdict reads. */
export interface Sample {
  /** Sequence number, 0-based, in the order sent. */
  seq: number;
  phase: PhaseName;
  /** Epoch ms when the request was sent. */
  sentAt: number;
  /** Epoch ms when the response (or the transport failure) was received. */
  t: number;
  /** HTTP status; 0 when no response came (transport failure). */
  status: number;
  headers: HeaderBag;
  /** First bytes of the body (429s only need it). */
  body?: string;
  /** Transport failure kind and message, when status is 0. */
  error?: string;
}

/** The next thing an engine must do for a scenario. */
export type Action =
  | { kind: 'send' }
  /** Wait `ms` (or until a response arrives, whichever first), then ask again. */
  | { kind: 'wait'; ms: number; why: string }
  | { kind: 'done'; why: string };

/** Limits and tuning a scenario runs with (resolved from config or __ENV). */
export interface ScenarioOptions {
  plan: PlanName;
  /** Requests per window the plan allows (X-RateLimit-Limit expected). */
  limit: number;
  /** Requests per day, when known. */
  perDay?: number;
  /** The rate-limit window in ms (60 000 for the spec's per-minute limits). */
  windowMs: number;
  /** The quota window in ms (86 400 000). */
  dayMs: number;
  /** Tolerance when comparing Retry-After with X-RateLimit-Reset. */
  toleranceMs: number;
  /** Largest extra wait added after a Retry-After (a little jitter). */
  jitterMs: number;
  /** Fraction of the ceiling the sustained scenario runs at. */
  sustainedFraction: number;
  /** Multiple of the ceiling the overload scenario runs at (must be above 2). */
  overloadFactor: number;
  /** Length of the paced scenarios, in windows (at least 1). */
  sustainedWindows: number;
  overloadWindows: number;
  /** Exponential backoff after a 429 without a usable Retry-After. */
  backoff: { baseMs: number; capMs: number; attempts: number };
  /** Longest Retry-After the scenarios will wait out; beyond it they stop. */
  maxWaitMs: number;
  /** Cap on requests in flight at once (the Node engine; k6 VUs are sequential). */
  maxInFlight: number;
  /** Random source in [0, 1) for the jitter (injectable for tests). */
  random: () => number;
  /** The pacing comes from outside (k6's constant-arrival-rate executor): never wait for a slot. */
  externalPacing?: boolean;
  /**
   * This run sees only its share of the scenario's requests (several k6 VUs, or a
   * distributed run): the verdicts that need every request on the key (was the
   * window's limit used up before this 429?) are not judged.
   */
  partialView?: boolean;
}

import type { TimelinePoint } from '../../src/core/timeline.ts';
export type { TimelinePoint };

/** What a scenario reports; the JSON report file is exactly this. */
export interface LoadReport {
  scenario: ScenarioName;
  plan: PlanName;
  engine: 'node' | 'k6';
  /** Base URL of the target (never the key). */
  target: string;
  startedAt: string;
  endedAt: string;
  verdict: 'pass' | 'fail';
  requestsSent: number;
  verdicts: Verdict[];
  timeline: TimelinePoint[];
  /** Why the run stopped, in words (cap reached, done, unreachable…). */
  stoppedBecause?: string;
  notes?: string[];
}
