/**
 * The one way the suite (conformance and the Node load engine) talks HTTP:
 * undici with a timeout on every request (headers and body), a cap on body bytes,
 * no automatic redirects (a redirect is reported, the credential is never sent
 * to another origin), and nothing thrown for a bad server: every failure comes
 * back as an `Exchange` with `error` set.
 */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { request as undiciRequest, type Dispatcher } from 'undici';
import type { NetworkConfig, Route } from '../settings/network.ts';
import { shownProxy } from '../settings/network.ts';
import { closeDispatchers, dispatcherFor } from './network.ts';
import { closedConnection, mayResend } from './stale-connection.ts';
import { ConfigError } from '../settings/read-config.ts';
import { decodeBody } from './content-coding.ts';
import { atDeadline, holdOwnLateness, lateWithin } from './own-lateness.ts';

export interface OutgoingRequest {
  /** Any method token (RFC 9110 §9.1): the documented ones, the other RFC 9110 methods, an extension. */
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Send `body` chunked: as a stream of chunks of these sizes in bytes (cycled, the last one what is left), so undici
   * frames it with Transfer-Encoding: chunked and no Content-Length (RFC 9112 §7.1; on HTTP/2, DATA frames).
   */
  chunks?: number[];
  /**
   * Send on the connection of this name (a pool of one, kept alive): requests given one name follow one another on
   * one connection while the server keeps it open, so what a connection keeps from its previous request shows. The
   * in-process transport has no connections and ignores it.
   */
  connection?: string;
}

/** The bytes of `body` cut into chunks of `sizes` (cycled; sizes below 1 count as 1). */
export function chunksOf(body: string, sizes: readonly number[]): Buffer[] {
  const bytes = Buffer.from(body, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length] ?? bytes.length);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

/**
 * The body as undici sends it: the text, or (chunked) a stream of its chunks of no length known in advance, made anew
 * for each attempt (a stream already ended when undici looks at it would be sent with Content-Length: undici measures it).
 */
const bodyOf = (req: OutgoingRequest): string | Readable | undefined =>
  req.chunks?.length && req.body !== undefined ? Readable.from(chunksOf(req.body, req.chunks)) : req.body;

/** `proxy`: the proxy could not be reached, or refused to carry the request (its CONNECT answered other than 200). */
export type TransportErrorKind = 'timeout' | 'refused' | 'reset' | 'too-large' | 'dns' | 'tls' | 'proxy' | 'other';

export interface IncomingResponse {
  status: number;
  headers: Record<string, string>;
  /** Decoded body text (at most maxBodyBytes bytes were read). */
  bodyText: string;
  bodyBytes: number;
  truncated: boolean;
  /** A body in a content coding: the codings, the bytes received, and why it could not be decoded, if it could not. */
  coding?: { codings: string[]; encodedBytes: number; error?: string };
}

export interface Exchange {
  request: OutgoingRequest;
  response?: IncomingResponse;
  error?: {
    kind: TransportErrorKind;
    message: string;
    code?: string;
    proxyStatus?: number;
    /**
     * A timeout on the client's account: it ran so far behind its own timers (a busy machine) that the server never had
     * the whole timeout of its attention (own-lateness.ts). Not the server's failure: the request was not judged.
     */
    clientLate?: { lateMs: number; elapsedMs: number };
  };
  startedAt: number;
  durationMs: number;
  /** Milliseconds from the start to the response's headers, when the transport measured it (the HAR's `wait`). */
  headersMs?: number;
}

export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  /** The route and TLS to the target (a proxy, a CA, a client certificate, HTTP/2); direct, system roots, HTTP/1.1 without. */
  network?: NetworkConfig;
}

