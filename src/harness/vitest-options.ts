/**
 * The Vitest options of a conformance run, in one place: `npm run conformance` and `npm start` pass them inline
 * (no configuration file for Vite to bundle), conformance.config.ts (`npx vitest run --config conformance.config.ts`)
 * exports them. One non-isolated worker, files in order: one session, one client pacing itself on the rate-limit headers
 * of one key; its first test schedules every file's tests (vitest-schedule.ts), as many at once as the server's latency
 * needs. Files run by path, the exploration phase last. The worker is a thread of the command's process, not a process
 * of its own: the same run for about 0.6 to 0.9 CPU-seconds less (a node start, and Vitest's messages between two
 * processes: 3.9 against 3.0 CPU-s for `npm start -- --only conformance --explore-budget 0`, 4.6 against 4.0 with the
 * exploration; issue 37). A Ctrl-C reaches the command, which cancels the run (run-conformance.ts).
 */
import type { InlineConfig } from 'vitest/node';
import { SpecSequencer } from './sequencer.ts';
import type { SpecSource } from './spec-files.ts';

export function conformanceTestOptions(specs: SpecSource): NonNullable<InlineConfig> {
  return {
    dir: specs.dir,
    include: [`**/*${specs.suffix}`],
    // The built specs live under node_modules/.cache: Vitest's default exclusion of node_modules would skip them.
    exclude: [],
    pool: 'threads',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { shuffle: false, concurrent: false, sequencer: SpecSequencer },
    testTimeout: 20 * 60_000,
    hookTimeout: 60_000,
    retry: 0,
  };
}
