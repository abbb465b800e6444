/**
 * Stand-in `k6` executables for the tests, each alone in a folder of its own (so the folder can stand as PATH, or
 * the file as K6_BIN), each printing a given answer to `k6 version`:
 * - `versionOnlyK6`: answers `k6 version` and fails anything else — it never runs a scenario (a refused k6, or
 *   a run that must not reach k6);
 * - `emulatedK6`: runs the bundles under the emulator (fake-k6.ts: real time, real HTTP), as k6 would.
 *
 * The emulated k6 answers `k6 version` from its shell script (what fake-k6.ts would print), and runs fake-k6.ts from
 * one JavaScript file esbuild made of it and of what it imports (test/support/k6-shim/fake-k6-build.ts): under tsx each
 * start cost about 0.8 CPU-seconds of loading and transforming before the emulator ran, bundled about 0.35.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp.ts';
import { fakeK6Command } from './fake-k6-build.ts';

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
  const v = version.replace(/'/g, '');
  // `k6 version` as fake-k6.ts prints it, without starting Node.
  return script(
    `if [ "$1" = version ]; then echo 'k6 ${v || 'v2.2.0'} (fake, linux/amd64)'; exit 0; fi\nFAKE_K6_VERSION='${v}' exec ${fakeK6Command()} "$@"`,
  );
}
