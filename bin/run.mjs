#!/usr/bin/env node
/**
 * `node bin/run.mjs <entry> [args…]`: a command of the suite from its JavaScript build (bin/build.mjs) — built first
 * when the sources changed since — as if `node --import tsx <entry> [args…]` ran it: `process.argv[1]` is the
 * entry's source path. package.json's scripts start every command this way.
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtPath, ENTRIES, ensureBuilt, ROOT } from './build.mjs';

/** Where the build a command runs from is: the conformance run's Vitest loads the built specs from there. */
export const BUILD_DIR = Symbol.for('animal-store.build-dir');

const entry = process.argv[2] && relative(ROOT, resolve(ROOT, process.argv[2])).split(sep).join('/');
if (!ENTRIES.includes(entry)) {
  process.stderr.write(`bin/run.mjs: no such command ${JSON.stringify(entry ?? '')}; one of ${ENTRIES.join(', ')}\n`);
  process.exit(2);
}
const dir = await ensureBuilt();
globalThis[BUILD_DIR] = dir;
process.argv.splice(1, 2, resolve(ROOT, entry));
await import(pathToFileURL(builtPath(dir, entry)).href);
