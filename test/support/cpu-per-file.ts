/**
 * Where `npm test`'s time goes, measured without the machine's load: with SELF_TEST_CPU_LOG=<file> set, each test
 * file appends one line to that file — its path, the CPU seconds of its worker process while it ran (its imports
 * included), the CPU seconds of the child processes it waited for (command-line runs, Chromium, tsc, bash), its
 * wall seconds, then the worker's resident and heap megabytes and its pid after it (a worker runs many files: what one
 * file leaves behind shows in the next ones') — so files compare by the work they do, whatever else the machine runs. Read with
 * `sort -t$'\t' -k2 -nr`. The files of one worker run one after another (isolate: false), so the lines add up to
 * the run's CPU time, less Vitest's own. Linux only (/proc).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/** CPU seconds of this process and of its children waited for, from /proc/self/stat (utime, stime, cutime, cstime). */
function cpu(): { self: number; children: number } {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = 100; // USER_HZ on Linux
  return { self: (Number(f[11]) + Number(f[12])) / ticks, children: (Number(f[13]) + Number(f[14])) / ticks };
}

// Evaluated again before each test file (a setup file): the file's imports are counted.
const start = cpu();
const started = Date.now();
let file = '';

// (Vitest reads a hook's first parameter as its fixtures: an empty pattern asks for none.)
// eslint-disable-next-line no-empty-pattern -- the empty pattern is how Vitest is told (above)
beforeAll(({}, suite) => {
  file = suite.file.filepath;
});

afterAll(() => {
  const end = cpu();
  const path = file.replace(/^.*?\/test\//, 'test/');
  const line = [
    path,
    end.self - start.self,
    end.children - start.children,
    (Date.now() - started) / 1000,
    process.memoryUsage().rss / 1e6,
    process.memoryUsage().heapUsed / 1e6,
    String(process.pid),
  ];
  appendFileSync(process.env.SELF_TEST_CPU_LOG as string, `${line.map((v) => (typeof v === 'number' ? v.toFixed(2) : v)).join('\t')}\n`);
});
