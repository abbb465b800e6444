/**
 * Runs a command beside `n` CPU-bound processes (busy.ts), for reproducing what load does to it:
 * `node --import tsx bench/support/beside-busy-cli.ts 8 -- npm test`. The busy processes end with the command,
 * and by themselves after BUSY_MAX_MS (default 40 minutes) whatever happens. Prints the load average before and
 * after, and the command's wall time; exits with the command's code. Hold `flock /work/.busy.lock` around it.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { startBusy } from './busy.ts';

const [nArg, sep, cmd, ...args] = process.argv.slice(2);
const n = Number(nArg);
if (!Number.isInteger(n) || n < 0 || sep !== '--' || !cmd) {
  process.stderr.write('usage: beside-busy-cli.ts <n> -- <command> [args…]\n');
  process.exit(2);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const before = load();
const started = Date.now();
const busy = startBusy(n, Number(process.env.BUSY_MAX_MS ?? 40 * 60_000));
const child = spawn(cmd, args, { stdio: 'inherit' });
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s));
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, loadavg()[0])), 5_000);
child.on('close', (code) => {
  clearInterval(sampler);
  busy.stop();
  const s = ((Date.now() - started) / 1000).toFixed(0);
  process.stderr.write(`\nbeside ${n} busy: exit ${code}, ${s} s, load average ${before} -> ${load()} (peak 1-min ${peak.toFixed(1)})\n`);
  process.exit(code ?? 1);
});
