/**
 * Writes a reply: adds what every response carries (Date from the injected
 * clock, Content-Type, Content-Length), the echo-key and content-type-text
 * faults, the transport-level hostile faults, and the latency variant.
 */
import type http from 'node:http';
import type { Has } from './faults.ts';
import { hostileWrite } from './hostile.ts';
import type { Reply } from './reply.ts';

export interface WriteOptions {
  has: Has;
  now: number;
  latencyMs: number;
  /** The request's Authorization header (echoed by fault echo-key). */
  authorization?: string;
}

/** A header-safe copy of a string (no control characters). */
function headerSafe(s: string): string {
  return s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

export function writeReply(res: http.ServerResponse, reply: Reply, o: WriteOptions): void {
  const body = Buffer.from(reply.body, 'utf8');
  const headers: Record<string, string> = {
    Date: new Date(o.now).toUTCString(),
    'Content-Type': o.has('content-type-text') ? 'text/plain; charset=utf-8' : (reply.contentType ?? 'application/json'),
    ...reply.headers,
  };
  if (o.has('echo-key') && o.authorization !== undefined) headers['X-Echo'] = headerSafe(o.authorization);
  const write = (): void => {
    if (res.destroyed) return;
    if (hostileWrite(res, reply.status, headers, body, o.has)) return;
    res.writeHead(reply.status, { ...headers, 'Content-Length': String(body.length) });
    res.end(body);
  };
  if (o.latencyMs > 0) setTimeout(write, o.latencyMs);
  else write();
}
