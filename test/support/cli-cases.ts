/**
 * A command's main() run once per case, one after another, in this one process: `node --import tsx
 * test/support/cli-cases.ts <command> '<cases as JSON>'` (command: `start`, npm start's certify(); `load`, npm run
 * load's main()) prints, as JSON, each case's exit code and what it wrote to stdout and stderr (an exception main()
 * let through: its stack on stderr, exit code null). Each case sees the environment this process started with and its
 * own variables, nothing of the cases before it. A case that calls process.exit (a usage error of npm start) ends the
 * process: such cases are run as processes of their own.
 *
 * Why: a process of the suite costs one to three seconds of CPU time to start (tsx, then the modules of the command):
 * a dozen configuration errors, dry runs or --help cost a process, not a dozen. The entry points around main() — their
 * exit codes, their closed pipes — are proven by the runs the tests make as processes of their own (runCli in
 * test/support/cli.ts, closed-pipe.test.ts).
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

const COMMANDS: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  start: async () => (await import('../../src/cli/certify.ts')).certify,
  load: async () => (await import('../../load/node/cli.ts')).main,
};

const started = { ...process.env };

async function run(main: (argv: string[]) => Promise<number>, c: Case): Promise<Outcome> {
  for (const k of Object.keys(process.env)) if (!(k in started)) delete process.env[k];
  Object.assign(process.env, started, c.env);
  const out = { stdout: '', stderr: '' };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back on the same stream (finally, below)
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = (s: string) => ((out.stdout += s), true);
  process.stderr.write = (s: string) => ((out.stderr += s), true);
  try {
    return { code: await main(c.args), ...out };
  } catch (e) {
    return { code: null, stdout: out.stdout, stderr: `${out.stderr}${(e as Error).stack ?? String(e)}\n` };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

const [command, cases] = process.argv.slice(2);
if (!COMMANDS[command]) throw new Error(`cli-cases.ts: unknown command ${command} (${Object.keys(COMMANDS).join(', ')})`);
const main = await COMMANDS[command]();
const outcomes: Outcome[] = [];
for (const c of JSON.parse(cases) as Case[]) outcomes.push(await run(main, c));
process.stdout.write(JSON.stringify(outcomes));
