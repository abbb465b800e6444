/**
 * The CPU time of each Node process a test starts, for the run that wants to know which command lines cost what:
 * `SELF_TEST_CHILD_CPU_LOG=<file> NODE_OPTIONS="--import $PWD/test/support/child-cpu.mjs" npx vitest run …` appends,
 * as each Node process exits, its pid, its parent's pid, its CPU seconds (every thread: the module loader's too),
 * its wall seconds and its command line. Processes killed by a signal write nothing.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const log = process.env.SELF_TEST_CHILD_CPU_LOG;
if (log && isMainThread) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    const command = process.argv.slice(1).join(' ').slice(0, 200);
    const line = [process.pid, process.ppid, ((user + system) / 1e6).toFixed(2), process.uptime().toFixed(1), command];
    appendFileSync(log, `${line.join('\t')}\n`);
  });
}
