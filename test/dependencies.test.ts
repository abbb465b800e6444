/**
 * What `npm ci` installs runs on every Node version package.json's `engines` accepts: no package of the lockfile
 * asks for a newer Node (npm would print an EBADENGINE warning on a fresh machine, and the package may not work).
 * A dependency that moves to a newer Node is pinned back in package.json's `overrides` (cookie, under fastify's
 * light-my-request) or waits for the suite's own minimum to move.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';

interface Semver {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
}
// npm's own reading of version ranges (semver has no types installed: only the two functions used here).
const semver = createRequire(import.meta.url)('semver') as Semver;

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const json = (file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));

test("Every package of package-lock.json accepts the oldest Node that package.json's engines allow.", () => {
  const oldest = semver.minVersion(json('package.json').engines.node)?.version as string;
  expect(oldest).toBe('20.19.0');
  const packages = Object.entries(json('package-lock.json').packages as Record<string, LockEntry>);
  const refusing = packages
    .map(([path, p]) => ({ path, version: p.version, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
    .filter((p) => p.node !== undefined && !semver.satisfies(oldest, p.node))
    .map((p) => `${p.path}@${p.version} needs node ${p.node}`);
  expect(packages.length).toBeGreaterThan(100);
  expect(refusing).toEqual([]);
});

test("Every package of package-lock.json with an install script is decided in package.json's allowScripts (npm 11 warns at each npm ci about any other).", () => {
  const lock = json('package-lock.json').packages as Record<string, LockEntry & { hasInstallScript?: boolean }>;
  const withScript = Object.entries(lock)
    .filter(([path, p]) => path && p.hasInstallScript)
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
  const decided = Object.keys(json('package.json').allowScripts ?? {}).map((k) => k.replace(/(?<=.)@.*$/, ''));
  // esbuild's postinstall only checks and relinks its binary: the suite builds without it (denied, as test/package shows).
  expect(withScript).toEqual(['esbuild']);
  expect(withScript.filter((name) => !decided.includes(name))).toEqual([]);
});
