/**
 * Runs the Vitest conformance specs against a target and returns the findings.
 * The configuration reaches the worker through Vitest's provide (never through
 * process.env). Shared by `npm run conformance` and `npm start`.
 */
import { dirname, resolve } from 'node:path';
import { createVitest, type Reporter, type Vitest } from 'vitest/node';
import type { Target } from '../target/target.ts';
import { CONTEXT_KEY } from '../harness/provided.ts';
import { LiveReporter } from '../results/live-reporter.ts';
import { specSource } from '../harness/spec-files.ts';
import { conformanceTestOptions } from '../harness/vitest-options.ts';
import { FindingsCollector } from '../results/vitest-reporter.ts';
import type { Finding } from '../results/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ConformanceOutcome {
  findings: Finding[];
  requests: number;
  abort?: { reason: string; message: string; diagnosis?: string };
  interrupted: boolean;
  startedAt: Date;
  endedAt: Date;
  errors: string[];
  /** Notes for the report (the exploration phase's summary). */
  notes: string[];
}

export interface ConformanceOptions {
  verbose?: boolean;
  quiet?: boolean;
  filter?: string[];
  signal?: AbortSignal;
  deadlineAt?: number;
  /** Where the worker records the run's traffic (the HAR's source). */
  trafficFile?: string;
}

export async function runConformance(target: Target, opts: ConformanceOptions = {}): Promise<ConformanceOutcome> {
  const startedAt = new Date();
  const collector = new FindingsCollector();
  let interrupted = false;
  let vitest: Vitest | undefined;
  const onSignal = () => {
    interrupted = true;
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  // The caller's interruption (Ctrl-C before or during the run) cancels it too.
  if (opts.signal?.aborted) interrupted = true;
  opts.signal?.addEventListener('abort', onSignal, { once: true });
  const reporters = reportersOf(collector, opts);
  const before = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  try {
    vitest = await startVitest(reporters);
    vitest.provide(CONTEXT_KEY, {
      config: target.config,
      dayMs: target.dayMs,
      windowMs: target.windowMs,
      embedded: target.info.embedded,
      ...(opts.deadlineAt !== undefined ? { deadlineAt: opts.deadlineAt } : {}),
      ...(opts.trafficFile ? { trafficFile: opts.trafficFile } : {}),
    });
    // Vitest exits the process on SIGINT; a certification run must write its report first.
    for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (!before.has(l)) process.off(sig, l);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.stderr.write(announcement(target));
    if (!interrupted) await vitest.start(opts.filter ?? []);
  } finally {
    opts.signal?.removeEventListener('abort', onSignal);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await vitest?.close();
    process.exitCode = 0;
  }
  return outcomeOf(collector, target, { interrupted, startedAt });
}

/**
 * Vitest with the conformance run's options inline (no configuration file for Vite to bundle). From a build, its root
 * is the build's folder, so that its reporters name a spec `conformance/<operation>/<behaviour>.spec.mjs`; its cache
 * stays the project's.
 */
function startVitest(reporters: (Reporter | string)[]): Promise<Vitest> {
  const specs = specSource();
  const root = specs.built ? dirname(specs.dir) : ROOT;
  const options = { root, config: false as const, ...conformanceTestOptions(specs), watch: false, reporters };
  return createVitest('test', options, { cacheDir: resolve(ROOT, 'node_modules/.vite') });
}

/** The collecting reporter, the live lines unless quiet, Vitest's own when verbose. */
function reportersOf(collector: FindingsCollector, opts: ConformanceOptions): (Reporter | string)[] {
  const reporters: (Reporter | string)[] = [collector];
  if (!opts.quiet) reporters.push(new LiveReporter());
  if (opts.verbose) reporters.push('default');
  return reporters;
}

/** The line that opens the run: the target, and the exploration's seed (or that it is off). */
function announcement(target: Target): string {
  const { budget, seed } = target.config.explore;
  const exploring =
    budget > 0 ? `, then exploring with seed ${seed} (--seed ${seed} sends the same requests)` : ', no exploration (--explore-budget 0)';
  return `animal-store: running the conformance specs against ${target.info.baseUrl}${exploring}\n`;
}

/** What the run found, as the collector gathered it; the notes say when the exploration was off. */
function outcomeOf(collector: FindingsCollector, target: Target, run: { interrupted: boolean; startedAt: Date }): ConformanceOutcome {
  return {
    findings: collector.findings,
    requests: collector.requests,
    abort: collector.abort,
    interrupted: run.interrupted,
    startedAt: run.startedAt,
    endedAt: new Date(),
    errors: collector.errors,
    notes:
      target.config.explore.budget > 0
        ? Object.values(collector.notes)
        : [
            "Exploration (generated inputs): off (--explore-budget 0): only the specs' own inputs were sent.",
            ...Object.values(collector.notes),
          ],
  };
}
