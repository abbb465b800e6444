/**
 * Vitest configuration of the suite's own tests (`npm test`). The conformance
 * run itself uses conformance.config.ts.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time on the 2-core machines this runs on; the slow files (child processes) spread over both.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
