/**
 * How a Node entry point ends: with its exit code, once what it wrote to stdout
 * and stderr has been handed to them. `process.exit()` right after a write to a
 * pipe may drop the write (pipes are asynchronous): a test reading the output —
 * or a CI log — would then miss the one line that says what went wrong.
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
