/**
 * Time for the load engines and the orchestrator: the real clock in use, a
 * virtual one in the self-tests (scenario logic then runs on simulated time,
 * independent of the machine's speed). `sleep` resolves after `ms`, or at once
 * when the signal aborts; `wake` (the driver's) cuts a wait short when a
 * response arrives.
 */
export interface Clock {
  now(): number;
  /** Resolve after `ms` (or when `signal` aborts). Returns a function that resolves it early. */
  wait(ms: number, signal?: AbortSignal): { done: Promise<void>; wake: () => void };
}

export const realClock: Clock = {
  now: () => Date.now(),
  wait(ms, signal) {
    let wake = (): void => undefined;
    const done = new Promise<void>((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const finish = () => {
        clearTimeout(t);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const t = setTimeout(finish, ms);
      signal?.addEventListener('abort', finish, { once: true });
      wake = finish;
    });
    return { done, wake: () => wake() };
  },
};

export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return clock.wait(ms, signal).done;
}
