/**
 * The k6 bundles: one ES module per scenario of the table (k6 runs ES modules
 * natively since v0.52), generated entries that differ only in the scenario's
 * name, the k6 code type-checks against @types/k6, they import only k6 modules,
 * and they contain nothing above ES2017 nor anything k6 lacks (timers, Node
 * built-ins, global crypto, require, top-level await).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoad, entrySource, SUPPORTED, type BuiltBundle } from '../../load/build.ts';
import { SCENARIO_NAMES } from '../../src/core/scenarios.ts';
import { tempDir } from '../support/temp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let out: string;
let bundles: BuiltBundle[];

beforeAll(async () => {
  out = tempDir('load-dist');
  bundles = await buildLoad(out);
}, 60000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const code = (scenario: string) => readFileSync(join(out, `${scenario}.js`), 'utf8');

describe('k6 bundles', () => {
  it('builds one ES module per scenario of the table, exporting what k6 runs', () => {
    expect(bundles.map((b) => b.scenario).sort()).toEqual([...SCENARIO_NAMES].sort());
    for (const n of SCENARIO_NAMES) {
      expect(code(n)).toMatch(/^export \{[^}]*\bdefault\b[^}]*\}/m);
      expect(code(n)).not.toMatch(/\bmodule\.exports\b|\brequire\s*\(/);
      expect(code(n)).toMatch(new RegExp(`^ \\* k6 scenario "${n}"`, 'm'));
    }
  });

  it('generates the entries from the scenario table: they differ only in the scenario name', () => {
    const [first, ...rest] = SCENARIO_NAMES;
    for (const n of rest)
      expect(entrySource(n).split(JSON.stringify(n)).join('"X"')).toBe(entrySource(first).split(JSON.stringify(first)).join('"X"'));
  });

  it('type-checks the scripts against @types/k6 (load/tsconfig.json)', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // Incremental, as npm test's own type check (test/support/static-checks.mjs): what was found unchanged is not checked
    // again (an error found before is reported again), 4.2 s -> 1.7 s of CPU time once the build info exists.
    const buildInfo = join(ROOT, 'node_modules', '.cache', 'animal-store', 'tsc-load.tsbuildinfo');
    const args = [tsc, '--noEmit', '-p', join(ROOT, 'load', 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', buildInfo];
    expect(() => execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  }, 60000);

  it('the ES2017 check notices newer syntax (control)', async () => {
    for (const modernSrc of [
      'export const x = (a) => a ?? 1;',
      'export const y = (a) => a?.b;',
      'export class C { f = 1; }',
      'export const o = { ...a };',
    ]) {
      const m = await transform(modernSrc, { format: 'esm', target: 'esnext', minifyWhitespace: true });
      const l = await transform(modernSrc, { format: 'esm', target: 'es2017', supported: { ...SUPPORTED }, minifyWhitespace: true });
      expect(l.code, modernSrc).not.toBe(m.code);
    }
  });

  for (const n of SCENARIO_NAMES) {
    it(`${n}: imports only k6 modules and exports options, setup, default and handleSummary`, () => {
      const src = code(n);
      const imported = [...src.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)].map((m) => m[1]);
      expect(imported.length).toBeGreaterThan(0);
      for (const r of imported) expect(r).toMatch(/^k6(\/[a-z-/]+)?$/);
      expect(src).not.toMatch(/\bimport\s*\(/);
      const exported = /^export \{([^}]*)\}/m.exec(src)![1];
      for (const name of ['options', 'setup', 'handleSummary', 'default']) expect(exported).toMatch(new RegExp(`\\b${name}\\b`));
    });

    it(`${n}: contains nothing above ES2017 and nothing k6 lacks`, async () => {
      const src = code(n);
      // Re-lowering to ES2017 must change nothing: the bundle has no newer syntax.
      const modern = await transform(src, { format: 'esm', target: 'esnext', minifyWhitespace: true });
      const lowered = await transform(src, { format: 'esm', target: 'es2017', supported: { ...SUPPORTED }, minifyWhitespace: true });
      expect(lowered.code).toBe(modern.code);
      const flat = modern.code;
      for (const bad of [
        '??',
        '?.',
        '**',
        'setTimeout',
        'setInterval',
        'setImmediate',
        'queueMicrotask',
        'crypto.',
        'process.',
        'Buffer.',
        '__dirname',
        'node:',
        'import.meta',
        'require(',
      ])
        expect(flat.includes(bad), `${n} contains ${bad}`).toBe(false);
      expect(flat).not.toMatch(/[^\w$.]\d+n\b/); // BigInt literals
      expect(flat).not.toMatch(/(^|[;}])\s*await\b/); // top-level await
      expect(flat).not.toMatch(/\bclass\s+\w+(\s+extends\s+[\w.]+)?\s*\{[^{}]*?\b\w+\s*=/); // class fields
      expect(flat).not.toMatch(/#[a-zA-Z_]\w*\s*[=;(]/); // private members
    });
  }
});
