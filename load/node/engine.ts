/**
 * The Node load engine: runs a scenario of load/lib with undici, writes the same
 * reports as the k6 scripts, and returns the result in process (the
 * certification command calls `runScenario`).
 *
 * With no base URL it starts the embedded reference server itself. Keys are
 * remembered in process: a scenario never starts on a key while a Retry-After
 * from an earlier scenario is still running, and a paced scenario waits for a
 * fresh window after earlier traffic on the key.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlanName } from '../../src/core/plans.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { LoadConfigError, scenarioOptions } from '../lib/config.ts';
import { buildReport, junit, reportBaseName, summaryText } from '../lib/report.ts';
import { createRun, SCENARIOS } from '../lib/scenarios.ts';
import type { LoadReport, ScenarioName, ScenarioOptions } from '../lib/types.ts';
import { drive } from './driver.ts';
import { Progress } from './progress.ts';

export interface RunOptions {
  plan: PlanName;
  /** Base URL ending in /v1; undefined starts the embedded reference server. */
  baseUrl?: string;
  apiKey?: string;
  /** Enterprise limits (requests per window / per day). */
  perMinute?: number;
  perDay?: number;
  /** Rate-limit window, default 60000 (scaled down in tests). */
  windowMs?: number;
  dayMs?: number;
  /** The daily scenario is refused unless this is true. */
  allowDaily?: boolean;
  /** Where reports go (default "reports"); false writes none. */
  reportsDir?: string | false;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** The run's request budget; a scenario that may need more is refused. */
  maxRequests?: number;
  /** Progress line on stderr: 'auto' (default), true or false. */
  progress?: boolean | 'auto';
  /** Options of the embedded reference server (ignored with a base URL). */
  reference?: Record<string, unknown>;
  /** Scenario tuning (jitter source, tolerances…). */
  tuning?: Partial<ScenarioOptions>;
  /** Path requested, relative to the base URL (default /pets?limit=1). */
  path?: string;
  signal?: AbortSignal;
  /** Print the summary here (default: nothing). */
  log?: (text: string) => void;
  /** Print warnings here (the daily scenario's cost); default: `log`. */
  warn?: (text: string) => void;
}

export interface LoadResult {
  report: LoadReport;
  /** 0 pass, 1 a verdict failed, 2 configuration error (k6 engine only; Node throws LoadConfigError), 3 target unreachable. */
  exitCode: 0 | 1 | 2 | 3;
  files: { json?: string; junit?: string };
  unreachable?: string;
}

interface KeyMemory {
  blockedUntil: number;
  lastUsedAt: number;
  windowMs: number;
}
const keys = new Map<string, KeyMemory>();
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Forget what this process knows about keys (tests). */
export function forgetKeys(): void {
  keys.clear();
}

async function embedded(o: RunOptions) {
  const [{ buildApp }, { listen }] = await Promise.all([import('../../reference/app.ts'), import('../../reference/server.ts')]);
  const enterprise =
    o.plan === 'enterprise' && o.perMinute ? { perMinute: o.perMinute, perDay: o.perDay || o.perMinute * 1440 } : undefined;
  const app = buildApp({ windowMs: o.windowMs, dayMs: o.dayMs, ...(enterprise ? { enterprise } : {}), ...(o.reference || {}) });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  const e = app.options.enterprise;
  return {
    server,
    apiKey: app.keys[o.plan],
    perMinute: o.plan === 'enterprise' ? e.perMinute : undefined,
    perDay: o.plan === 'enterprise' ? e.perDay : undefined,
  };
}

