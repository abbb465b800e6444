/**
 * Facts every report carries: the suite's version and the SHA-256 of the spec
 * it was built from (the copy in spec/, kept identical to the shared spec by a test).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
export const SPEC_PATH = resolve(ROOT, 'spec/animal-store-spec.md');

export function suiteVersion(): string {
  return (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export function specSha256(): string {
  return createHash('sha256').update(readFileSync(SPEC_PATH)).digest('hex');
}
