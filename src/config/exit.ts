/**
 * How a Node entry point ends: the exit codes of every command (npm start, npm
 * run conformance, npm run load, npm run load:merge), one table, which README
 * lists; and `exitFlushed`, which exits once what was written has been handed on.
 */
export const EXIT = {
  /** certified (or passed, incomplete, without --require-complete) */
  ok: 0,
  /** a MUST requirement failed */
  notConformant: 1,
  /** usage or configuration error */
  usage: 2,
  /** target unreachable (refused, unknown host, TLS) */
  unreachable: 3,
  /** passed, incomplete, under --require-complete: MUST requirements were not exercised */
  incomplete: 4,
  /** the API key was refused (every authenticated request answered 401) */
  keyRefused: 5,
  /** stopped early: deadline, budget, a wait longer than --max-wait-ms, a key throttled before the run */
  stopped: 6,
  interrupted: 130,
} as const;

export const EXIT_HELP = `Exit codes: 0 certified (also "passed, incomplete" unless --require-complete), 1 not conformant (a MUST failed),
2 usage or configuration error, 3 target unreachable, 4 passed but incomplete under --require-complete,
5 the API key was refused, 6 stopped early (deadline, budget, a wait longer than --max-wait-ms), 130 interrupted.`;

/**
 * End with `code`, once what was written to stdout and stderr has been handed
 * to them. `process.exit()` right after a write to a pipe may drop the write
 * (pipes are asynchronous): a test reading the output — or a CI log — would then
 * miss the one line that says what went wrong.
 */
export function exitFlushed(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  // Each stream calls back once everything written before this empty write is handled.
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/**
 * A reader that closed the pipe early (`npm start -- --help | head -3`) is no
 * error of the run: Node would throw EPIPE from the next write, a stack trace
 * instead of a verdict. Writes to a closed stdout or stderr are dropped; the run
 * goes on, writes its reports and exits with its own code.
 */
export function ignoreClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      // Dropped, but a write's callback still comes (exitFlushed waits for it before it exits).
      stream.write = (...args: unknown[]) => {
        const done = args.find((a) => typeof a === 'function') as (() => void) | undefined;
        if (done) setImmediate(done);
        return true;
      };
    });
  }
}
