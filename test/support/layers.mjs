/**
 * ARCHITECTURE.md's layering as data, shared by the two checks that enforce it: eslint.config.js turns it into
 * `no-restricted-imports` blocks, one per folder (which layer may import which, the k6-bundled layers free of packages
 * and built-ins, the reference server reading only the JSON files of schemas/, the benchmarks importing nothing of
 * test/), and test/architecture.test.ts checks with it what a linter cannot see file by file (import cycles, what the
 * k6 bundle reaches). Who may import whom is read from ARCHITECTURE.md's table itself: the document and the checks
 * cannot drift apart. Plain JavaScript, as the ESLint configuration that imports it (types: layers.d.mts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The layers and the files each holds, first match wins: `dir` (everything under a folder), `file` (one file), `top`
 * (the files directly in a folder). Layers not in ARCHITECTURE.md's table (`test`, `bench`: "anything") are listed
 * so that no product layer may import them.
 */
export const LAYERS = [
  { name: 'src/core', dir: 'src/core' },
  { name: 'src/settings', dir: 'src/settings' },
  { name: 'src/schemas', dir: 'src/schemas' },
  { name: 'src/results', dir: 'src/results' },
  { name: 'src/config', dir: 'src/config' },
  { name: 'src/http', dir: 'src/http' },
  { name: 'src/checks', dir: 'src/checks' },
  { name: 'src/target', dir: 'src/target' },
  { name: 'src/harness', dir: 'src/harness' },
  { name: 'src/explore', dir: 'src/explore' },
  { name: 'src/cli', dir: 'src/cli' },
  { name: 'schemas', dir: 'schemas' },
  { name: 'reference/main.ts', file: 'reference/main.ts' },
  { name: 'reference', dir: 'reference' },
  { name: 'conformance', dir: 'conformance' },
  { name: 'load/lib', dir: 'load/lib' },
  { name: 'load/node', dir: 'load/node' },
  { name: 'load/build', file: 'load/build.ts' },
  { name: 'load/k6', dir: 'load/k6' },
  { name: 'load/k6', top: 'load' },
  { name: 'test', dir: 'test' },
  { name: 'bench', dir: 'bench' },
];

const holds = (m, path) =>
  m.file ? path === m.file : m.dir ? path.startsWith(`${m.dir}/`) : posix.dirname(path) === m.top && path.endsWith('.ts');

/** The layer of a file, by its path from the root (undefined: no layer). */
export const layerOf = (path) => LAYERS.find((m) => holds(m, path))?.name;

