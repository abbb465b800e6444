/**
 * Test support, preloaded with `node --import` (through NODE_OPTIONS, so that the conformance run's Vitest worker
 * thread loads it too): records, in order, every file the process reads or asks whether it exists (`R path`) and every
 * file it writes (`W path`; an atomic write's rename counts for its target) below TRACE_READS_ROOT, paths relative
 * to it, one a line in TRACE_READS_OUT. Directory listings are left out (the publisher lists `runs/` to prune it):
 * a run's memory is what it reads. test/workflows/run-memory.test.ts uses it to see which files of an earlier run a
 * later run reads. Does nothing without both variables.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { relative, resolve, sep } from 'node:path';

const root = process.env.TRACE_READS_ROOT;
const out = process.env.TRACE_READS_OUT;

if (root && out) {
  const append = fs.appendFileSync;
  const note = (kind, path) => {
    if (typeof path !== 'string' && !(path instanceof URL)) return; // a file descriptor: its open was noted
    const abs = resolve(path instanceof URL ? path.pathname : path);
    if (abs.startsWith(root + sep)) append(out, `${kind} ${relative(root, abs).split(sep).join('/')}\n`);
  };
  /** Note the argument at `at` (the target of a rename) as `kind`, then call the original. */
  const wrap = (target, name, kind, at = 0) => {
    const original = target[name];
    target[name] = function (...args) {
      note(kind, args[at]);
      return original.apply(this, args);
    };
  };
  for (const name of ['readFileSync', 'existsSync', 'readFile', 'createReadStream']) wrap(fs, name, 'R');
  for (const name of ['writeFileSync', 'writeFile', 'appendFileSync', 'createWriteStream']) wrap(fs, name, 'W');
  wrap(fs, 'renameSync', 'W', 1);
  wrap(fs.promises, 'readFile', 'R');
  wrap(fs.promises, 'writeFile', 'W');
  wrap(fs.promises, 'rename', 'W', 1);
  syncBuiltinESMExports();
}
