/**
 * fake-k6.ts as one JavaScript file (esbuild: it and the suite's modules it imports; packages stay imports), made once
 * per test process and kept by its content under node_modules/.cache/animal-store/k6-shim/ (never committed), so a
 * stand-in k6 starts without tsx transforming its TypeScript. run.ts finds worker.mjs beside itself through
 * `import.meta.url`: the bundle is given run.ts's. Where the cache cannot be written, fake-k6.ts runs under tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../../..');
const SOURCE = join(import.meta.dirname, 'fake-k6.ts');
/** The one module of the bundle that reads its own location (the worker thread's file beside it). */
const RUN = join(import.meta.dirname, 'run.ts');
const CACHE = join(ROOT, 'node_modules/.cache/animal-store/k6-shim');

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bundle(): string {
  const out = buildSync({
    absWorkingDir: ROOT,
    entryPoints: [SOURCE],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(RUN).href), 'import.meta.dirname': JSON.stringify(dirname(RUN)) },
  }).outputFiles[0].text;
  const file = join(CACHE, `fake-k6-${createHash('sha256').update(out).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, out);
    renameSync(tmp, file);
  }
  return file;
}

let command: string | undefined;

/** The shell words that start fake-k6 (its arguments follow). */
export function fakeK6Command(): string {
  if (command === undefined) {
    try {
      command = `${quote(process.execPath)} ${quote(bundle())}`;
    } catch {
      command = `${quote(process.execPath)} --import tsx ${quote(SOURCE)}`;
    }
  }
  return command;
}
