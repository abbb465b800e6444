/**
 * The static checks `npm test` runs before the tests: the type check (tsc) and
 * the format check (prettier), side by side — each is one process, mostly on one
 * core, so together they take about the time of the longer one. Each one's output
 * is printed whole, after it ends; the exit code is 1 if either failed.
 */
import { spawn } from 'node:child_process';

const CHECKS = [
  ['typecheck', 'tsc', ['--noEmit', '-p', 'tsconfig.json']],
  ['format check', 'prettier', ['--check', '--log-level', 'warn', '.']],
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
