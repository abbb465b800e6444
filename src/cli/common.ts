/**
 * What every command-line entry point shares: flag parsing, the one-line
 * configuration error (exit 2), exit codes, and a redacting console.
 */
import { ConfigError, loadConfig, loadDotenvOnce, type Config, type Flags } from '../config/config.ts';
import { makeRedactor } from '../core/redact.ts';

export const EXIT = { ok: 0, notConformant: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/** Parse `--name value`, `--name=value` and boolean `--flag` arguments. */
export function parseFlags(argv: readonly string[], booleans: readonly string[] = []): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new ConfigError(`unexpected argument ${JSON.stringify(a)} (see --help)`);
    const eq = a.indexOf('=');
    const name = a.slice(2, eq > 0 ? eq : undefined);
    if (eq > 0) flags[name] = a.slice(eq + 1);
    else if (booleans.includes(name)) flags[name] = argv[i + 1] === 'true' || argv[i + 1] === 'false' ? argv[++i] : true;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
    else throw new ConfigError(`--${name} needs a value (see --help)`);
  }
  return flags;
}

/** Load configuration or print one line and exit 2. */
export function configOrExit(flags: Flags): Config {
  try {
    loadDotenvOnce();
    return loadConfig(flags);
  } catch (e) {
    failUsage(e);
  }
}

export function failUsage(e: unknown): never {
  const msg = e instanceof ConfigError ? e.message : ((e as Error)?.message ?? String(e));
  process.stderr.write(`animal-store: configuration error: ${redactEnvKey(msg)}\n`);
  process.exit(EXIT.usage);
}

function redactEnvKey(s: string): string {
  return makeRedactor([process.env.ANIMAL_STORE_API_KEY])(s);
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
