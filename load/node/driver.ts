/**
 * Runs a ScenarioRun on a clock: `send` → the transport (without waiting for
 * the response, so arrival rates hold under slow responses), `wait` → the
 * clock, woken early by any response. The run's own caps bound it; the
 * transport's timeout bounds each request, so a run always ends.
 */
import type { Exchange, OutgoingRequest } from '../../src/http/transport.ts';
import type { ScenarioRun } from '../lib/runner.ts';
import type { LoadRequest } from '../lib/operations.ts';
import type { Clock } from './clock.ts';

export type Send = (req: OutgoingRequest) => Promise<Exchange>;

export interface DriveOptions {
  /** The base address ending in /v1: each request's path follows it (ScenarioRun.requestOf). */
  baseUrl: string;
  apiKey: string;
  send: Send;
  clock: Clock;
  signal?: AbortSignal;
  /** Called when a noticeable wait on the key begins (a Retry-After, a fresh or idle window): not pacing between slots. */
  onWait?: (why: string, ms: number) => void;
}

/** Waits a user should hear about: the key resting, not the ordinary pacing between requests. */
const NOTABLE = /Retry-After|window|refused/;

export function toObservation(seq: number, ex: Exchange, t: number) {
  if (ex.response) {
    return {
      seq,
      t,
      status: ex.response.status,
      headers: ex.response.headers,
      body: ex.response.bodyText,
      ...(ex.error && ex.error.kind !== 'too-large' ? { error: `${ex.error.kind}: ${ex.error.message}` } : {}),
    };
  }
  return { seq, t, status: 0, headers: {}, error: ex.error ? `${ex.error.kind}: ${ex.error.message}` : 'no response' };
}

/** The request on the wire: the key, JSON accepted, and a createPet's body as JSON. */
function outgoing(r: LoadRequest, o: DriveOptions): OutgoingRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${o.apiKey}`, accept: 'application/json' };
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  return { method: r.method, url: `${o.baseUrl}${r.path}`, headers, ...(r.body !== undefined ? { body: r.body } : {}) };
}

export async function drive(run: ScenarioRun, o: DriveOptions): Promise<void> {
  const { clock } = o;
  const inflight = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  /** A response arrived while nobody was waiting: the next wait is skipped (the run must look at it first). */
  let missed = false;
  let lastWhy = '';
  const nudge = () => {
    const w = wake;
    wake = undefined;
    if (w) w();
    else missed = true;
  };
  const onAbort = () => {
    run.stop('interrupted');
    nudge();
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (o.signal?.aborted) run.stop('interrupted');
      const a = run.next(clock.now());
      if (a.kind === 'done') break;
      if (a.kind === 'send') {
        const seq = run.sent(clock.now());
        const p: Promise<void> = o
          .send(outgoing(run.requestOf(seq), o))
          .then((ex) => {
            run.observe(toObservation(seq, ex, clock.now()));
          })
          .finally(() => {
            inflight.delete(p);
            nudge();
          });
        inflight.add(p);
        continue;
      }
      if (missed) {
        missed = false;
        continue;
      }
      if (o.onWait && a.ms >= 1000 && NOTABLE.test(a.why) && a.why !== lastWhy) o.onWait(a.why, a.ms);
      lastWhy = a.why;
      const w = clock.wait(a.ms);
      wake = w.wake;
      await w.done;
      wake = undefined;
      missed = false;
    }
    // Requests already sent are awaited (each bounded by the transport timeout).
    await Promise.allSettled([...inflight]);
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}
