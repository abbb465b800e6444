/**
 * The type check (tsc's, of tsconfig.json) and the linter (ESLint, eslint.config.js) on one TypeScript program: the
 * type-aware rules read the types tsc has just computed instead of building a second program (a fresh clone: about
 * 27 CPU-seconds for both, tsc alone 11, instead of about 35 as two processes; with the caches and nothing changed,
 * about 5: the program is still read). `npm test` runs it beside Prettier
 * (test/support/static-checks.mjs); `npm run lint [-- --fix]` runs the linter alone, on the same program and caches.
 *
 * Both remember what they found unchanged, under node_modules/.cache/animal-store (never committed, gone with a fresh
 * `npm ci`): tsc's incremental build info, and ESLint's cache (keyed by each file's content and its configuration).
 * ESLint's cache knows nothing of types: a file whose content is unchanged keeps its cached lint results even when a
 * type it imports changed. TypeScript knows which files such a change affects (the builder's affected files, whose
 * diagnostics it checks again): each is stamped with the run's number, kept beside ESLint's cache (eslint-types.json),
 * and that stamp is a setting of the file's configuration, whose hash ESLint's cache compares: a stamped file is linted
 * again once, then cached with its stamp. A missing ESLint cache lints everything, and starts with no stamps.
 */
import { ESLint } from 'eslint';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = `${ROOT}/node_modules/.cache/animal-store`;
/** The files ESLint lints (eslint.config.js): JavaScript and TypeScript. */
const LINTED = /\.[cm]?[jt]s$/;

const parsed = (config, options = {}) => {
  const cmd = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, config), options, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  });
  if (!cmd) throw new Error(`cannot read ${config}`);
  return cmd;
};

/** tsconfig.json as tsc --incremental builds it; the files whose diagnostics changed are checked again (`affected`). */
function typecheck() {
  const cmd = parsed('tsconfig.json', { incremental: true, tsBuildInfoFile: `${CACHE}/tsc.tsbuildinfo` });
  const builder = ts.createIncrementalProgram({
    rootNames: cmd.fileNames,
    options: cmd.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(cmd),
    host: ts.createIncrementalCompilerHost(cmd.options),
  });
  const affected = [];
  for (let r = builder.getSemanticDiagnosticsOfNextAffectedFile(); r; r = builder.getSemanticDiagnosticsOfNextAffectedFile())
    if ('fileName' in r.affected) affected.push(relative(ROOT, r.affected.fileName));
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  builder.emit(); // with noEmit: the build info only
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  const out = diagnostics.length ? `${ts.formatDiagnostics(diagnostics, host)}\nFound ${diagnostics.length} error(s).\n` : '';
  return { program: builder.getProgram(), affected: affected.filter((f) => !f.startsWith('..') && !f.startsWith('node_modules/')), out };
}

/**
 * The configuration blocks stamping the files whose types changed (see above): the stamps of earlier runs, this run's
 * number on the files TypeScript found affected. One block per stamp.
 */
function typeStamps(affected) {
  const file = `${CACHE}/eslint-types.json`;
  mkdirSync(CACHE, { recursive: true });
  const known = existsSync(`${CACHE}/eslint.json`) && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { run: 0, stamps: {} };
  const run = known.run + 1;
  const stamps = existsSync(`${CACHE}/eslint.json`) ? { ...known.stamps, ...Object.fromEntries(affected.map((f) => [f, run])) } : {};
  writeFileSync(file, JSON.stringify({ run, stamps }));
  const byStamp = new Map();
  // Only the files ESLint lints: a JSON file a module imports is affected too, but a configuration block naming it
  // would make ESLint lint it (as JavaScript).
  for (const [f, stamp] of Object.entries(stamps)) if (LINTED.test(f)) byStamp.set(stamp, [...(byStamp.get(stamp) ?? []), f]);
  return [...byStamp].map(([stamp, files]) => ({ files, settings: { 'animal-store/types-changed': stamp } }));
}

/** ESLint on every file, the TypeScript ones typed by `programs` (tsconfig.json's, then load/tsconfig.json's for the k6 side). */
async function lint({ programs, affected, fix }) {
  // ESLint hashes each file's configuration for its cache: the programs stand there as their names.
  const shared = Object.assign([...programs], { toJSON: () => 'the programs of tsconfig.json and load/tsconfig.json' });
  const eslint = new ESLint({
    cwd: ROOT,
    cache: true,
    cacheLocation: `${CACHE}/eslint.json`,
    cacheStrategy: 'content',
    fix,
    overrideConfig: [
      { files: ['**/*.{ts,mts}'], languageOptions: { parserOptions: { projectService: false, programs: shared } } },
      ...typeStamps(affected),
    ],
  });
  const results = await eslint.lintFiles(['.']);
  if (fix) await ESLint.outputFixes(results);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const out = await (await eslint.loadFormatter('stylish')).format(results);
  return { code: problems ? 1 : 0, out };
}

/** The type check and/or the linter: each one's output, and 1 if either found anything. */
export async function typecheckAndLint({ types = true, rules = true, fix = false } = {}) {
  const checked = typecheck();
  let out = types ? checked.out : '';
  let code = types && checked.out ? 1 : 0;
  if (rules) {
    const load = parsed('load/tsconfig.json');
    const programs = [checked.program, ts.createProgram({ rootNames: load.fileNames, options: load.options })];
    const linted = await lint({ programs, affected: checked.affected, fix });
    out += linted.out;
    code = code || linted.code;
  }
  return { code, out };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--fix');
  if (unknown.length) {
    process.stderr.write(`usage: npm run lint [-- --fix]\nunknown: ${unknown.join(' ')}\n`);
    process.exit(2);
  }
  const { code, out } = await typecheckAndLint({ types: false, fix: args.includes('--fix') });
  process.stdout.write(out);
  process.exit(code);
}
