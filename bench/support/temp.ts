/**
 * Temporary folders of the suite's own tests and benchmarks, every one under a single root that is removed at the
 * end: `npm test`'s root is made and removed by its global setup (test/support/temp-root.ts; Vitest's workers end
 * without an 'exit' event), a benchmark's when its process exits. A test run used to leave its reports, bundles,
 * k6 logs and workflow sandboxes in the system's temporary folder (a certification's reports folder holds up to 2.8 MB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set by the global setup of `npm test` for its workers. */
export const TEMP_ROOT_VARIABLE = 'SELF_TEST_TMP_ROOT';

let own: string | undefined;

function root(): string {
  const given = process.env[TEMP_ROOT_VARIABLE];
  if (given) return given;
  if (!own) {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-test-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    own = dir;
  }
  return own;
}

/** A new empty folder named `<prefix>-…`, removed with the others at the end of the run. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(root(), `${prefix}-`));
}
