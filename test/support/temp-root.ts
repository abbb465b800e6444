/** Global setup of `npm test`: one temporary root for every worker's folders (test/support/temp.ts), removed at the end. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMP_ROOT_VARIABLE } from './temp.ts';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-test-'));
  process.env[TEMP_ROOT_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
