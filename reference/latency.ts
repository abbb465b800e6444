/**
 * The latency variants: how long the reference server holds each request —
 * `latencyMs` before every response, and up to `latencyJitterMs` more drawn per
 * request (a fixed seed: the same draws on every run), up to half of it before
 * the request is counted and up to half before its response is written. So
 * requests in flight together are counted in another order than sent, and
 * their responses overtake one another. Sockets wait on timers (app.ts); the
 * self-tests' in-process transports wait the same delays on their virtual clock.
 */

/** How long one request waits before it is counted, and then before its response is written (ms). */
export interface Delay {
  beforeMs: number;
  afterMs: number;
}

/** A source of per-request delays (mulberry32 on a fixed seed: deterministic). */
export function delays(latencyMs: number, jitterMs: number, seed = 0x5eed): () => Delay {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () =>
    jitterMs > 0
      ? { beforeMs: Math.round((next() * jitterMs) / 2), afterMs: latencyMs + Math.round((next() * jitterMs) / 2) }
      : { beforeMs: 0, afterMs: latencyMs };
}