const ARCHITECTURE = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** ARCHITECTURE.md's table, read from the file itself: who may import whom ("anything" rows left out). */
export const MAY_IMPORT = (() => {
  const out = {};
  for (const line of ARCHITECTURE.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const m = /^`([^`]+)`$/.exec(cells[1] ?? '');
    if (!m || cells.length < 5 || cells[3] === 'anything') continue;
    out[m[1]] = [...cells[3].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
  }
  return out;
})();

/** The layers bundled for k6, as ARCHITECTURE.md names them ("Bundled for k6: `a`, `b`."): free of packages and Node built-ins. */
export const BUNDLED = (() => {
  const list = /Bundled for k6: ([^.]+)\./.exec(ARCHITECTURE.replace(/\s+/g, ' '))?.[1] ?? '';
  return new Set([...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
})();

/** Every folder of the layered code holding TypeScript, from the root, each with its files. */
export function sourceFolders(tops = ['src', 'reference', 'conformance', 'load', 'schemas', 'bench']) {
  const folders = new Map();
  for (const top of tops)
    for (const e of readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true })) {
      const path = relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/');
      if (!e.isFile() || !/\.(ts|mts)$/.test(e.name) || path.includes('/dist/')) continue;
      const dir = posix.dirname(path);
      folders.set(dir, [...(folders.get(dir) ?? []), path]);
    }
  return folders;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How an import written in `from` (a folder) starts when it names `to` (a folder): './x/', '../x/', './'. */
function prefix(from, to) {
  const rel = posix.relative(from, to);
  return rel === '' ? './' : rel.startsWith('..') ? `${rel}/` : `./${rel}/`;
}

/**
 * A regular expression of the import specifiers, written in folder `from`, that name a file of matcher `m`. A file
 * layer earlier in LAYERS (load/build.ts in load/, reference/main.ts in reference/) is left out of a folder's match.
 */
function specifierPattern(from, m) {
  const earlierFiles = LAYERS.slice(0, LAYERS.indexOf(m))
    .filter((e) => e.file && (m.dir ? e.file.startsWith(`${m.dir}/`) : posix.dirname(e.file) === m.top))
    .map((e) => escape(prefix(from, posix.dirname(e.file)) + posix.basename(e.file)));
  const not = earlierFiles.length ? `(?!(?:${earlierFiles.join('|')})$)` : '';
  if (m.file) return `^${escape(prefix(from, posix.dirname(m.file)) + posix.basename(m.file))}$`;
  const start = prefix(from, m.dir ?? m.top);
  // A folder that holds `from` is reached by going up only: what follows must not go up again.
  const inside = /^(\.\.\/)*$|^\.\/$/.test(start) ? '(?!\\.\\.?/)' : '';
  return m.dir ? `^${not}${escape(start)}${inside}` : `^${not}${escape(start)}${inside}[^/]+\\.ts$`;
}

/** The restricted import specifiers of a file of `layer` in folder `dir`: each a pattern and the rule it breaks. */
export function restrictedImports(dir, layer) {
  const out = [];
  const allowed = MAY_IMPORT[layer];
  if (allowed)
    for (const m of LAYERS)
      if (!allowed.includes(m.name))
        out.push({
          regex: specifierPattern(dir, m),
          message: `${layer} may not import ${m.name} (ARCHITECTURE.md: ${allowed.join(', ')}).`,
        });
  if (BUNDLED.has(layer))
    out.push({
      regex: layer === 'load/k6' ? '^(?!\\.|k6(?:/|$))' : '^(?!\\.)',
      message: `${layer} is bundled for k6: no package and no Node built-in${layer === 'load/k6' ? ' (only k6 modules)' : ''} (ARCHITECTURE.md).`,
    });
  if (layer.startsWith('reference'))
    out.push({
      regex: `^${escape(prefix(dir, 'schemas'))}.*(?<!\\.json)$`,
      message: 'The reference server reads only the JSON Schema files of schemas/, never the code beside them.',
    });
  if (layer === 'bench')
    out.push({
      regex: `^${escape(prefix(dir, 'test'))}`,
      message: 'The benchmarks import nothing of the self-tests: what both use lives in bench/support.',
    });
  return out;
}

/** What the layers bundled for k6 may not use besides packages (ARCHITECTURE.md): timers, the global crypto. */
const K6_GLOBALS = [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
  'crypto',
];

/**
 * The import rules of one folder's files of one layer: the patterns for static imports, the same for `import()` and
 * `typeof import()`; in a layer bundled for k6, no BigInt literal (ES2017), no timer and no global crypto either.
 */
function importRules(dir, layer) {
  const patterns = restrictedImports(dir, layer);
  const selector = (node) =>
    patterns.map(({ regex, message }) => ({ selector: `${node}[value=/${regex.replaceAll('/', '\\/')}/]`, message }));
  const bundled = `${layer} is bundled for k6 (ARCHITECTURE.md)`;
  const rules = {
    'no-restricted-imports': ['error', { patterns: patterns.map((p) => ({ ...p, caseSensitive: true })) }],
    'no-restricted-syntax': [
      'error',
      ...selector('ImportExpression > Literal.source'),
      ...selector('TSImportType > Literal.source'),
      ...(BUNDLED.has(layer)
        ? [{ selector: 'Literal[bigint]', message: `${bundled}: no BigInt literal (ES2017); BigInt('…') instead.` }]
        : []),
    ],
  };
  if (BUNDLED.has(layer))
    rules['no-restricted-globals'] = ['error', ...K6_GLOBALS.map((name) => ({ name, message: `${bundled}: no ${name}.` }))];
  return rules;
}

/** The import rules of each folder of layered code, then of each file whose layer is not its folder's (load/build.ts, reference/main.ts). */
export function layeringBlocks() {
  const blocks = [];
  for (const [dir, files] of sourceFolders()) {
    const folderLayer = layerOf(`${dir}/*.ts`);
    if (folderLayer)
      blocks.push({ name: `animal-store/layering ${dir}/`, files: [`${dir}/*.{ts,mts}`], rules: importRules(dir, folderLayer) });
    for (const file of files.filter((f) => layerOf(f) !== folderLayer))
      blocks.push({ name: `animal-store/layering ${file}`, files: [file], rules: importRules(dir, layerOf(file)) });
  }
  return blocks;
}
