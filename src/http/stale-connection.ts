/**
 * A kept-alive connection the server closed as the next request was written on it. RFC 9112 §9.5 lets either
 * side close an idle connection at any time, and says a client may find a request in progress on a connection
 * the server is closing; on a busy machine the moment stretches (an event loop that stalls for seconds writes
 * the request before the timer that would have retired the connection runs). The request never reached the
 * server, which is no fault of it: Go's net/http — k6's transport — sends such a request again, and so does the
 * suite's (transport.ts), by Go's rule: a request without a body-changing method (GET, HEAD, OPTIONS, TRACE),
 * whose connection had carried an earlier exchange, failed before a single byte of a response came — never a
 * request on a fresh connection (a server that resets those is reported), never one that may have changed state.
 *
 * undici says which connection a request went on only on its diagnostics channels: `undici:client:sendHeaders`
 * (the request and its socket, as it is written) and `undici:request:error` (the request and the error its
 * caller gets). Node side only.
 */
import { subscribe } from 'node:diagnostics_channel';

/** The methods Go's transport retries on a reused connection (Request.isReplayable): they change nothing. */
export const RETRYABLE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

interface Written {
  socket: { bytesRead: number };
  /** The socket's bytes read when this request was written on it. */
  bytesRead: number;
}

/** Requests written on a connection that had carried an earlier exchange. */
const onReused = new WeakMap<object, Written>();
/** Requests written per socket. */
const written = new WeakMap<object, number>();
/** The errors of requests that failed on a reused connection before any byte of their response. */
const stale = new WeakSet<object>();

subscribe('undici:client:sendHeaders', (message) => {
  const { request, socket } = message as { request: object; socket: { bytesRead: number } };
  const before = written.get(socket) ?? 0;
  written.set(socket, before + 1);
  if (before > 0) onReused.set(request, { socket, bytesRead: socket.bytesRead });
});

subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: unknown };
  const w = onReused.get(request);
  if (w && w.socket.bytesRead === w.bytesRead && typeof error === 'object' && error !== null) stale.add(error);
});

/** Did this error end a request on a reused connection before any byte of its response (the server closing it)? */
export function isStaleConnectionFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && stale.has(err);
}