/** Close pooled connections (end of a run). */
export async function closeTransport(): Promise<void> {
  await closeDispatchers();
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

type TransportError = NonNullable<Exchange['error']>;

/**
 * A failure on a proxied route that is the proxy's, not the target's: its CONNECT answered other than 200, or the
 * proxy itself could not be reached (the target is never connected to, nor its name looked up, from here).
 */
function proxyFailure(e: { code?: string; message?: string }, code: string, route: Route): TransportError | undefined {
  if (route.via !== 'proxy') return undefined;
  const via = `the proxy ${shownProxy(route.proxy)} (${route.from})`;
  const status = /Proxy response \((\d{3})\)/.exec(e?.message ?? '') || /Proxy Authentication Required \((407)\)/.exec(e?.message ?? '');
  if (status) return { kind: 'proxy', code, proxyStatus: Number(status[1]), message: `${via} answered ${status[1]} to the tunnel request` };
  if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/.test(code))
    return { kind: 'proxy', code, message: `${via} cannot be reached: ${e?.message ?? code} (${code})` };
  return undefined;
}

function classify(err: unknown, route: Route = { via: 'direct' }): TransportError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const proxied = proxyFailure(e, code, route);
  if (proxied) return proxied;
  const m = `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}${code ? ` (${code})` : ''}`;
  const withCode = (kind: TransportErrorKind): TransportError => ({ kind, message: m, ...(code ? { code } : {}) });
  if (/TIMEOUT|ABORT/i.test(code) || e?.name === 'AbortError' || /timeout/i.test(e?.message ?? '')) return withCode('timeout');
  if (code === 'ECONNREFUSED') return withCode('refused');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') return withCode('reset');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return withCode('dns');
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code) || /certificate|TLS|SSL/i.test(e?.message ?? ''))
    return withCode('tls');
  return withCode('other');
}

/** What every attempt of one exchange shares. */
interface Sending {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  startedAt: number;
}

/** The response of one attempt, its body read within the cap. */
async function attempt(req: OutgoingRequest, opts: TransportOptions, to: Sending): Promise<Exchange> {
  const { signal, startedAt } = to;
  const res = await undiciRequest(req.url, {
    method: req.method,
    headers: req.headers,
    body: bodyOf(req),
    signal,
    dispatcher: to.dispatcher,
  });
  const headersMs = Date.now() - startedAt;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    if (bytes + buf.length > opts.maxBodyBytes) {
      chunks.push(buf.subarray(0, opts.maxBodyBytes - bytes));
      truncated = true;
      res.body.destroy();
      break;
    }
    chunks.push(buf);
    bytes += buf.length;
  }
  const headers = flattenHeaders(res.headers);
  const response = readBody(Buffer.concat(chunks), { status: res.statusCode, headers, cap: opts.maxBodyBytes, truncated });
  const error = response.truncated
    ? { error: { kind: 'too-large' as const, message: `response body exceeds the ${opts.maxBodyBytes}-byte cap; reading stopped` } }
    : {};
  return { request: req, response, ...error, startedAt, durationMs: Date.now() - startedAt, headersMs };
}

/**
 * How often a request is sent again after the server closed its connection under it, unserved (stale-connection.ts):
 * each attempt retires one closed connection of the pool, so a few reach a fresh one; the timeout bounds them all.
 */
const STALE_RETRIES = 3;

/**
 * How long a request the server stopped reading (never whole) waits before it is sent again, times its attempt: a server
 * that answers on the header fields and closes (uvicorn, a 401 to a chunked POST with `Connection: close`) wins that
 * race in bursts on a busy machine. Measured against the FastAPI server at a load average of 8–10: 28% of such requests
 * met it once, 3% all four times.
 */
const NEVER_WHOLE_PAUSE_MS = 30;

/** Wait before attempt `retries + 1` of a request the server closed its connection under (none for a stale one). */
async function pauseBefore(err: unknown, retries: number, signal: AbortSignal): Promise<void> {
  if (closedConnection(err) !== 'never-whole') return;
  await sleep(NEVER_WHOLE_PAUSE_MS * (retries + 1), undefined, { signal }).catch(() => undefined);
}

