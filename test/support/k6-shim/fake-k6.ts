/**
 * A stand-in `k6` executable for the CLI tests: `k6 run [flags] <bundle>` runs
 * the bundle under the emulator (real time, real HTTP, reaching the server as
 * k6 would: go-network.ts) with the process environment as __ENV, prints its log to stderr and handleSummary's stdout, and exits with k6's exit
 * code. With FAKE_K6_ARGS set, it appends its arguments there (one line a run). `k6 version`
 * prints FAKE_K6_VERSION (default: a verified release).
 */
import { appendFileSync } from 'node:fs';
import { runK6Real } from './run.ts';
import { GO_VARS } from './go-network.ts';

const args = process.argv.slice(2);
if (args[0] === 'version') {
  process.stdout.write(`k6 ${process.env.FAKE_K6_VERSION || 'v2.2.0'} (fake, linux/amd64)\n`);
  process.exit(0);
}
if (process.env.FAKE_K6_ARGS) appendFileSync(process.env.FAKE_K6_ARGS, `${JSON.stringify(args)}\n`);
if (args[0] !== 'run') {
  process.stderr.write('fake k6: only `run` is supported\n');
  process.exit(1);
}
const bundle = args.filter((a) => !a.startsWith('-'))[1];
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (k.startsWith('ANIMAL_STORE_') && v !== undefined) env[k] = v;
// The Go variables that decide how k6 reaches the server: its proxy, its roots, HTTP/2 or not.
const goEnv: Record<string, string | undefined> = {};
for (const k of GO_VARS) goEnv[k] = process.env[k];
// k6 gives the script the system's variables too (--include-system-env-vars): the bundle's own checks read the proxy
for (const k of GO_VARS) if (process.env[k] !== undefined) env[k] = process.env[k];
const r = await runK6Real(bundle, env, { goEnv });
for (const line of r.log) process.stderr.write(`${line}\n`);
if (r.files.stdout) process.stdout.write(r.files.stdout);
if (r.error) process.stderr.write(`${r.error}\n`);
process.exit(r.exitCode);
