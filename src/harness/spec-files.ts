/**
 * Where the conformance spec files a run loads are: the TypeScript sources (`conformance/`), or — when the command
 * runs from its JavaScript build (bin/run.mjs, which names the build's folder) — the same specs built as ES modules
 * beside the command, so that neither Vite nor tsx transforms them at run time.
 */
import { join, resolve } from 'node:path';

export const CONFORMANCE_DIR = resolve(import.meta.dirname, '../../conformance');

/** Set by bin/run.mjs: the folder of the build the command runs from. */
const BUILD_DIR = Symbol.for('animal-store.build-dir');

export interface SpecSource {
  /** The folder holding `<operation>/<behaviour><suffix>`. */
  dir: string;
  suffix: '.spec.ts' | '.spec.mjs';
  /** The specs are built JavaScript (Vitest imports them, and what they import, without transforming them). */
  built: boolean;
}

export function specSource(): SpecSource {
  const built = (globalThis as Record<symbol, unknown>)[BUILD_DIR];
  return typeof built === 'string'
    ? { dir: join(built, 'conformance'), suffix: '.spec.mjs', built: true }
    : { dir: CONFORMANCE_DIR, suffix: '.spec.ts', built: false };
}
