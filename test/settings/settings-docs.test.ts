/**
 * README's configuration table and .env.example in step with the settings
 * table (src/settings/settings.ts): every setting's variable appears in both, README
 * names its flag, and where the setting's help states a default, README's
 * default and the value .env.example shows are that default. And README's exit
 * codes are the exit-code table's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT, EXIT_HELP } from '../../src/config/exit.ts';
import { SETTINGS, type Setting } from '../../src/settings/settings.ts';
import { PASSPHRASE_VAR } from '../../src/settings/network.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const ENV_EXAMPLE = readFileSync(resolve(ROOT, '.env.example'), 'utf8');

interface Row {
  variables: string[];
  flags: string;
  default: string;
}

/**
 * The variables of a README cell: `ANIMAL_STORE_STAGING_URL` / `_PRODUCTION_URL`
 * names two (a name starting with `_` replaces as many trailing words of the first).
 */
function variablesOf(cell: string): string[] {
  const names = [...cell.matchAll(/`([A-Z_0-9]+)`/g)].map((m) => m[1]);
  const first = names.find((n) => !n.startsWith('_'));
  return names.map((n) => {
    if (!n.startsWith('_') || !first) return n;
    const words = first.split('_');
    return [...words.slice(0, words.length - (n.split('_').length - 1)), ...n.split('_').slice(1)].join('_');
  });
}

/** README's "Configuration" table. */
const ROWS: Row[] = README.split('### Configuration')[1]
  .split('\n### ')[0]
  .split('\n')
  .map((line) => line.split('|').map((c) => c.trim()))
  .filter((c) => c.length === 6 && c[1].startsWith('`'))
  .map((c) => ({ variables: variablesOf(c[1]), flags: c[2], default: c[4].replace(/`/g, '') }));

/** The value .env.example shows for a variable (set or commented out), if it has a line. */
function exampleValue(env: string): string | undefined {
  return new RegExp(`^#? ?${env}=(.*)$`, 'm').exec(ENV_EXAMPLE)?.[1];
}

/** A default the help states as one word or number ("…; default 10000"), if it does. */
const statedDefault = (s: Setting) => /\bdefault:? ([^\s;,()]+)(?=$|[;,)])/.exec(s.help)?.[1];

const WITH_ENV = SETTINGS.filter((s): s is Setting & { env: string } => s.env !== undefined).map((s) => [s.env, s] as const);

describe('README and .env.example follow the settings table', () => {
  test.each(WITH_ENV)('%s has a line in .env.example.', (env) => {
    expect(exampleValue(env)).toBeDefined();
  });

  test.each(WITH_ENV)('%s has a row in README’s configuration table that names its flag.', (env, s) => {
    const row = ROWS.find((r) => r.variables.includes(env));
    expect(row, env).toBeDefined();
    expect(row!.flags).toContain(`\`--${s.flag}\``);
  });

  const defaults = WITH_ENV.filter(([, s]) => statedDefault(s) !== undefined);
  test.each(defaults)('%s has the default its help states in README and in .env.example.', (env, s) => {
    const value = statedDefault(s)!;
    expect(ROWS.find((r) => r.variables.includes(env))?.default.split(/[;,]\s*|\s+/)).toContain(value);
    const shown = exampleValue(env);
    if (shown) expect(shown).toBe(value);
  });

  test('Every variable README’s table or .env.example names is a setting (or one of the keys, which have no flag on purpose).', () => {
    // The secrets have no flag on purpose: the keys and the client key's passphrase.
    const known = new Set([...WITH_ENV.map(([env]) => env), 'ANIMAL_STORE_API_KEY', PASSPHRASE_VAR]);
    const keys = /^ANIMAL_STORE_API_KEY_(FREE|PRO|BUSINESS|ENTERPRISE)$/;
    const named = [...ROWS.flatMap((r) => r.variables), ...[...ENV_EXAMPLE.matchAll(/^#? ?(ANIMAL_STORE_[A-Z_0-9]+)=/gm)].map((m) => m[1])];
    expect(named.filter((v) => !known.has(v) && !keys.test(v))).toEqual([]);
  });
});

describe('README and the exit-code table', () => {
  test('README’s exit-code table lists exactly the codes of the one exit-code table (src/config/exit.ts), as does the --help of npm start and npm run conformance.', () => {
    const readme = README.split('### Exit codes')[1]
      .split('\n### ')[0]
      .split('\n')
      .map((line) => /^\| (\d+) \|/.exec(line)?.[1])
      .filter((c) => c !== undefined)
      .map(Number);
    const codes = Object.values(EXIT);
    expect(readme).toEqual(codes);
    expect([...EXIT_HELP.matchAll(/(?:: |, |\n)(\d+) /g)].map((m) => Number(m[1]))).toEqual(codes);
  });
});
