/**
 * The load of a busy CI runner, for a benchmark or a reproduction: `n` CPU-bound
 * Node processes (each a loop that spins on the clock), every one bounded in time
 * — it ends by itself after `ms` even if this process dies — and ended by `stop()`.
 * Started at the lowest priority they would not load the machine the way other
 * work does, so they run at the caller's.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Busy {
  readonly n: number;
  stop(): void;
}

/** The loop each busy process runs: spin until `ms` after it started. */
const loop = (ms: number) => `const end = Date.now() + ${Math.max(0, Math.round(ms))}; while (Date.now() < end);`;

export function startBusy(n: number, ms: number): Busy {
  const children: ChildProcess[] = [];
  for (let i = 0; i < n; i++) children.push(spawn(process.execPath, ['-e', loop(ms)], { stdio: 'ignore' }));
  return {
    n,
    stop: () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  };
}

/** Runs `fn` beside `n` busy processes (bounded by `ms`), stopping them when it ends. */
export async function besideBusy<T>(n: number, ms: number, fn: () => Promise<T>): Promise<T> {
  const busy = startBusy(n, ms);
  try {
    return await fn();
  } finally {
    busy.stop();
  }
}
