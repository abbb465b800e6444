/**
 * Stand-in `k6` executables for the tests, each alone in a folder of its own (so the folder can stand as PATH, or
 * the file as K6_BIN), each printing a given answer to `k6 version`:
 * - `versionOnlyK6`: answers `k6 version` and fails anything else — it never runs a scenario (a refused k6, or
 *   a run that must not reach k6);
 * - `emulatedK6`: runs the bundles under the emulator (fake-k6.ts: real time, real HTTP), as k6 would.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp.ts';

const FAKE_K6 = join(import.meta.dirname, 'fake-k6.ts');

function script(body: string): string {
  const file = join(tempDir('k6-bin'), 'k6');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A k6 that prints `printed` to `k6 version` and fails anything else. */
export function versionOnlyK6(printed: string): string {
  return script(`if [ "$1" = version ]; then echo '${printed.replace(/'/g, '')}'; exit 0; fi\nexit 1`);
}

/** A k6 that says it is `version` ("v2.3.0") and runs the bundles under the emulator. */
export function emulatedK6(version: string): string {
  return script(`FAKE_K6_VERSION='${version}' exec "${process.execPath}" --import tsx "${FAKE_K6}" "$@"`);
}
