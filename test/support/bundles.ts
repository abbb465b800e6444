/**
 * The k6 bundles (load/dist/<scenario>.js), built by load/build.ts for the test files that run them: in the emulator
 * (test/support/k6-shim), on a stand-in k6 or on a real one.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { buildLoad } from '../../load/build.ts';
import { tempDir } from './temp.ts';

/**
 * The k6 bundles built once for the calling test file, into a temporary folder removed after it (`when` false: not
 * built, e.g. without a k6 binary). Read `dir` inside hooks and tests, once the build has run.
 */
export function builtBundles(prefix: string, when = true): { readonly dir: string } {
  const out = { dir: '' };
  beforeAll(async () => {
    if (!when) return;
    out.dir = tempDir(prefix);
    await buildLoad(out.dir);
  }, 90_000);
  afterAll(() => {
    if (out.dir) rmSync(out.dir, { recursive: true, force: true });
  });
  return out;
}
