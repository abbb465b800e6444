/**
 * Facts every report carries: the suite's package name and version, and the SHA-256 of the spec
 * it was built from (the copy in spec/, kept identical to the shared spec by a test).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
export const SPEC_PATH = resolve(ROOT, 'spec/animal-store-spec.md');

function packageJson(): { name: string; version: string } {
  return JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
}

export function suiteVersion(): string {
  return packageJson().version;
}

/** The suite's package name (what `npx` installs): `animal-store-certify`. */
export function suiteName(): string {
  return packageJson().name;
}

/** How every report and `--version` name the suite: its package name and version (`animal-store-certify 0.2.0`). */
export function suiteLabel(r: { suiteName?: string; suiteVersion: string }): string {
  return r.suiteName ? `${r.suiteName} ${r.suiteVersion}` : r.suiteVersion;
}

export function specSha256(): string {
  return createHash('sha256').update(readFileSync(SPEC_PATH)).digest('hex');
}
