/**
 * What every command-line entry point shares: the exit codes, the one-line
 * configuration error (exit 2), a redacting console, and the exit code of a
 * report.
 */
import { writeSync } from 'node:fs';
import { ConfigError } from '../settings/read-config.ts';
import { envKeys } from '../settings/plan-keys.ts';
import { makeRedactor } from '../core/redact.ts';
import type { RunReport } from '../results/types.ts';

export { EXIT, EXIT_HELP } from '../config/exit.ts';
import { EXIT } from '../config/exit.ts';

export function failUsage(e: unknown, prefix = 'animal-store: configuration error: '): never {
  const msg = e instanceof ConfigError ? e.message : ((e as Error)?.message ?? String(e));
  // Written synchronously: process.exit right after an asynchronous write to a pipe may drop the line.
  writeSync(2, `${prefix}${makeRedactor(envKeys(process.env))(msg)}\n`);
  process.exit(EXIT.usage);
}

/** Route console output through the redactor so the key never reaches stdout/stderr. */
export function guardOutput(secrets: readonly (string | undefined)[]): void {
  const redact = makeRedactor(secrets);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = (chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? redact(chunk) : Buffer.isBuffer(chunk) ? redact(chunk.toString('utf8')) : chunk, ...rest);
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
