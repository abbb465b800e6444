/**
 * What a conformance run hands to its Vitest worker: the configuration (target
 * filled in) and the target's quota day. It travels through Vitest's
 * `provide`/`inject`, never through process.env.
 */
import type { Config } from '../settings/read-config.ts';

export interface RunContext {
  config: Config;
  dayMs: number;
  /** The target's per-minute window (the embedded server's short one). */
  windowMs?: number;
  /** The target is the embedded reference server. */
  embedded?: boolean;
  /** The whole run's deadline (epoch ms), when the specs are its first half (npm start); else --deadline-ms from their start. */
  deadlineAt?: number;
  /** Where the worker appends the run's traffic (src/harness/traffic.ts), for the CLI to write the HAR from; none: not recorded. */
  trafficFile?: string;
}

export const CONTEXT_KEY = 'animalStore';

declare module 'vitest' {
  export interface ProvidedContext {
    animalStore: RunContext;
  }
}
