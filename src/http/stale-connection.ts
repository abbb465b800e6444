/**
 * A connection the server closed under a request, in one of the ways RFC 9112 says a correct server may — no fault of
 * the server, so the transport (transport.ts) sends the request again, on another connection, when the failure proves
 * (or, for a safe method, merely suggests) that the request was not served:
 *
 * - **Never whole** (any method): the failure came from *writing* the request (EPIPE, a reset reported by a write):
 *   some of its bytes never reached the server, which therefore had an incomplete message, and an incomplete request is
 *   not one a server may act on (RFC 9112 §8). A server may answer before it has read a request's content — a 401 or a
 *   429 decided on the header fields — and close the connection (the request's `Connection: close`, RFC 9112 §9.6), and
 *   the client's next write then meets the reset: the TCP reset problem of RFC 9112 §9.6, which may also erase the
 *   answer the server sent before the client reads it. Seen on uvicorn: a 401 to a chunked POST with `Connection: close`.
 * - **Stale, safe method**: a request without a body-changing method (GET, HEAD, OPTIONS, TRACE) on a kept-alive
 *   connection that had carried an earlier exchange, failed before a single byte of a response came. RFC 9112 §9.5 lets
 *   either side close an idle connection at any time; on a busy machine the moment stretches (an event loop that stalls
 *   for seconds writes the request before the timer that would have retired the connection runs). Go's net/http — k6's
 *   transport — sends such a request again (Request.isReplayable), and so does the suite.
 * - **Stale after a refused body** (any method): the same failure on a connection whose previous exchange was an error
 *   answer (4xx, 5xx) to a request with content. A server may answer such a request without reading all its content
 *   and then close the connection (RFC 9110 §15.5.14 says so of a 413; the JDK's HttpServer drains at most 64 KiB of an
 *   unread body, then closes without `Connection: close`): the next request, written at once on a connection the
 *   client still holds open, is reset unread. RFC 9112 §9.3.1 forbids re-sending a non-idempotent request unless the
 *   client can tell it was not applied; here the server had told the client it may close the connection, and closed it.
 *
 * Never re-sent: a request on a fresh connection whose write went through (a server that resets new connections is
 * reported), one that got any byte of its response, and a non-idempotent one on a connection the server gave no reason
 * to close (it may have been served: RFC 9112 §9.3.1).
 *
 * undici says which connection a request went on only on its diagnostics channels: `undici:client:sendHeaders` (the
 * request and its socket, as it is written), `undici:request:headers` (its response's status) and
 * `undici:request:error` (the request and the error its caller gets). Node side only.
 */
import { subscribe } from 'node:diagnostics_channel';

/** The methods Go's transport retries on a reused connection (Request.isReplayable): they change nothing. */
export const RETRYABLE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** How a failed request met a closed connection, when it is one of the ways above. */
export type ClosedConnection = 'never-whole' | 'stale' | 'stale-after-refused-body';

interface Socket {
  bytesRead: number;
}

interface Written {
  socket: Socket;
  /** The socket's bytes read when this request was written on it. */
  bytesRead: number;
  /** The socket had carried an earlier exchange. */
  reused: boolean;
  /** That earlier exchange was an error answer to a request with content (the server may close the connection). */
  afterRefusedBody: boolean;
}

interface UndiciRequest {
  method?: string;
  body?: unknown;
}

/** Each request as it was written. */
const writtenOn = new WeakMap<object, Written>();
/** Requests written per socket, and whether the last answer on it refused a request with content. */
const sockets = new WeakMap<object, { count: number; refusedBody: boolean }>();
/** The errors of requests that met a closed connection, and how. */
const closed = new WeakMap<object, ClosedConnection>();

subscribe('undici:client:sendHeaders', (message) => {
  const { request, socket } = message as { request: object; socket: Socket };
  const s = sockets.get(socket) ?? { count: 0, refusedBody: false };
  sockets.set(socket, s);
  writtenOn.set(request, { socket, bytesRead: socket.bytesRead, reused: s.count > 0, afterRefusedBody: s.refusedBody });
  s.count++;
  s.refusedBody = false;
});

subscribe('undici:request:headers', (message) => {
  const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
  const w = writtenOn.get(request);
  const s = w && sockets.get(w.socket);
  if (s) s.refusedBody = response.statusCode >= 400 && request.body !== null && request.body !== undefined;
});

/** Did the error come from writing the request (its bytes not all sent)? Node's errors name the system call. */
function fromWriting(error: { code?: string; syscall?: string }): boolean {
  return error.code === 'EPIPE' || error.syscall === 'write';
}

subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: unknown };
  const w = writtenOn.get(request);
  if (!w || typeof error !== 'object' || error === null) return;
  if (fromWriting(error)) return void closed.set(error, 'never-whole');
  if (!w.reused || w.socket.bytesRead !== w.bytesRead) return;
  closed.set(error, w.afterRefusedBody ? 'stale-after-refused-body' : 'stale');
});

/** How this error met a connection the server closed, if it did in one of the ways above. */
export function closedConnection(err: unknown): ClosedConnection | undefined {
  return typeof err === 'object' && err !== null ? closed.get(err) : undefined;
}

/** Did this error end a request on a reused connection before any byte of its response (the server closing it)? */
export function isStaleConnectionFailure(err: unknown): boolean {
  const c = closedConnection(err);
  return c === 'stale' || c === 'stale-after-refused-body';
}

/** May the request that failed with `err` be sent again: was it, by the rules above, not served? */
export function mayResend(err: unknown, method: string): boolean {
  const c = closedConnection(err);
  if (c === 'never-whole' || c === 'stale-after-refused-body') return true;
  return c === 'stale' && RETRYABLE_METHODS.has(method);
}
