/**
 * Collection mode: spec modules imported with a flag set, so that `defineSpec` only records their definitions (the
 * in-process runner, the dry run, the benchmark — and a Vitest run, which schedules every test of its files at once).
 */
import { pathToFileURL } from 'node:url';
import type { SpecFile } from './define-spec.ts';

/** The flag `defineSpec` reads: where the definitions of the module being imported go. */
export const COLLECT = Symbol.for('animal-store.collect');
export type Collector = SpecFile[];

const collected = new Map<string, SpecFile[]>();

/**
 * Import spec modules in collection mode and return their definitions (cached per module). `fresh`: a module instance
 * of their own (the URL with a query), for a process whose runner imported or will import the same files to run them.
 */
export async function collectSpecs(paths: readonly string[], fresh = false): Promise<SpecFile[]> {
  const g = globalThis as Record<symbol, unknown>;
  const out: SpecFile[] = [];
  for (const p of paths) {
    const id = fresh ? `${pathToFileURL(p).href}?collect` : p;
    let files = collected.get(id);
    if (!files) {
      files = [];
      g[COLLECT] = files;
      try {
        await import(id);
      } finally {
        delete g[COLLECT];
      }
      collected.set(id, files);
    }
    out.push(...files);
  }
  return out;
}
