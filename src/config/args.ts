/**
 * The command line of every Node entry point, read against the settings table
 * (src/settings/settings.ts) into flags, which the one reader
 * (src/settings/read-config.ts) puts over the environment. Node side only.
 */
import { ConfigError, type Flags } from '../settings/read-config.ts';
import { findSetting, KEY_FLAG_ERROR, KEY_FLAGS, settingsFor, type Command } from '../settings/settings.ts';
import { PASSPHRASE_FLAGS, PASSPHRASE_VAR } from '../settings/network.ts';

/**
 * Parse `--name value`, `--name=value` and boolean `--flag [true|false]` for a
 * command. The key is refused as a flag everywhere; an unknown flag, a flag of
 * another command and a missing value each get their own one-line error.
 */
export function parseArgs(argv: readonly string[], command: Command): Flags {
  const mine = settingsFor(command);
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h') {
      flags.help = true;
      continue;
    }
    const m = /^--([a-z0-9-]+)(?:=([\s\S]*))?$/.exec(a);
    if (!m) throw new ConfigError(`unexpected argument ${JSON.stringify(a)} (see --help)`);
    const name = m[1];
    if (KEY_FLAGS.indexOf(name) >= 0 || /^api-key/.test(name)) throw new ConfigError(KEY_FLAG_ERROR);
    if (PASSPHRASE_FLAGS.indexOf(name) >= 0)
      throw new ConfigError(
        `the client key's passphrase is not accepted as a flag (it would show in process lists and shell history); set ${PASSPHRASE_VAR} in the environment or .env`,
      );
    const s = findSetting(name);
    if (!s) throw new ConfigError(`unknown option --${name} (see --help)`);
    if (mine.indexOf(s) < 0)
      throw new ConfigError(
        `--${name} is not an option of this command (it belongs to npm ${s.commands.map((c) => (c === 'start' ? 'start' : `run ${c}`)).join(' / ')})`,
      );
    if (m[2] !== undefined) flags[s.flag] = m[2];
    else if (s.kind === 'bool') flags[s.flag] = argv[i + 1] === 'true' || argv[i + 1] === 'false' ? argv[++i] : true;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[s.flag] = argv[++i];
    else throw new ConfigError(`--${name} needs a value (see --help)`);
  }
  return flags;
}
