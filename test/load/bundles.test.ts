/**
 * The k6 bundles: they build, the scripts type-check against @types/k6, they
 * import only k6 modules, and they contain nothing above ES2017 nor anything
 * k6 lacks (timers, Node built-ins, global crypto, require, top-level await).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoad, SUPPORTED, type BuiltBundle } from '../../load/build.ts';
import { SCENARIO_NAMES } from '../../load/lib/types.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let out: string;
let bundles: BuiltBundle[];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'load-dist-'));
  bundles = await buildLoad(out);
}, 60000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const code = (scenario: string) => readFileSync(join(out, `${scenario}.js`), 'utf8');

describe('k6 bundles', () => {
  it('builds one ESM bundle per scenario', () => {
    expect(bundles.map((b) => b.scenario).sort()).toEqual([...SCENARIO_NAMES].sort());
    for (const n of SCENARIO_NAMES) expect(code(n)).toMatch(/export\s*\{[^}]*\bdefault\b[^}]*\}/);
  });

  it('type-checks the scripts against @types/k6 (load/tsconfig.json)', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(() =>
      execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(ROOT, 'load', 'tsconfig.json')], { cwd: ROOT, stdio: 'pipe' }),
    ).not.toThrow();
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
    it(`${n}: imports only k6 modules and exports what k6 runs`, () => {
      const src = code(n);
      const specifiers = [...src.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm)].map(
        (m) => m[1] || m[2],
      );
      expect(specifiers.length).toBeGreaterThan(0);
      expect(src).not.toMatch(/\bimport\s*\(/);
      for (const s of specifiers) expect(s).toMatch(/^k6(\/[a-z-/]+)?$/);
      for (const name of ['options', 'setup', 'handleSummary']) expect(src).toMatch(new RegExp(`\\b${name}\\b`));
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
        'require(',
        'process.',
        'Buffer.',
        '__dirname',
        'node:',
        'import.meta',
      ])
        expect(flat.includes(bad), `${n} contains ${bad}`).toBe(false);
      expect(flat).not.toMatch(/[^\w$.]\d+n\b/); // BigInt literals
      expect(flat).not.toMatch(/(^|[;}])\s*await\b/); // top-level await
      expect(flat).not.toMatch(/\bclass\s+\w+(\s+extends\s+[\w.]+)?\s*\{[^{}]*?\b\w+\s*=/); // class fields
      expect(flat).not.toMatch(/#[a-zA-Z_]\w*\s*[=;(]/); // private members
    });
  }
});
