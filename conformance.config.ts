/**
 * Vitest configuration of a conformance run (`npm run conformance` uses it; so
 * can `npx vitest run --config conformance.config.ts`). One non-isolated fork,
 * files in order: the suite paces itself on the rate-limit headers of one key,
 * so requests must be sequential. Files run by path, the exploration phase last.
 */
import { defineConfig } from 'vitest/config';
import { SpecSequencer } from './src/harness/sequencer.ts';

export default defineConfig({
  test: {
    include: ['conformance/**/*.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { shuffle: false, concurrent: false, sequencer: SpecSequencer },
    globalSetup: ['src/harness/global-setup.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 60_000,
    retry: 0,
  },
});
