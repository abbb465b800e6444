/**
 * The suite's commands and its conformance specs as JavaScript, built once by esbuild, so that a command starts
 * without transforming TypeScript (tsx) and a conformance run without Vite transforming the suite (issue 32).
 *
 * Where: node_modules/.cache/animal-store/js/<key>/ (a temporary folder of the user's when node_modules cannot be
 * written), one ES module per entry point at its source's path (`src/cli/main.mjs`, `conformance/auth/….spec.mjs`),
 * the modules they share in `chunks/`. Nothing built is committed.
 *
 * Never stale: <key> is the SHA-256 of every source file the build may read — each file of SOURCE_DIRS (its path and
 * content), package.json, package-lock.json, tsconfig.json and this file — computed afresh by every command as it
 * starts (about 7 ms of CPU time for 230 files). An edited, added, removed or renamed source gives another key, and
 * the command builds it (about 0.3 CPU-seconds) before it runs; an unchanged tree runs what was built for it. A
 * build is written to a folder of its own and renamed into place when complete, so a command never sees half of one;
 * several commands that find the same key missing build it once (a lock folder; the others wait for it).
 *
 * The built code behaves as its sources do: `import.meta.url`, `.dirname` and `.filename` are replaced by the
 * source file's (files read beside a module, and the "run as a script" checks, see the sources), and
 * `process.argv[1]` is the source entry point's path (bin/run.mjs). Packages stay imports (node_modules), as under tsx.
 *
 * `node bin/build.mjs` builds now (npm's `prepare`, after `npm ci`), printing the folder.
 */
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The commands run from the build (package.json's scripts, bin/certify.mjs and action.yml go through bin/run.mjs). */
export const ENTRIES = [
  'src/cli/main.ts',
  'src/cli/conformance.ts',
  'load/node/cli.ts',
  'load/node/merge-cli.ts',
  'reference/main.ts',
  'load/build.ts',
  'src/cli/action-report.ts',
];

/** Every file below these folders is a source of the build (load/dist, the k6 bundles, is output: left out). */
const SOURCE_DIRS = ['src', 'conformance', 'load', 'reference', 'schemas'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'bin/build.mjs'];
const OUTPUT_DIRS = new Set(['load/dist']);
const SPEC_SUFFIX = '.spec.ts';
/** A build older than this that is not the current one is removed by the next build. */
const KEEP_OLD_MS = 24 * 3600_000;
const LOCK_STALE_MS = 120_000;

/** The source files, sorted (relative paths with '/'). */
export function sourceFiles(root = ROOT) {
  const out = [];
  for (const dir of SOURCE_DIRS) {
    if (!existsSync(join(root, dir))) continue;
    for (const e of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      const rel = relative(root, join(e.parentPath, e.name)).split(sep).join('/');
      if (![...OUTPUT_DIRS].some((o) => rel.startsWith(`${o}/`))) out.push(rel);
    }
  }
  for (const f of SOURCE_FILES) if (existsSync(join(root, f))) out.push(f);
  return out.sort();
}

/**
 * The key of the sources as they are now: every source file's path and content, and where the checkout is (a build
 * holds absolute paths: a checkout moved, or a node_modules copied to another, builds anew).
 */
export function sourceKey(root = ROOT) {
  const h = createHash('sha256').update(`${root}\0`);
  for (const f of sourceFiles(root)) {
    const content = readFileSync(join(root, f));
    h.update(`${f}\0${content.length}\0`).update(content);
  }
  return h.digest('hex').slice(0, 24);
}

/** Where builds are kept: under node_modules/.cache when it can be written, else in the temporary folder. */
function cacheRoot(root) {
  for (const dir of [
    join(root, 'node_modules/.cache/animal-store/js'),
    join(tmpdir(), `animal-store-js-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`),
  ]) {
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      return dir;
    } catch {
      // Read-only: the next candidate.
    }
  }
  throw new Error('bin/build.mjs: neither node_modules/.cache nor the temporary folder can be written');
}

const COMPLETE = 'complete.json';

/** The folder of the build of the sources as they are now, built first when missing. */
export async function ensureBuilt(root = ROOT) {
  const key = sourceKey(root);
  const cache = cacheRoot(root);
  const dir = join(cache, key);
  if (existsSync(join(dir, COMPLETE))) return used(dir);
  const lock = join(cache, `${key}.lock`);
  if (await waitForOtherBuild(lock, join(dir, COMPLETE))) return dir;
  try {
    await build(root, key, dir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  removeOldBuilds(cache, key);
  return dir;
}

/**
 * Takes the lock (false: this process builds) or waits while another live process holds it; true when that process's
 * build appeared. A lock whose process ended (killed mid-build) or older than LOCK_STALE_MS is not waited for.
 */
async function waitForOtherBuild(lock, complete) {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return false;
  } catch {
    // Another process builds the same key.
  }
  while (lockHeld(lock)) {
    if (existsSync(complete)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return existsSync(complete);
}

function lockHeld(lock) {
  if (!existsSync(lock) || Date.now() - mtimeOf(lock) > LOCK_STALE_MS) return false;
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return true; // Taken an instant ago: its pid is being written.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** A build in use is kept: its folder's time is what removeOldBuilds reads. */
function used(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // A read-only cache: nothing removes builds there either.
  }
  return dir;
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** esbuild's plugin giving each module its source file's import.meta. */
function sourceLocations(root) {
  return {
    name: 'source-locations',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(root + sep)) return undefined;
        const text = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents: text, loader: 'ts' };
      });
    },
  };
}

/** Builds the entries and every spec into `dir` (through a folder of its own, renamed into place). */
async function build(root, key, dir) {
  const { build: esbuild, stop } = await import('esbuild');
  const specs = sourceFiles(root).filter((f) => f.startsWith('conformance/') && f.endsWith(SPEC_SUFFIX));
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  await esbuild({
    absWorkingDir: root,
    entryPoints: [...ENTRIES, ...specs],
    outdir: tmp,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [sourceLocations(root)],
  });
  // esbuild's service process is not needed by the command: ended now, not left to the command's exit.
  await stop();
  writeFileSync(join(tmp, COMPLETE), `${JSON.stringify({ key, builtAt: new Date().toISOString(), entries: ENTRIES, specs }, null, 2)}\n`);
  try {
    renameSync(tmp, dir);
  } catch (e) {
    // Another process renamed the same key into place first: its build is the same.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, COMPLETE))) throw e;
  }
}

function removeOldBuilds(cache, current) {
  for (const name of readdirSync(cache)) {
    if (name === current || name.startsWith('.')) continue;
    const path = join(cache, name);
    if (Date.now() - mtimeOf(path) > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The built module of a source file (`src/cli/main.ts` → `<dir>/src/cli/main.mjs`). */
export function builtPath(dir, source) {
  return join(dir, source.replace(/\.ts$/, '.mjs'));
}

/**
 * The arguments of `node` that run a command of the suite (`entry` relative to `root`): a command of ENTRIES from its
 * build, through bin/run.mjs, as package.json's scripts do; any other module (a test's helper) under tsx.
 */
export function nodeArgs(entry, root = ROOT) {
  const rel = relative(root, resolve(root, entry)).split(sep).join('/');
  return ENTRIES.includes(rel) ? [join(root, 'bin/run.mjs'), rel] : ['--import', 'tsx', resolve(root, entry)];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await ensureBuilt()}\n`);
}
