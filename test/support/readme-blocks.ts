/** Test support: the code blocks of README.md that users copy (the CI recipes), read as the tests check them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

/** The first fenced block of `lang` after README's heading `### <heading>` (and before the next heading). */
export function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(`\n### ${heading}\n`)[1]?.split(/\n#{2,3} /)[0];
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section ?? '');
  if (!m) throw new Error(`README has no ${lang} block under ### ${heading}`);
  return m[1];
}
