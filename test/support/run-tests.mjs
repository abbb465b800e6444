/**
 * `npm test`: the static checks (static-checks.mjs: the type check and the linter on one TypeScript program, and the
 * format check) and the suite's own tests (Vitest) side by side: the checks use CPU the tests leave — many tests wait on
 * child processes, sockets and timers — instead of holding the first test back for the half minute a fresh clone's
 * checks take (about 40 CPU-seconds, mostly on one core; with their caches, about 6). Not at a lower priority: on a
 * loaded machine the checks would then wait for the tests and end a minute or more after them (measured at a load
 * average of 16 to 33). A failed static check is printed as soon as it ends; the exit code is 1 when the checks or the
 * tests failed. Arguments go to Vitest (`npm test -- test/core`).
 */
import { spawn } from 'node:child_process';

const children = new Set();
const ended = (child) =>
  new Promise((done) => {
    children.add(child);
    child.on('error', (e) => (children.delete(child), done({ code: 1, error: e.message })));
    child.on('close', (code) => (children.delete(child), done({ code: code ?? 1 })));
  });

// Stopped as a whole (npm stopped, CI's timeout): the signal goes on to both, which end by themselves.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });

const checks = spawn(process.execPath, ['test/support/static-checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
let said = '';
checks.stdout.on('data', (d) => (said += d));
checks.stderr.on('data', (d) => (said += d));
const checked = ended(checks).then((r) => {
  if (r.code !== 0) process.stderr.write(`\nstatic checks failed (the tests go on):\n${said}${r.error ?? ''}\n`);
  return r;
});
const tested = ended(
  spawn('node_modules/.bin/vitest', ['run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' }),
);

const [c, t] = await Promise.all([checked, tested]);
if (c.code !== 0) process.stderr.write('npm test: the static checks failed (printed above)\n');
process.exit(c.code !== 0 || t.code !== 0 ? 1 : 0);
