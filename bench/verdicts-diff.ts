/**
 * `npm run bench:verdicts-diff -- <before.json> <after.json> [--status-only] [--common]`: every difference between two files of
 * `npm run bench:verdicts` (bench/verdicts-compare.ts), one line each — configuration, scope and requirement,
 * before → after, whether the aggregated status changed or only the raw findings — then the keys unstable between a
 * configuration's attempts (listed, not counted) and the totals. Exit 1 on any difference (with --status-only: on any
 * but the raw-only ones), 0 when every verdict is the same, 2 on a usage or file error. --common compares only the
 * configurations both files ran (collections filtered differently).
 */
import { readFileSync } from 'node:fs';
import { diffFiles, exitCodeOf, formatDiff } from './verdicts-compare.ts';
import type { VerdictsFile } from './verdicts-model.ts';

const USAGE = 'usage: npm run bench:verdicts-diff -- <before.json> <after.json> [--status-only] [--common]';

function read(file: string): VerdictsFile {
  const f = JSON.parse(readFileSync(file, 'utf8')) as VerdictsFile;
  if (!f || typeof f.runs !== 'object') throw new Error(`${file} is no file of npm run bench:verdicts`);
  return f;
}

function main(argv: string[]): number {
  const files = argv.filter((a) => !a.startsWith('--'));
  if (files.length !== 2 || argv.some((a) => a.startsWith('--') && a !== '--status-only' && a !== '--common')) throw new Error(USAGE);
  const [before, after] = files.map(read);
  const label = (f: VerdictsFile, file: string) => `${file} (${[f.meta.label, f.meta.commit].find((v) => typeof v === 'string') ?? '?'})`;
  process.stdout.write(`before: ${label(before, files[0])}\nafter:  ${label(after, files[1])}\n`);
  const diff = diffFiles(before, after, argv.includes('--common'));
  process.stdout.write(`${formatDiff(diff).join('\n')}\n`);
  return exitCodeOf(diff, argv.includes('--status-only'));
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`verdicts-diff: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
