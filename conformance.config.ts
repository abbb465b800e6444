/**
 * Vitest configuration of a conformance run started directly (`npx vitest run --config conformance.config.ts`):
 * the options `npm run conformance` passes inline (src/harness/vitest-options.ts), on the TypeScript specs, with the
 * global setup that reads the configuration from the environment.
 */
import { defineConfig } from 'vitest/config';
import { specSource } from './src/harness/spec-files.ts';
import { conformanceTestOptions } from './src/harness/vitest-options.ts';

export default defineConfig({
  test: { ...conformanceTestOptions(specSource()), globalSetup: ['src/harness/global-setup.ts'] },
});
