/**
 * Writes a reply: adds what every response carries (Date from the injected
 * clock, Content-Type, Content-Length), the echo-key and content-type-text
 * faults, the transport-level hostile faults, and the latency variant.
 */
import type http from 'node:http';
import type { Has } from './faults.ts';
import { hostileWrite } from './hostile.ts';
import type { Reply } from './reply.ts';
import { wireMessage, type WireMessage, type WireVariants } from './wire.ts';
import { codingFor, encode } from './content-coding.ts';

export interface WriteOptions {
  has: Has;
  now: number;
  latencyMs: number;
  /** The request's Authorization header (echoed by fault echo-key). */
  authorization?: string;
  /** Variants of framing and headers (reference/wire.ts). */
  wire?: WireVariants;
  /** The request's Accept-Encoding (the variant compress and the fault gzip-unasked answer in a coding). */
  acceptEncoding?: string;
}

/** A header-safe copy of a string (no control characters). */
function headerSafe(s: string): string {
  return s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

/** The status, headers and body of a reply as they go on the wire (before any transport-level fault). */
export function composeReply(reply: Reply, o: WriteOptions): WireMessage {
  let body: Buffer = Buffer.from(reply.body, 'utf8');
  let headers: Record<string, string> = {
    Date: new Date(o.now).toUTCString(),
    'Content-Type': o.has('content-type-text') ? 'text/plain; charset=utf-8' : (reply.contentType ?? 'application/json'),
    ...reply.headers,
  };
  if (o.has('echo-key') && o.authorization !== undefined) headers['X-Echo'] = headerSafe(o.authorization);
  if (o.has('content-type-missing')) delete headers['Content-Type'];
  let chunked = false;
  if (o.wire)
    ({ headers, body, chunked } = wireMessage(
      { status: reply.status, headers, bodyText: reply.body, isJson: reply.contentType === undefined && !o.has('content-type-text') },
      o.wire,
    ));
  if (o.wire?.noDate) delete headers.Date;
  const coding = body.length ? codingFor(o.acceptEncoding, { compress: o.wire?.compress, has: o.has }) : undefined;
  if (coding) {
    body = encode(coding, body);
    headers = { ...headers, 'Content-Encoding': coding, Vary: 'Accept-Encoding' };
  }
  return { status: reply.status, headers, body, chunked };
}

export function writeReply(res: http.ServerResponse, reply: Reply, o: WriteOptions): void {
  const { headers, body, chunked } = composeReply(reply, o);
  const write = (): void => {
    if (res.destroyed) return;
    if (hostileWrite(res, { status: reply.status, headers, body }, o.has)) return;
    if (o.wire?.noDate) res.sendDate = false; // else Node adds a Date of its own
    if (!chunked) {
      res.writeHead(reply.status, { ...headers, 'Content-Length': String(body.length) });
      res.end(body);
      return;
    }
    // Chunked, in two chunks, and the connection closed after the response.
    res.shouldKeepAlive = false;
    res.writeHead(reply.status, headers);
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    res.end(body.subarray(half));
  };
  if (o.latencyMs > 0) setTimeout(write, o.latencyMs);
  else write();
}
