/**
 * Runs the Vitest conformance specs against the configured target (starting
 * the embedded reference server when there is none) and returns the findings.
 * Shared by `npm run conformance` and `npm start`.
 */
import { resolve } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { configToEnv, type Config } from '../config/config.ts';
import { startEmbedded, type Embedded } from '../harness/embedded.ts';
import type { AppOptions } from '../../reference/options.ts';
import { FindingsCollector } from '../results/vitest-reporter.ts';
import type { Finding, TargetInfo } from '../results/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ConformanceOutcome {
  findings: Finding[];
  requests: number;
  abort?: { reason: string; message: string };
  interrupted: boolean;
  target: TargetInfo;
  startedAt: Date;
  endedAt: Date;
  errors: string[];
}

export interface Target {
  config: Config;
  info: TargetInfo;
  embedded?: Embedded;
  /** Window length of the embedded server (the spec's minute otherwise). */
  windowMs?: number;
}

/** Resolve the target: the configured base URL, or a freshly started embedded server. */
export async function openTarget(config: Config, embeddedOptions: AppOptions = {}): Promise<Target> {
  if (config.baseUrl) return { config, info: { env: config.env, baseUrl: config.baseUrl, plan: config.plan, embedded: false } };
  const embedded = await startEmbedded(config.plan, embeddedOptions);
  const resolved: Config = { ...config, baseUrl: embedded.baseUrl, apiKey: embedded.apiKey };
  return {
    config: resolved,
    embedded,
    windowMs: embeddedOptions.windowMs,
    info: { env: config.env, baseUrl: embedded.baseUrl, plan: config.plan, embedded: true },
  };
}

export async function runConformance(
  target: Target,
  opts: { reporter?: 'default' | 'dot' | 'silent'; filter?: string[] } = {},
): Promise<ConformanceOutcome> {
  const startedAt = new Date();
  Object.assign(process.env, configToEnv(target.config));
  const collector = new FindingsCollector();
  let interrupted = false;
  let vitest: Vitest | undefined;
  const onSignal = () => {
    interrupted = true;
    void vitest?.cancelCurrentRun('keyboard-input');
  };
  const reporters = opts.reporter === 'silent' ? [collector] : [opts.reporter ?? 'default', collector];
  const before = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  try {
    vitest = await createVitest('test', {
      root: ROOT,
      config: resolve(ROOT, 'conformance.config.ts'),
      watch: false,
      reporters,
    } as never);
    // Vitest exits the process on SIGINT; a certification run must write its report first.
    for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (!before.has(l)) process.off(sig, l);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    await vitest.start(opts.filter ?? []);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await vitest?.close();
    process.exitCode = 0;
  }
  return {
    findings: collector.findings,
    requests: collector.requests,
    abort: collector.abort,
    interrupted,
    target: target.info,
    startedAt,
    endedAt: new Date(),
    errors: collector.errors,
  };
}
