/**
 * What every command-line entry point shares: the exit codes, the one-line
 * configuration error (exit 2), a redacting console, and the exit code of a
 * report.
 */
import { ConfigError } from '../core/config.ts';
import { envKeys, keysOf } from '../core/plan-keys.ts';
import { makeRedactor } from '../core/redact.ts';
import type { RunReport } from '../results/types.ts';

/** The exit codes, one table for every command (README lists them). */
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

export function failUsage(e: unknown, prefix = 'animal-store: configuration error: '): never {
  const msg = e instanceof ConfigError ? e.message : ((e as Error)?.message ?? String(e));
  process.stderr.write(`${prefix}${makeRedactor(envKeys(process.env))(msg)}\n`);
  process.exit(EXIT.usage);
}

/** Route console output through the redactor so the key never reaches stdout/stderr. */
export function guardOutput(secrets: readonly (string | undefined)[]): void {
  const redact = makeRedactor(secrets);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === 'string' ? redact(chunk) : Buffer.isBuffer(chunk) ? redact(chunk.toString('utf8')) : chunk,
        ...rest,
      )) as typeof stream.write;
  }
}

/** The exit code a report calls for. */
export function exitCodeOf(report: RunReport, o: { requireComplete: boolean; abortReason?: string }): number {
  if (report.interrupted) return EXIT.interrupted;
  if (o.abortReason === 'unreachable') return EXIT.unreachable;
  if (o.abortReason === 'key-refused') return EXIT.keyRefused;
  if (report.outcome === 'not-conformant') return EXIT.notConformant;
  if (report.abort) return EXIT.stopped;
  if (report.outcome === 'incomplete' && o.requireComplete) return EXIT.incomplete;
  return EXIT.ok;
}
