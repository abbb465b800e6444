/**
 * Shared by the load benchmarks: a configuration from flags only (never the
 * shell's environment or .env, so a benchmark only reaches the servers it
 * starts), the embedded reference server with a request meter — in process, as
 * `npm run load` runs it, or in a child process of its own so that the client
 * measured has the event loop and a core to itself — and a paced run at an
 * exact target rate through the Node engine's driver.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { scenarioOptions } from '../load/lib/scenario-options.ts';
import { PacedPhase } from '../load/lib/scenario-phases.ts';
import { ScenarioRun } from '../load/lib/runner.ts';
import { realClock } from '../load/node/clock.ts';
import { drive } from '../load/node/driver.ts';
import { readConfig, type Config, type EnvMap, type Flags } from '../src/settings/read-config.ts';
import { send } from '../src/http/transport.ts';
import { openTarget, type Target } from '../src/target/target.ts';
import { benchEnv, ROOT } from './conformance.ts';

export type { BenchLine } from './conformance.ts';
export { ROOT };

/** A `npm run load` configuration from `flags` (and `env`, default none): no progress lines. */
export function benchConfig(flags: Flags, env: EnvMap = {}): Config {
  return readConfig(env, { 'no-progress': true, ...flags }, 'load');
}

export interface MeterStats {
  /** Requests answered since the last reset. */
  count: number;
  /** Epoch ms of the first and the last of them. */
  first?: number;
  last?: number;
}

/**
 * The reference server's clock, watched: the app reads its clock once per request
 * it answers (reference/app.ts, answer()), so this sees each request arrive —
 * the first one (which ends an engine's start-up), how many, the last.
 */
export class Meter {
  private s: MeterStats = { count: 0 };
  private waiters: ((t: number) => void)[] = [];

  readonly now = (): number => {
    const t = Date.now();
    this.s.count++;
    if (this.s.first === undefined) {
      this.s.first = t;
      for (const w of this.waiters.splice(0)) w(t);
    }
    this.s.last = t;
    return t;
  };

  /** Forget what was seen (before a measured run). */
  reset(): void {
    this.s = { count: 0 };
  }

  stats(): MeterStats {
    return { ...this.s };
  }

  /** Epoch ms of the first request since the last reset (now, or when it comes). */
  firstRequest(): Promise<number> {
    const f = this.s.first;
    return f !== undefined ? Promise.resolve(f) : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The embedded reference server of `flags` (openTarget: the limits of `npm run load`), metered, in this process. */
export async function meteredTarget(flags: Flags): Promise<{ target: Target; meter: Meter }> {
  const meter = new Meter();
  const target = await openTarget(benchConfig(flags), { now: meter.now });
  meter.reset();
  return { target, meter };
}

/** What the child server prints first: where it listens and the limits it was started with. */
export interface ChildInfo {
  url: string;
  key: string;
  plan: string;
  rpm?: number;
  rpd?: number;
  windowMs: number;
  dayMs: number;
}

export interface ChildTarget {
  /** The child server as a named target (base URL and key), with the same plan, limits and windows. */
  target: Target;
  url: string;
  key: string;
  /** The meter's counts since the last call (each call resets it). */
  stats(): Promise<MeterStats>;
  close(): Promise<void>;
}

/** The metered embedded server of `flags` in a child process (bench/metered-server.ts), loopback only. */
export async function childTarget(flags: Flags): Promise<ChildTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/metered-server.ts', JSON.stringify(flags)], {
    cwd: ROOT,
    env: benchEnv(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else queue.push(l);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (what: string): Promise<string> => {
    const l = queue.shift();
    if (l !== undefined) return Promise.resolve(l);
    return new Promise((resolve, reject) => {
      const fail = (why: string) => (clearTimeout(timer), reject(new Error(`metered server: ${why} (waiting for ${what})`)));
      const timer = setTimeout(() => fail('no answer within 20 s'), 20_000);
      waiting.push((x) => (clearTimeout(timer), resolve(x)));
      void exited.then(() => fail('exited'));
    });
  };
  const close = async () => {
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const info = JSON.parse(await next('address')) as ChildInfo;
    const named: Flags = { 'base-url': info.url, plan: info.plan, 'window-ms': String(info.windowMs), 'day-ms': String(info.dayMs) };
    if (info.rpm !== undefined) named.rpm = String(info.rpm);
    if (info.rpd !== undefined) named.rpd = String(info.rpd);
    const target = await openTarget(benchConfig({ ...flags, ...named }, { ANIMAL_STORE_API_KEY: info.key }));
    const stats = async () => {
      child.stdin.write('stats\n');
      return JSON.parse(await next('stats')) as MeterStats;
    };
    return { target, url: info.url, key: info.key, stats, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The enterprise plan with no practical limit: the server never throttles a throughput measurement. */
export const UNLIMITED: Flags = { plan: 'enterprise', rpm: '1000000000', rpd: '1000000000000' };

/** A run of one paced phase at `perWindow` requests per `windowMs`, through the Node engine's driver; bounded in count and time. */
export async function pacedRun(
  server: { url: string; key: string },
  perWindow: number,
  windowMs: number,
  maxInFlight = 64,
): Promise<ScenarioRun> {
  const o = scenarioOptions({ plan: 'enterprise', perMinute: 1e9, perDay: 1e12, windowMs }, { maxInFlight });
  const run = new ScenarioRun('sustained', o, {
    phases: [new PacedPhase({ perWindow, windows: 1, gate: false })],
    caps: { maxRequests: perWindow + 5, maxDurationMs: windowMs + 30000 },
    judge: () => [],
  });
  await drive(run, {
    baseUrl: server.url,
    apiKey: server.key,
    send: (req) => send(req, { timeoutMs: 10000, maxBodyBytes: 65536 }),
    clock: realClock,
  });
  return run;
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Wait for the start of the embedded server's next fixed window (aligned on the
 * epoch), plus `marginMs`, unless one began less than `marginMs` ago. Scaled
 * down to a few seconds, a window would otherwise see a ceiling of 1–2 s
 * straddle its boundary one run in three — costing up to Limit more requests —
 * where the spec's minute sees it one run in thirty.
 */
export async function windowStart(windowMs: number, marginMs = 50): Promise<void> {
  const into = Date.now() % windowMs;
  if (into <= marginMs) return;
  await new Promise((resolve) => setTimeout(resolve, windowMs - into + marginMs));
}
