/**
 * Simulated time for the self-tests: a virtual clock the load engines and the
 * orchestrator run on, and an in-process transport to a reference app built on
 * the same clock. A whole scenario — a real 60-second window included — runs in
 * milliseconds and gives the same result on a busy machine as on an idle one.
 *
 * `run(main)` drives: whenever nothing is left to do but wait, the clock jumps
 * to the earliest timer. Everything `main` awaits must be a timer of this clock
 * or a promise (no real I/O).
 */
import type { App } from '../../reference/app.ts';
import type { Clock } from '../../load/node/clock.ts';
import type { Send } from '../../load/node/driver.ts';
import { readBody, type Exchange } from '../../src/http/transport.ts';

/** The transport's default cap on a body's bytes (what the in-process transport decodes up to). */
const MAX_BODY_BYTES = 1024 * 1024;

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

const tick = () => new Promise<void>((r) => setImmediate(r));
/** Real time a run may spend with nothing scheduled (real I/O under way) before it counts as a deadlock: wide, for loaded machines. */
const IDLE_MARGIN_MS = 20_000;

export class VirtualClock implements Clock {
  private t: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start: number) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  /** Move the clock forward synchronously (the k6 emulator's sleep and latency). */
  advance(ms: number): void {
    if (ms > 0) this.t += ms;
  }

  at(ms: number, fire: () => void): () => void {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }

  wait(ms: number, signal?: AbortSignal): { done: Promise<void>; wake(): void } {
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      let cancel = (): void => undefined;
      finish = () => {
        cancel();
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      cancel = this.at(ms, finish);
      signal?.addEventListener('abort', finish, { once: true });
    });
    return { done, wake: () => finish() };
  }

  /** Run `main` to completion in virtual time. */
  async run<T>(main: () => Promise<T>, maxSteps = 2_000_000): Promise<T> {
    let settled = false;
    const running = main();
    const settle = () => void (settled = true);
    void running.then(settle, settle); // its outcome is awaited below, once settled
    for (let i = 0; i < maxSteps; i++) {
      await tick();
      if (settled) break;
      // Nothing scheduled: real I/O may be under way (a module being imported, slow on a loaded machine): wait
      // for what the run really promises — a timer or its end — and call it a deadlock only after a wide margin.
      for (const until = Date.now() + IDLE_MARGIN_MS; !this.timers.length && !settled && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 10));
      if (settled) break;
      if (!this.timers.length) throw new Error('virtual time: deadlock (nothing to wait for, and the run did not end)');
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      if (next.at > this.t) this.t = next.at;
      next.fire();
    }
    if (!settled) throw new Error('virtual time: the run did not end');
    return await running;
  }
}

/**
 * A busy machine (a loaded 2-core box): the client's process is off the CPU for
 * `stallMs` of every `everyMs` — a timer or a response due then is handled only
 * when it is back — and each request it sends costs it `cpuMs` of CPU time.
 */
export interface Busy {
  everyMs: number;
  stallMs: number;
  cpuMs: number;
}

/** A virtual clock on a busy machine: every timer that falls in a stall fires at its end; `advance` skips stalls too. */
export class BusyClock extends VirtualClock {
  constructor(
    start: number,
    readonly busy: Busy,
  ) {
    super(start);
  }

  /** The first moment at or after `t` the process is on the CPU. */
  awake(t: number): number {
    const { everyMs, stallMs } = this.busy;
    const phase = ((t % everyMs) + everyMs) % everyMs;
    return phase < stallMs ? t - phase + stallMs : t;
  }

  override at(ms: number, fire: () => void): () => void {
    const now = this.now();
    return super.at(this.awake(now + Math.max(0, ms)) - now, fire);
  }

  override advance(ms: number): void {
    super.advance(this.awake(this.now() + Math.max(0, ms)) - this.now());
  }
}

/** A transport whose every request costs the busy client CPU time (the clock moves on before it goes out). */
export function busySend(send: Send, clock: BusyClock): Send {
  return (req) => {
    clock.advance(clock.busy.cpuMs);
    return send(req);
  };
}

/**
 * An in-process transport to `app`: answered at send + latency/2 (the app's clock), received at send + latency,
 * plus the delay the app's latency variants draw for the request (before it is counted, then before its response).
 */
export function virtualSend(app: App, clock: VirtualClock, latencyMs = 2): Send {
  return (req) =>
    new Promise<Exchange>((resolve) => {
      const startedAt = clock.now();
      const d = app.delay();
      clock.at(latencyMs / 2 + d.beforeMs, () => {
        const u = new URL(req.url);
        const res = app.call({
          method: req.method,
          url: u.pathname + u.search,
          // A body sent chunked comes with Transfer-Encoding and no Content-Length, as undici frames it on a socket.
          headers: { ...(req.headers ?? {}), host: u.host, ...(req.chunks?.length ? { 'transfer-encoding': 'chunked' } : {}) },
          socket: { remoteAddress: '127.0.0.1' },
          body: req.body,
        });
        clock.at(latencyMs / 2 + d.afterMs, () =>
          resolve({
            request: req,
            // A body in a content coding is read as the real transport reads it (decoded, capped).
            response: res.raw
              ? readBody(res.raw, { status: res.status, headers: res.headers, cap: MAX_BODY_BYTES })
              : {
                  status: res.status,
                  headers: res.headers,
                  bodyText: res.body,
                  bodyBytes: Buffer.byteLength(res.body, 'utf8'),
                  truncated: false,
                },
            startedAt,
            durationMs: clock.now() - startedAt,
          }),
        );
      });
    });
}
