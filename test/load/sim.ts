/**
 * A virtual-clock harness for the load runner: a tiny rate-limited server model
 * (fixed or sliding window, Retry-After seconds or HTTP-date, a skewed server
 * clock, faults) and a driver that runs a ScenarioRun to the end without real
 * time passing. Sends asked for at the same instant go out together (as the k6
 * driver batches them); each is decided at send + latency/2.
 */
import type { ScenarioRun } from '../../load/lib/runner.ts';

export interface SimOptions {
  limit: number;
  windowMs: number;
  mode?: 'fixed' | 'sliding';
  retryAfter?: 'seconds' | 'http-date' | 'none';
  /** Server clock minus client clock, ms. */
  skewMs?: number;
  /** Requests already used in the first window. */
  used?: number;
  neverThrottle?: boolean;
  /** Seconds subtracted from an honest Retry-After (never below 0). */
  retryAfterShortBy?: number;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface SimServer {
  (clientNow: number): SimResponse;
  /** Times (client clock) of requests that arrived while a Retry-After was still running. */
  early: number[];
  accepted: number[];
}

export function simServer(o: SimOptions): SimServer {
  const log: number[] = [];
  let blockedUntil = 0;
  let pre = o.used || 0;
  let preWindow: number | undefined;
  const early: number[] = [];
  const accepted: number[] = [];
  const server = ((clientNow: number): SimResponse => {
    const now = clientNow + (o.skewMs || 0);
    if (now < blockedUntil) early.push(clientNow);
    let used: number;
    let end: number;
    if (o.mode === 'sliding') {
      while (log.length && log[0] + o.windowMs <= now) log.shift();
      used = log.length;
      end = (log.length ? log[0] : now) + o.windowMs;
    } else {
      const start = Math.floor(now / o.windowMs) * o.windowMs;
      if (preWindow === undefined) preWindow = start;
      if (start !== preWindow) pre = 0;
      used = log.filter((t) => t >= start).length + pre;
      end = start + o.windowMs;
    }
    const allowed = o.neverThrottle || used < o.limit;
    if (allowed) {
      log.push(now);
      accepted.push(clientNow);
    }
    const remaining = Math.max(0, o.limit - used - (allowed ? 1 : 0));
    const headers: Record<string, string> = {
      date: new Date(now).toUTCString(),
      'x-ratelimit-limit': String(o.limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(Math.ceil(end / 1000)),
    };
    if (!allowed) {
      const secs = Math.max(0, Math.max(1, Math.ceil((end - now) / 1000)) - (o.retryAfterShortBy || 0));
      const until = now + secs * 1000;
      if (o.retryAfter === 'http-date') {
        const at = Math.max(Math.ceil(end / 1000), Math.floor(now / 1000) + 1) * 1000;
        headers['retry-after'] = new Date(at).toUTCString();
        blockedUntil = Math.max(blockedUntil, at);
      } else if (o.retryAfter !== 'none') {
        headers['retry-after'] = String(secs);
        blockedUntil = Math.max(blockedUntil, until);
      }
      return { status: 429, headers, body: JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }) };
    }
    return { status: 200, headers, body: '[]' };
  }) as SimServer;
  server.early = early;
  server.accepted = accepted;
  return server;
}

export interface SimRun {
  end: number;
  sends: number[];
}

/** A busy client: each wait ends `late(t)` ms later than asked (its timers), each request costs it `cpuMs` of CPU time. */
export interface SimClient {
  late?: (t: number) => number;
  cpuMs?: number;
}

/** Run to completion in virtual time, starting at `start` (client clock), on an idle client unless told otherwise. */
export function simulate(
  run: ScenarioRun,
  server: SimServer,
  start: number,
  { latencyMs = 2, client = {}, maxSteps = 200000 }: { latencyMs?: number; client?: SimClient; maxSteps?: number } = {},
): SimRun {
  let now = start;
  const sends: number[] = [];
  for (let i = 0; i < maxSteps; i++) {
    const a = run.next(now);
    if (a.kind === 'done') return { end: now, sends };
    if (a.kind === 'wait') {
      now += Math.max(1, a.ms);
      now += client.late ? client.late(now) : 0;
      continue;
    }
    const seqs = [run.sent(now)];
    for (let b = run.next(now); b.kind === 'send' && seqs.length < 64; b = run.next(now)) seqs.push(run.sent(now));
    const replies = seqs.map(() => {
      sends.push(now);
      return server(now + latencyMs / 2);
    });
    now += latencyMs + seqs.length * (client.cpuMs ?? 0);
    seqs.forEach((seq, j) => run.observe({ seq, t: now, ...replies[j] }));
  }
  throw new Error('simulation did not end');
}
