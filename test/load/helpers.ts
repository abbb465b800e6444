/**
 * Reference servers for the load self-tests: the real clock with a short window
 * (2 s) and the enterprise key with small custom limits, so a scenario takes a
 * few seconds. Only 127.0.0.1 servers the test starts are ever targeted.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AppOptions } from '../../reference/app.ts';
import { listen } from '../../reference/server.ts';
import { runScenario, type LoadResult, type RunOptions } from '../../load/node/engine.ts';
import type { ScenarioName } from '../../load/lib/types.ts';

export const WINDOW_MS = 2000;
export const PER_MINUTE = 20;

export interface Ref {
  url: string;
  key: string;
  close(): Promise<void>;
}

/** A server clock whose period (window or day) starts `leadMs` before now: runs start early in a window, deterministically. */
export function alignedNow(periodMs: number, leadMs = 30): () => number {
  const shift = (Date.now() % periodMs) - leadMs;
  return () => Date.now() - shift;
}

export async function startReference(o: AppOptions = {}): Promise<Ref> {
  const app = buildApp({ windowMs: WINDOW_MS, enterprise: { perMinute: PER_MINUTE, perDay: 100000 }, ...o });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return { url: server.url, key: app.keys.enterprise, close: () => server.close() };
}

export const reportsDir = (): string => mkdtempSync(join(tmpdir(), 'load-reports-'));

export async function runOn(ref: Ref, scenario: ScenarioName, extra: Partial<RunOptions> = {}): Promise<LoadResult> {
  return runScenario(scenario, {
    plan: 'enterprise',
    baseUrl: ref.url,
    apiKey: ref.key,
    perMinute: PER_MINUTE,
    perDay: 100000,
    windowMs: WINDOW_MS,
    reportsDir: false,
    progress: false,
    ...extra,
  });
}

export const outcomes = (r: LoadResult, requirement: string): string[] =>
  r.report.verdicts.filter((v) => v.requirement === requirement).map((v) => v.outcome);
export const problems = (r: LoadResult) =>
  r.report.verdicts.filter((v) => v.outcome === 'fail' || v.outcome === 'warn').map((v) => `${v.requirement}: ${v.message}`);
