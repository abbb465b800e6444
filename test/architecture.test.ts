/**
 * ARCHITECTURE.md as a test: every relative import of every module stays within
 * what its layer may import, and the pure layers (src/core, load/lib, the k6
 * scripts) import no package and no Node built-in at all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Layer of a file, by its path (first match wins). */
const LAYERS: [string, RegExp][] = [
  ['src/core', /^src\/core\//],
  ['src/schemas', /^src\/schemas\//],
  ['src/results', /^src\/results\//],
  ['src/config', /^src\/config\//],
  ['src/http', /^src\/http\//],
  ['src/checks', /^src\/checks\//],
  ['src/target', /^src\/target\//],
  ['src/harness', /^src\/harness\//],
  ['src/explore', /^src\/explore\//],
  ['src/cli', /^src\/cli\//],
  ['schemas', /^schemas\//],
  ['reference/main.ts', /^reference\/main\.ts$/],
  ['reference', /^reference\//],
  ['conformance', /^conformance\//],
  ['load/lib', /^load\/lib\//],
  ['load/node', /^load\/node\//],
  ['load/build', /^load\/build\.ts$/],
  ['load/k6', /^load\/k6\//],
  ['load/k6', /^load\/[^/]+\.ts$/],
];

/** ARCHITECTURE.md's table, read from the file itself: who may import whom (the test and the document cannot drift apart). */
export const MAY_IMPORT: Record<string, string[]> = (() => {
  const out: Record<string, string[]> = {};
  for (const line of readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const m = /^`([^`]+)`$/.exec(cells[1] ?? '');
    if (!m || cells.length < 5 || cells[3] === 'anything') continue;
    out[m[1]] = [...cells[3].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
  }
  return out;
})();

test('ARCHITECTURE.md has a row for every layer the test knows.', () => {
  expect(Object.keys(MAY_IMPORT).sort()).toEqual([...new Set(LAYERS.map(([name]) => name))].sort());
});

/** Layers that must stay free of packages and Node built-ins (they are bundled for k6). */
const PURE = new Set(['src/core', 'load/lib', 'load/k6']);

const layerOf = (rel: string) => LAYERS.find(([, re]) => re.test(rel))?.[0];

function sources(): string[] {
  const out: string[] = [];
  for (const top of ['src', 'reference', 'conformance', 'load', 'schemas']) {
    for (const e of readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true })) {
      const p = relative(ROOT, join(e.parentPath, e.name));
      if (e.isFile() && p.endsWith('.ts') && !p.includes('/dist/')) out.push(p);
    }
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const re =
    /(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

test('Every module imports only from the layers ARCHITECTURE.md allows it.', () => {
  const violations: string[] = [];
  for (const file of sources()) {
    const layer = layerOf(file);
    if (!layer) continue;
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
        const to = layerOf(target);
        if (to && !MAY_IMPORT[layer].includes(to)) violations.push(`${file} → ${target} (${layer} may not import ${to})`);
      } else if (PURE.has(layer) && !(layer === 'load/k6' && /^k6(\/|$)/.test(spec)))
        violations.push(`${file} → ${spec} (${layer} must stay free of packages and built-ins)`);
    }
  }
  expect(violations).toEqual([]);
});

test('The reference server reads only the spec’s JSON Schema files of schemas/, never the code beside them.', () => {
  const code = sources()
    .filter((f) => layerOf(f)?.startsWith('reference'))
    .flatMap((f) => importsOf(f).map((spec) => ({ f, target: relative(ROOT, resolve(ROOT, dirname(f), spec)), spec })))
    .filter(({ spec, target }) => spec.startsWith('.') && layerOf(target) === 'schemas' && !target.endsWith('.json'));
  expect(code).toEqual([]);
});

test('No module imports itself through a cycle (a module graph without loops).', () => {
  const graph = new Map<string, string[]>();
  for (const file of sources())
    graph.set(
      file,
      importsOf(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => relative(ROOT, resolve(ROOT, dirname(file), s))),
    );
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, path: string[]) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const g of graph.get(f) ?? []) visit(g, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of graph.keys()) visit(f, []);
  expect(cycles).toEqual([]);
});
