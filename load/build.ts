/**
 * `npm run build:load`: bundles each k6 scenario script (load/<scenario>.ts) into
 * load/dist/<scenario>.js — CommonJS, k6 modules external (`require('k6/http')`),
 * target ES2017, no Node built-ins. CommonJS because k6 before v0.52 passes ES
 * modules through a Babel transform at start-up (about 6.5 s a bundle on
 * v0.49); a CommonJS ES2017 script is parsed as it is, so a bundle starts in
 * well under a second, in k6's default (extended) mode and with
 * --compatibility-mode=base alike, on v0.49 as on 1.x. `k6 run load/dist/ceiling.js`
 * stays what a k6 user types.
 */
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIO_NAMES } from '../src/core/scenarios.ts';

export const LOAD_DIR = dirname(fileURLToPath(import.meta.url));
export const DIST_DIR = join(LOAD_DIR, 'dist');

/** Syntax k6 v0.49 (goja) may lack, kept out of the output even where ES2017 would allow it. */
export const SUPPORTED = {
  'top-level-await': false,
  'regexp-named-capture-groups': false,
  'regexp-lookbehind-assertions': false,
  'regexp-dot-all-flag': false,
} as const;

export interface BuiltBundle {
  scenario: string;
  file: string;
  bytes: number;
}

export async function buildLoad(outdir: string = DIST_DIR): Promise<BuiltBundle[]> {
  const entryPoints = SCENARIO_NAMES.map((n) => join(LOAD_DIR, `${n}.ts`));
  const result = await build({
    entryPoints,
    outdir: resolve(outdir),
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2017',
    supported: { ...SUPPORTED },
    external: ['k6', 'k6/*'],
    mainFields: ['module', 'main'],
    charset: 'utf8',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(result.metafile.outputs).map((file) => ({
    scenario: file.replace(/^.*\//, '').replace(/\.js$/, ''),
    file,
    bytes: result.metafile.outputs[file].bytes,
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildLoad()
    .then((files) => {
      for (const f of files) console.log(`${f.file}  ${(f.bytes / 1024).toFixed(1)} KiB`);
    })
    .catch((e: unknown) => {
      console.error((e as Error).message);
      process.exit(1);
    });
}
