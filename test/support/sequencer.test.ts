import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SLOW_FIRST } from './sequencer.ts';

test('Every file npm test starts first exists, so the order cannot silently fall back to file size.', () => {
  const root = join(import.meta.dirname, '..', '..');
  expect(SLOW_FIRST.filter((f) => !existsSync(join(root, f)))).toEqual([]);
});
