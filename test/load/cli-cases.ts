/**
 * `npm run load`'s main() run once per case, one after another, in this one process: `node --import tsx
 * test/load/cli-cases.ts '<cases as JSON>'` prints, as JSON, each case's exit code and what it wrote to stdout and
 * stderr (an exception main() let through: its stack on stderr, exit code null). Each case sees the environment this
 * process started with and its own variables, nothing of the cases before it.
 *
 * Why: cli.test.ts checks that each configuration error is refused with one line and exit 2 before anything starts;
 * a process of the suite costs about a second of CPU time to start, so a dozen cases cost a process, not a dozen.
 * The entry point around main() — its exit code, its closed pipes — is proven by the cases cli.test.ts and
 * closed-pipe.test.ts run as processes of their own.
 */
import { main } from '../../load/node/cli.ts';

export interface Case {
  args: string[];
  env: Record<string, string>;
}
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const started = { ...process.env };

async function run(c: Case): Promise<Outcome> {
  for (const k of Object.keys(process.env)) if (!(k in started)) delete process.env[k];
  Object.assign(process.env, started, c.env);
  const out = { stdout: '', stderr: '' };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((s: string) => ((out.stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((out.stderr += s), true)) as typeof process.stderr.write;
  try {
    return { code: await main(c.args), ...out };
  } catch (e) {
    return { code: null, stdout: out.stdout, stderr: `${out.stderr}${(e as Error).stack ?? String(e)}\n` };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

const outcomes: Outcome[] = [];
for (const c of JSON.parse(process.argv[2]) as Case[]) outcomes.push(await run(c));
process.stdout.write(JSON.stringify(outcomes));
