/**
 * Types of the scenario machinery shared by both engines (k6 and Node): the
 * options a scenario runs with and the actions its runner asks an engine for.
 * What is judged and reported (samples, judgements, the load report) is the
 * core's (src/core). Pure: no Node built-ins, no timers; bundled for k6 (ES2017).
 */
import type { JudgeOptions } from '../../src/core/sample.ts';

export type { PhaseName, Sample } from '../../src/core/sample.ts';
export type { ScenarioName } from '../../src/core/scenarios.ts';

/** The next thing an engine must do for a scenario. */
export type Action =
  | { kind: 'send' }
  /** Wait `ms` (or until a response arrives, whichever first), then ask again. */
  | { kind: 'wait'; ms: number; why: string }
  | { kind: 'done'; why: string };

/** Limits and tuning a scenario runs with (resolved from the config or __ENV). */
export interface ScenarioOptions extends JudgeOptions {
  /** Largest extra wait added after a Retry-After (a little jitter). */
  jitterMs: number;
  /** Length of the paced scenarios, in windows (at least 1). */
  sustainedWindows: number;
  overloadWindows: number;
  /**
   * 429s in a row without a usable Retry-After before a scenario gives up; each
   * waits for X-RateLimit-Reset (or a whole window), doubled every time.
   */
  backoffAttempts: number;
  /** Longest wait (a Retry-After, a backoff) a scenario accepts; beyond it the run stops. */
  maxWaitMs: number;
  /** Epoch ms by which the scenario must be done (the run's overall deadline), if any. */
  deadlineAt?: number;
  /** Cap on requests in flight at once (the Node engine; k6 VUs are sequential). */
  maxInFlight: number;
  /** Random source in [0, 1) for the jitter (injectable for tests). */
  random: () => number;
  /** The pacing comes from outside (k6's constant-arrival-rate executor): never wait for a slot. */
  externalPacing?: boolean;
  /**
   * One instance of several (a distributed run): every instance sends its own
   * preflight, so the measured phase starts a whole window after it, where no
   * preflight is counted any more (fixed or sliding window alike).
   */
  distributed?: boolean;
  /** The prefix of the names of the pets a scenario creates (ANIMAL_STORE_NAME_PREFIX), so that they can be found later. */
  namePrefix?: string;
}
