/**
 * The README's table of the choices the spec or an RFC leaves to the server is the LATITUDES table itself: a latitude
 * added, renamed or reworded in the catalogue changes what implementers read, so the two never drift.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { LATITUDES, type Latitude } from '../../src/core/catalogue.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|');
const row = (l: Latitude) => `| \`${l.id}\` | ${cell(l.source)} | ${cell(l.leaves)} | ${cell(l.suite)} |`;

test("The README's table of latitudes lists every entry of LATITUDES, in order, word for word.", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = /<!-- latitudes[^>]*-->\n([\s\S]*?)<!-- \/latitudes -->/.exec(readme)?.[1] ?? '';
  const rows = table.split('\n').filter((l) => l.startsWith('| `'));
  expect(rows, 'regenerate the README table from LATITUDES in src/core/catalogue.ts').toEqual(LATITUDES.map(row));
});
