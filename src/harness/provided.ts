/**
 * What a conformance run hands to its Vitest worker: the configuration (target
 * filled in) and the target's quota day. It travels through Vitest's
 * `provide`/`inject`, never through process.env.
 */
import type { Config } from '../core/config.ts';

export interface RunContext {
  config: Config;
  dayMs: number;
}

export const CONTEXT_KEY = 'animalStore';
/** Prefix of the console lines a worker prints when it waits; the suite's reporter turns them into progress lines. */
export const WAIT_LOG = '[animal-store:wait] ';

declare module 'vitest' {
  export interface ProvidedContext {
    animalStore: RunContext;
  }
}
