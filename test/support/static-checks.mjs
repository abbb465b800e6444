/**
 * The static checks `npm test` runs beside the tests (test/support/run-tests.mjs): the type check and the linter on
 * one TypeScript program (test/support/typecheck-lint.mjs, in this process) beside the format check (prettier, a child
 * process) — together they take about the time of the longer one. What none of them found changed since the last run is not checked
 * again: tsc's incremental build info, ESLint's and Prettier's caches are kept under node_modules/.cache/animal-store
 * (never committed, gone with a fresh `npm ci`; Prettier's is keyed by each file's content, Prettier's version and
 * options). A fresh clone checks everything. Each one's output is printed whole, after it ends; the exit code is 1 if
 * any failed.
 */
import { spawn } from 'node:child_process';
import { typecheckAndLint } from './typecheck-lint.mjs';

const CACHE = 'node_modules/.cache/animal-store';
const PRETTIER = [
  '--check',
  '--log-level',
  'warn',
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  `${CACHE}/prettier.json`,
  '.',
];

const prettier = (child = spawn('node_modules/.bin/prettier', PRETTIER, { stdio: ['ignore', 'pipe', 'pipe'] })) =>
  new Promise((done) => {
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => done({ name: 'format check', code: 1, out: `${out}${e.message}\n` }));
    child.on('close', (code) => done({ name: 'format check', code: code ?? 1, out }));
  });

const formatting = prettier(); // started first: it runs in its own process while this one type-checks and lints
const typed = await typecheckAndLint().then(
  (r) => ({ name: 'type check and lint', ...r }),
  (e) => ({ name: 'type check and lint', code: 1, out: `${e.stack ?? e}\n` }),
);
const results = [typed, await formatting];
for (const r of results) {
  if (r.out) process.stdout.write(r.out);
  if (r.code !== 0) process.stderr.write(`${r.name} failed (exit ${r.code})\n`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
