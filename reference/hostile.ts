/**
 * Hostile-server faults: each affects every request. Reply-level ones rewrite
 * the reply before it is written; transport-level ones take over the socket.
 */
import type http from 'node:http';
import type { ErrorFactory } from './errors.ts';
import type { Has } from './faults.ts';
import type { Reply } from './reply.ts';
import type { WireMessage } from './wire.ts';

const HTML_ERROR =
  '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>Something went wrong.</p></body></html>';
export const HUGE_BODY_BYTES = 40 * 1024 * 1024;
const CHUNK = Buffer.from('{"id":1,"name":"Filler","categoryId":1},'.repeat(1600)); // ~64 KiB
const CHUNK_INTERVAL_MS = 2;

/** The reply a hostile server sends instead of `reply`. */
export function hostileReply(reply: Reply, has: Has, error: ErrorFactory, req: { url?: string; socket?: { localPort?: number } }): Reply {
  if (has('always-500')) return error('internal_error');
  if (has('html-error')) return { status: 500, body: HTML_ERROR, contentType: 'text/html; charset=utf-8' };
  if (has('body-not-json')) return { status: 200, body: '<html>oops</html>', contentType: 'text/html' };
  if (has('json-truncated')) return { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) };
  if (has('redirect-cross-origin')) {
    const location = `http://127.0.0.2:${req.socket?.localPort ?? 80}${req.url ?? '/'}`;
    return { ...reply, status: 307, headers: { ...reply.headers, Location: location } };
  }
  return reply;
}

/** Transport-level faults; true when the fault took over the response. */
export function hostileWrite(
  res: http.ServerResponse,
  { status, headers, body }: Pick<WireMessage, 'status' | 'headers' | 'body'>,
  has: Has,
): boolean {
  if (has('hang')) return true; // accepted, never answered
  if (has('reset-connection')) {
    res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
    res.write(body.subarray(0, Math.max(1, Math.floor(body.length / 2))), () => setImmediate(() => res.socket?.resetAndDestroy()));
    return true;
  }
  if (has('huge-body')) {
    res.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
    streamHuge(res);
    return true;
  }
  return false;
}

/** 40 MB of JSON array, chunk by chunk with backpressure; stops when the client goes away. */
function streamHuge(res: http.ServerResponse): void {
  let sent = 0;
  res.write('[');
  const next = (): void => {
    if (res.destroyed || res.writableEnded) return;
    if (sent >= HUGE_BODY_BYTES) {
      res.end('{"id":1,"name":"Filler","categoryId":1}]');
      return;
    }
    sent += CHUNK.length;
    if (res.write(CHUNK)) setTimeout(next, CHUNK_INTERVAL_MS);
    else res.once('drain', () => setTimeout(next, CHUNK_INTERVAL_MS));
  };
  next();
}
