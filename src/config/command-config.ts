/**
 * The configuration of a Node entry point: `.env` (dotenv; real variables win),
 * then the environment, then the command line (./args.ts), through the one
 * reader of src/settings/read-config.ts (which k6 shares through __ENV).
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { parseArgs } from './args.ts';
import { readConfig, type Config, type EnvMap } from '../settings/read-config.ts';
import type { Command } from '../settings/settings.ts';

export { ConfigError, requireLimits, type Config, type Flags } from '../settings/read-config.ts';
export { optionsHelp } from './help.ts';

let dotenvLoaded = false;

/** Load `.env` from the working directory once; existing variables win. */
export function loadDotenvOnce(): void {
  if (dotenvLoaded) return;
  dotenvLoaded = true;
  loadDotenv({ quiet: true });
}

/** Flags over the environment (after .env) → Config. Throws ConfigError on a bad value. */
export function configFrom(argv: readonly string[], command: Command, env: EnvMap = process.env): Config {
  const flags = parseArgs(argv, command);
  if (env === process.env) loadDotenvOnce();
  return readConfig(env, flags, command);
}

/** A path the run wrote (under --reports-dir), as printed: relative to the working directory when inside it, else absolute. */
export function shownPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : resolve(p);
}

/**
 * A run folder of its own for a command that writes only some of the reports (`npm run load`, `npm run conformance`):
 * reports/<kind>/<run id>/, never over the files of a certification at the top of reports/.
 */
export function runFolder(reportsDir: string, kind: 'load' | 'conformance'): string {
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const dir = join(reportsDir, kind, id);
  mkdirSync(dir, { recursive: true });
  return dir;
}
