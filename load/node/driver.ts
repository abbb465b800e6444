/**
 * Runs a ScenarioRun with real time: `send` → the undici transport (without
 * waiting for the response, so arrival rates hold under slow responses),
 * `wait` → setTimeout, woken early by any response. The run's own caps bound
 * it; the transport's timeout bounds each request, so a run always ends.
 */
import { send, type Exchange, type OutgoingRequest, type TransportOptions } from '../../src/http/transport.ts';
import type { ScenarioRun } from '../lib/runner.ts';

export interface DriveOptions extends TransportOptions {
  url: string;
  apiKey: string;
  signal?: AbortSignal;
  /** Called after each response is recorded. */
  onResponse?: () => void;
  now?: () => number;
}

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

export async function drive(run: ScenarioRun, o: DriveOptions): Promise<void> {
  const now = o.now || Date.now;
  const inflight = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    if (w) w();
  };
  const onAbort = () => {
    run.stop('interrupted');
    nudge();
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const req: OutgoingRequest = { method: 'GET', url: o.url, headers: { authorization: `Bearer ${o.apiKey}`, accept: 'application/json' } };
  try {
    for (;;) {
      if (o.signal?.aborted) run.stop('interrupted');
      const a = run.next(now());
      if (a.kind === 'done') break;
      if (a.kind === 'send') {
        const seq = run.sent(now());
        const p: Promise<void> = send(req, o)
          .then((ex) => {
            run.observe(toObservation(seq, ex, now()));
            if (o.onResponse) o.onResponse();
          })
          .finally(() => {
            inflight.delete(p);
            nudge();
          });
        inflight.add(p);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          wake = undefined;
          resolve();
        }, a.ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // Requests already sent are awaited (each bounded by the transport timeout).
    await Promise.allSettled([...inflight]);
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}
