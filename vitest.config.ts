/**
 * Vitest configuration of the suite's own tests (`npm test`). The conformance
 * run itself uses conformance.config.ts.
 */
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Three files at a time on the 2-core machines this runs on: many tests wait (child processes, servers, real
    // sockets), so a third file fills the waits (about 5 s less than two; 3 of 3 green beside two CPU hogs).
    maxWorkers: 3,
    // One module graph per worker, not per file: each file re-importing the suite (tsx, Vitest's transform, undici,
    // Ajv and the schemas) cost about a quarter of the run's CPU. The tests share no mutable state across files:
    // every run builds its own app, clock, session and reports folder; the transport's pools are re-created on use.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['test/support/temp-root.ts', 'test/support/js-build.ts'],
    // SELF_TEST_CPU_LOG=<file>: each test file's CPU time, its children's and its wall time (test/support/cpu-per-file.ts).
    setupFiles: process.env.SELF_TEST_CPU_LOG ? ['test/support/cpu-per-file.ts'] : [],
    // Each test file's and module's transform kept on disk (node_modules/.experimental-vitest-cache, keyed by the file's
    // content and the configuration): a later npm test transforms only what changed. About 7% of the CPU time of the
    // unit-test files (41.5 s against 44.4 s, three runs each, alternating); a fresh clone transforms everything once.
    experimental: { fsModuleCache: true },
    // A guard against hangs, not a measure of speed: it holds for a test of 18 s on a quiet machine at a load average of
    // 10 on two cores (five times slower), the margin issue 37 asks for; CPU-bound tests longer than that set their own.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // GitHub's workflow parser imports its JSON schema without an import attribute, which Node refuses: Vitest
    // transforms it instead of handing it to Node (test/workflows/schema.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
