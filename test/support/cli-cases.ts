/**
 * A command's main() run in this test process, case after case (command: `start`, npm start's certify(); `load`, npm run
 * load's main()): each case's exit code and what it wrote to stdout and stderr (an exception main() let through: its
 * stack on stderr, exit code null). Each case sees the environment of a user's shell — this process's as it started,
 * without the suite's variables (ANIMAL_STORE_*), with NO_COLOR — then `base`, then its own variables, nothing of the
 * cases before it, and its stdout and stderr are captured whole (a command's redacting console included); the process's
 * own are given back after it. Cases run one at a time in this process (a queue): the environment is one per process.
 * A case that calls process.exit (a usage error of npm start) cannot run here: such cases run as processes of their own
 * (runCli in test/support/cli.ts).
 *
 * Why: a process of the suite costs about half a CPU-second to start and load the command (more for npm start's
 * conformance run), and a test file's worker has loaded most of the command's modules already. The entry points around
 * main() — their exit codes, their signals, their closed pipes — are proven by the runs the tests make as processes of
 * their own (runCli, closed-pipe.test.ts, interrupt-and-concurrency.test.ts).
 */
export interface Case {
  args: string[];
  env: Record<string, string>;
}
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Main = (argv: string[]) => Promise<number>;

const COMMANDS: Record<'start' | 'load', () => Promise<Main>> = {
  start: async () => (await import('../../src/cli/certify.ts')).certify,
  load: async () => (await import('../../load/node/cli.ts')).main,
};

/**
 * This process's environment as it started (before any case changed it): a case's starts from it (the suite's own
 * variables left out), and so does a child process's (cleanEnv in test/support/cli.ts) started while a case runs.
 */
export const STARTED: Readonly<NodeJS.ProcessEnv> = Object.freeze({ ...process.env });
const shellEnv = (): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(STARTED)) if (!k.startsWith('ANIMAL_STORE_')) env[k] = v;
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0' };
};

/** process.env made exactly `env` (the same object: modules hold it). */
function setEnv(env: Record<string, string | undefined>): void {
  for (const k of Object.keys(process.env)) if (!(k in env) || env[k] === undefined) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;
}

/** A stream's writes collected into `into.text` (a write's callback still called), until restored. */
function capture(stream: NodeJS.WriteStream, into: { text: string }): () => void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back on the same stream (below)
  const write = stream.write;
  stream.write = (chunk: string | Uint8Array, enc?: unknown, cb?: unknown) => {
    into.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof enc === 'function' ? enc : cb;
    if (typeof done === 'function') queueMicrotask(() => done());
    return true;
  };
  return () => {
    stream.write = write;
  };
}

async function runOne(main: Main, c: Case, base: Record<string, string | undefined>): Promise<Outcome> {
  const before = { ...process.env };
  setEnv({ ...shellEnv(), ...base, ...c.env });
  const out = { text: '' };
  const err = { text: '' };
  const restore = [capture(process.stdout, out), capture(process.stderr, err)];
  try {
    return { code: await main(c.args), stdout: out.text, stderr: err.text };
  } catch (e) {
    return { code: null, stdout: out.text, stderr: `${err.text}${(e as Error).stack ?? String(e)}\n` };
  } finally {
    for (const r of restore) r();
    setEnv(before);
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Each case through the main() of `command`, one after another in this process. `base`: variables every case sees
 * (undefined: left out of its environment, e.g. K6_BIN).
 */
export function runCases<K extends string>(
  command: 'start' | 'load',
  cases: Record<K, Case>,
  base: Record<string, string | undefined> = {},
): Promise<Record<K, Outcome>> {
  const run = async () => {
    const main = await COMMANDS[command]();
    const outcomes = {} as Record<K, Outcome>;
    for (const name of Object.keys(cases) as K[]) outcomes[name] = await runOne(main, cases[name], base);
    return outcomes;
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}
