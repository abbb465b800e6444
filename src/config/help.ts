/**
 * The options part of every command's `--help`, written from the settings table
 * (src/settings/settings.ts): one line per setting the command takes, with its
 * variable, grouped. Node side only (k6 has no command line).
 */
import { settingsFor, type Command, type Setting } from '../settings/settings.ts';

const GROUP_TITLES: Record<Setting['group'], string> = {
  target: 'Target',
  network: 'Network (proxy, TLS, HTTP/2)',
  safety: 'Safety',
  explore: 'Exploration (generated inputs)',
  load: 'Rate-limit scenarios',
  certify: 'Certification',
  reference: 'Reference server',
  output: 'Output',
};

/** The options part of a command's --help: every setting the command takes, one line each, with its variable. */
export function optionsHelp(command: Command): string {
  const lines: string[] = [];
  for (const group of Object.keys(GROUP_TITLES) as Setting['group'][]) {
    const list = settingsFor(command).filter((s) => s.group === group);
    if (!list.length) continue;
    lines.push(`${GROUP_TITLES[group]}:`);
    for (const s of list) {
      const arg = s.kind === 'bool' ? '' : ` ${s.kind === 'enum' ? (s.values || []).join('|') : s.arg || 'VALUE'}`;
      const left = `  --${s.flag}${arg}`;
      const right = `${s.help}${s.env ? ` [${[s.env, ...(s.envAliases || [])].join(', ')}]` : ''}${s.aliases ? ` (also --${s.aliases.join(', --')})` : ''}`;
      lines.push(left.length < 34 ? `${left.padEnd(34)}${right}` : `${left}\n${' '.repeat(34)}${right}`);
    }
  }
  return lines.join('\n');
}
