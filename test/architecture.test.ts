/**
 * ARCHITECTURE.md as a test: every relative import of every module stays within
 * what its layer may import; the layers bundled for k6 (as ARCHITECTURE.md names
 * them) import no package and no Node built-in at all; and the k6 bundle holds
 * nothing else: every module the generated k6 entries reach is in one of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { entrySource } from '../load/build.ts';
import { SCENARIO_NAMES } from '../src/core/scenarios.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Layer of a file, by its path (first match wins). */
const LAYERS: [string, RegExp][] = [
  ['src/core', /^src\/core\//],
  ['src/settings', /^src\/settings\//],
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

/** The layers bundled for k6, as ARCHITECTURE.md names them ("Bundled for k6: `a`, `b`."): free of packages and Node built-ins. */
export const BUNDLED: Set<string> = (() => {
  const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').replace(/\s+/g, ' ');
  const list = /Bundled for k6: ([^.]+)\./.exec(text)?.[1] ?? '';
  return new Set([...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
})();

test('ARCHITECTURE.md names the layers bundled for k6, each a layer of its table.', () => {
  expect([...BUNDLED].sort()).toEqual(['load/k6', 'load/lib', 'src/core', 'src/settings']);
  expect([...BUNDLED].filter((l) => !MAY_IMPORT[l])).toEqual([]);
});

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

function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8'), valuesOnly = false): string[] {
  const re =
    /(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (valuesOnly && /^\s*(?:import|export) type\b/.test(m[0])) continue;
    out.push(m[1] ?? m[2] ?? m[3]);
  }
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
      } else if (BUNDLED.has(layer) && !(layer === 'load/k6' && /^k6(\/|$)/.test(spec)))
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

// Type-only imports are erased: the one type cycle is by design (a requirement's id type is derived from the sections,
// which are written with the judgement type that names it).
test('No module imports itself through a cycle of value imports (a module graph without loops).', () => {
  const graph = new Map<string, string[]>();
  for (const file of sources())
    graph.set(
      file,
      importsOf(file, undefined, true)
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

test('The benchmarks import nothing of the self-tests: what both use lives in bench/support.', () => {
  const bench = readdirSync(join(ROOT, 'bench'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  const intoTests = bench.flatMap((f) =>
    importsOf(f)
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(ROOT, resolve(ROOT, dirname(f), s)))
      .filter((target) => target.startsWith('test/'))
      .map((target) => `${f} → ${target}`),
  );
  expect(bench).toContain('bench/support/virtual.ts');
  expect(intoTests).toEqual([]);
});

/** The modules the generated k6 entry of a scenario reaches (type imports included), from load/. */
function reachedFromEntry(scenario: (typeof SCENARIO_NAMES)[number]): Set<string> {
  const seen = new Set<string>();
  const follow = (from: string, specs: string[]) => {
    for (const spec of specs.filter((x) => x.startsWith('.'))) {
      const target = relative(ROOT, resolve(ROOT, dirname(from), spec));
      if (seen.has(target)) continue;
      seen.add(target);
      follow(target, importsOf(target));
    }
  };
  follow('load/entry.ts', importsOf('load/entry.ts', entrySource(scenario)));
  return seen;
}

test('The k6 bundle holds only what the k6 entries import, all of it from the layers bundled for k6 (no argv parser, no --help, no writer).', () => {
  const outside: string[] = [];
  for (const scenario of SCENARIO_NAMES)
    for (const file of reachedFromEntry(scenario)) {
      const layer = layerOf(file);
      if (!layer || !BUNDLED.has(layer)) outside.push(`${scenario}: ${file} (${layer ?? 'no layer'})`);
    }
  expect(outside).toEqual([]);
  // The Node side of configuration stays out: the command line and --help are src/config's.
  const reached = reachedFromEntry('ceiling');
  expect([...reached].filter((f) => f.startsWith('src/config/'))).toEqual([]);
  expect(reached).toContain('src/settings/read-config.ts');
});