/**
 * Send one request. Never throws for network or server faults. The whole
 * exchange (connect, headers, body) is bounded by `timeoutMs` of the client's
 * attention, every attempt included (own-lateness.ts: the time the client itself
 * ran behind its timers is given back, within LATE_CAP_FACTOR timeouts). A request is
 * sent again when the server closed its connection under it in a way that shows it
 * was not served (stale-connection.ts: never whole, or a reused connection — any
 * method after an answer refusing a body, a safe one otherwise).
 */
export async function send(req: OutgoingRequest, opts: TransportOptions): Promise<Exchange> {
  const startedAt = Date.now();
  const release = holdOwnLateness(startedAt);
  const ac = new AbortController();
  let over: 'server' | 'client-late' | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number): void => {
    timer = setTimeout(() => {
      const d = atDeadline({ elapsedMs: Date.now() - startedAt, lateMs: lateWithin(startedAt), timeoutMs: opts.timeoutMs });
      if ('wait' in d) return arm(d.wait);
      over = d.over;
      ac.abort(new Error(`request timed out after ${opts.timeoutMs} ms`));
    }, ms);
  };
  arm(opts.timeoutMs);
  let route: Route = { via: 'direct' };
  try {
    for (let retries = 0; ; retries++) {
      try {
        const to = dispatcherFor(req.url, opts, req.connection);
        route = to.route;
        return await attempt(req, opts, { dispatcher: to.dispatcher, signal: ac.signal, startedAt });
      } catch (err) {
        if (err instanceof ConfigError) throw err;
        const again = !ac.signal.aborted && retries < STALE_RETRIES && mayResend(err, req.method);
        if (again) await pauseBefore(err, retries, ac.signal);
        if (again && !ac.signal.aborted) continue;
        const e = ac.signal.aborted ? timedOut(over, startedAt, opts.timeoutMs) : classify(err, route);
        return { request: req, error: e, startedAt, durationMs: Date.now() - startedAt };
      }
    }
  } finally {
    clearTimeout(timer);
    release();
  }
}

/** A request's timeout: the server's (its whole timeout of the client's attention spent), or the client's own lateness. */
function timedOut(over: 'server' | 'client-late' | undefined, startedAt: number, timeoutMs: number): TransportError {
  const elapsedMs = Date.now() - startedAt;
  const lateMs = lateWithin(startedAt);
  if (over === 'client-late')
    return {
      kind: 'timeout',
      message: `no complete response in ${elapsedMs} ms, but this client ran ${lateMs} ms of it behind its own timers (a busy machine): the server had less than the ${timeoutMs} ms timeout of its attention`,
      clientLate: { lateMs, elapsedMs },
    };
  const late = lateMs > 0 ? ` (${elapsedMs} ms in all, ${lateMs} ms of it the client's own lateness, given back)` : '';
  return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms${late}` };
}

/** How a response's body is read: its status and headers, the decoded cap, and whether the raw body was cut already. */
export interface BodyReading {
  status: number;
  headers: Record<string, string>;
  cap: number;
  truncated?: boolean;
}

/**
 * A response as its headers declare it: its body decoded from its Content-Encoding (at most `cap` decoded bytes: a body
 * that inflates beyond is cut, as one too large), as UTF-8 text.
 */
export function readBody(raw: Buffer, { status, headers, cap, truncated = false }: BodyReading): IncomingResponse {
  if (!headers['content-encoding'] || truncated)
    return { status, headers, bodyText: raw.toString('utf8'), bodyBytes: raw.length, truncated };
  const d = decodeBody(raw, headers['content-encoding'], cap);
  const coding = { codings: d.codings, encodedBytes: raw.length, ...(d.error && !d.tooLarge ? { error: d.error } : {}) };
  return { status, headers, bodyText: d.text, bodyBytes: d.bytes, truncated: !!d.tooLarge, coding };
}

/** Is `location` (relative to `from`) on another origin? */
export function isCrossOrigin(from: string, location: string): boolean {
  try {
    return new URL(location, from).origin !== new URL(from).origin;
  } catch {
    return true;
  }
}