export async function runScenario(name: ScenarioName, options: RunOptions): Promise<LoadResult> {
  const def = SCENARIOS[name];
  if (!def) throw new LoadConfigError(`unknown scenario ${JSON.stringify(name)}`);
  if (name === 'daily' && !options.allowDaily)
    throw new LoadConfigError(
      "the daily scenario is opt-in: it spends the key's whole daily quota. Set ANIMAL_STORE_LOAD_DAILY=yes (or --allow-daily) to run it",
    );
  if (options.baseUrl && !options.apiKey) throw new LoadConfigError('an API key is required with a base URL');
  const ref = options.baseUrl ? undefined : await embedded(options);
  try {
    const baseUrl = options.baseUrl || (ref as { server: { url: string } }).server.url;
    const apiKey = options.apiKey || (ref ? ref.apiKey : '');
    const o = scenarioOptions(
      {
        plan: options.plan,
        perMinute: ref && ref.perMinute ? ref.perMinute : options.perMinute,
        perDay: ref && ref.perDay ? ref.perDay : options.perDay,
        windowMs: options.windowMs,
        dayMs: options.dayMs,
      },
      options.tuning,
    );
    const run = createRun(name, o);
    if (options.maxRequests !== undefined && run.caps.maxRequests > options.maxRequests)
      throw new LoadConfigError(
        `scenario ${name} on plan ${options.plan} may send up to ${run.caps.maxRequests} requests, above the budget of ${options.maxRequests} (ANIMAL_STORE_MAX_REQUESTS)`,
      );
    const redact = makeRedactor([apiKey]);
    const warn = options.warn || options.log;
    if (def.warning && warn) warn(`WARNING: ${def.warning(o)}\n`);

    const memKey = `${baseUrl}\u0000${apiKey}`;
    const mem = keys.get(memKey);
    if (mem) {
      const fresh = def.phases(o, 'setup').length > 0 ? mem.lastUsedAt + Math.max(mem.windowMs, o.windowMs) + o.jitterMs : 0;
      await sleep(Math.max(mem.blockedUntil, fresh) - Date.now(), options.signal);
    }

    const progress = new Progress(`${name} ${options.plan}`, run, { enabled: options.progress === undefined ? 'auto' : options.progress });
    const startedAt = Date.now();
    progress.start();
    try {
      await drive(run, {
        url: `${baseUrl.replace(/\/+$/, '')}${options.path || '/pets?limit=1'}`,
        apiKey,
        timeoutMs: options.timeoutMs || 10000,
        maxBodyBytes: options.maxBodyBytes || 65536,
        signal: options.signal,
      });
    } finally {
      progress.stop();
    }
    const endedAt = Date.now();
    const st = run.state;
    const lastT = st.samples.reduce((m, s) => Math.max(m, s.t), 0);
    keys.set(memKey, { blockedUntil: st.guard.blockedUntil, lastUsedAt: lastT || (mem ? mem.lastUsedAt : 0), windowMs: o.windowMs });

    const report = buildReport(
      {
        scenario: name,
        plan: options.plan,
        engine: 'node',
        target: baseUrl,
        startedAt,
        endedAt,
        requestsSent: st.sentCount,
        verdicts: run.verdicts(),
        samples: st.samples,
        stoppedBecause: run.stoppedBecause,
        notes: st.notes,
      },
      redact,
    );
    const files: LoadResult['files'] = {};
    if (options.reportsDir !== false) {
      const dir = options.reportsDir || 'reports';
      await mkdir(dir, { recursive: true });
      files.json = join(dir, `${reportBaseName(name, options.plan)}.json`);
      files.junit = join(dir, `${reportBaseName(name, options.plan)}.junit.xml`);
      await writeFile(files.json, redact(JSON.stringify(report, null, 2)) + '\n');
      await writeFile(files.junit, redact(junit(report)));
    }
    if (options.log) options.log(redact(summaryText(report)));
    const unreachable =
      st.samples.length > 0 && st.samples.every((s) => s.status === 0) ? redact(run.unreachable || 'no response') : undefined;
    const exitCode = unreachable ? 3 : report.verdict === 'pass' ? 0 : 1;
    return { report, exitCode, files, ...(unreachable ? { unreachable } : {}) };
  } finally {
    if (ref) {
      await closeTransport();
      await ref.server.close();
    }
  }
}
