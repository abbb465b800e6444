/**
 * The static checks `npm test` runs before the tests: the type check (tsc) and
 * the format check (prettier), side by side — each is one process, mostly on one
 * core, so together they take about the time of the longer one; what neither found changed since the last run is not
 * checked again (below). Each one's output
 * is printed whole, after it ends; the exit code is 1 if either failed.
 */
import { spawn } from 'node:child_process';

// What each check found unchanged is remembered under node_modules/.cache (never committed, gone with a fresh
// `npm ci`): tsc's incremental build info (the files and their hashes, so only what changed is checked again) and
// Prettier's cache (keyed by each file's content, Prettier's version and options). A fresh clone checks everything.
const CACHE = 'node_modules/.cache/animal-store';
const CHECKS = [
  ['typecheck', 'tsc', ['--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', `${CACHE}/tsc.tsbuildinfo`]],
  [
    'format check',
    'prettier',
    ['--check', '--log-level', 'warn', '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/prettier.json`, '.'],
  ],
];

const run = ([name, bin, args]) =>
  new Promise((done) => {
    const child = spawn(`node_modules/.bin/${bin}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => done({ name, code: 1, out: `${out}${e.message}\n` }));
    child.on('close', (code) => done({ name, code: code ?? 1, out }));
  });

const results = await Promise.all(CHECKS.map(run));
for (const r of results) {
  if (r.out) process.stdout.write(r.out);
  if (r.code !== 0) process.stderr.write(`${r.name} failed (exit ${r.code})\n`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
