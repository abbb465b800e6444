/**
 * The one way the suite (conformance and the Node load engine) talks HTTP:
 * undici with a timeout on every request (headers and body), a cap on body bytes,
 * no automatic redirects (a redirect is reported, the credential is never sent
 * to another origin), and nothing thrown for a bad server: every failure comes
 * back as an `Exchange` with `error` set.
 */
import { Agent, request as undiciRequest } from 'undici';

export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export type TransportErrorKind = 'timeout' | 'refused' | 'reset' | 'too-large' | 'dns' | 'tls' | 'other';

export interface IncomingResponse {
  status: number;
  headers: Record<string, string>;
  /** Decoded body text (at most maxBodyBytes bytes were read). */
  bodyText: string;
  bodyBytes: number;
  truncated: boolean;
}

export interface Exchange {
  request: OutgoingRequest;
  response?: IncomingResponse;
  error?: { kind: TransportErrorKind; message: string };
  startedAt: number;
  durationMs: number;
  /** Milliseconds from the start to the response's headers, when the transport measured it (the HAR's `wait`). */
  headersMs?: number;
}

export interface TransportOptions {
  timeoutMs: number;
  maxBodyBytes: number;
}

const agents = new Map<string, Agent>();
function agentFor(timeoutMs: number): Agent {
  const k = String(timeoutMs);
  let a = agents.get(k);
  if (!a) {
    a = new Agent({
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connectTimeout: Math.min(timeoutMs, 10_000),
      keepAliveTimeout: 4_000,
      maxRedirections: 0,
    } as ConstructorParameters<typeof Agent>[0]);
    agents.set(k, a);
  }
  return a;
}

/** Close pooled connections (end of a run). */
export async function closeTransport(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.allSettled(all.map((a) => a.close()));
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function classify(err: unknown): { kind: TransportErrorKind; message: string } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const msg = `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}${code ? ` (${code})` : ''}`;
  if (/TIMEOUT|ABORT/i.test(code) || e?.name === 'AbortError' || /timeout/i.test(e?.message ?? ''))
    return { kind: 'timeout', message: msg };
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: msg };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED')
    return { kind: 'reset', message: msg };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'dns', message: msg };
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code) || /certificate|TLS|SSL/i.test(e?.message ?? ''))
    return { kind: 'tls', message: msg };
  return { kind: 'other', message: msg };
}

/**
 * Send one request. Never throws for network or server faults. The whole
 * exchange (connect, headers, body) is bounded by `timeoutMs`.
 */
export async function send(req: OutgoingRequest, opts: TransportOptions): Promise<Exchange> {
  const startedAt = Date.now();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error(`request timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
  try {
    const res = await undiciRequest(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: ac.signal,
      dispatcher: agentFor(opts.timeoutMs),
    });
    const headersMs = Date.now() - startedAt;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (bytes + buf.length > opts.maxBodyBytes) {
        chunks.push(buf.subarray(0, opts.maxBodyBytes - bytes));
        bytes = opts.maxBodyBytes;
        truncated = true;
        res.body.destroy();
        break;
      }
      chunks.push(buf);
      bytes += buf.length;
    }
    const response: IncomingResponse = {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      bodyText: Buffer.concat(chunks).toString('utf8'),
      bodyBytes: bytes,
      truncated,
    };
    if (truncated)
      return {
        request: req,
        response,
        error: { kind: 'too-large', message: `response body exceeds the ${opts.maxBodyBytes}-byte cap; reading stopped` },
        startedAt,
        durationMs: Date.now() - startedAt,
        headersMs,
      };
    return { request: req, response, startedAt, durationMs: Date.now() - startedAt, headersMs };
  } catch (err) {
    const e = ac.signal.aborted ? { kind: 'timeout' as const, message: `no complete response within ${opts.timeoutMs} ms` } : classify(err);
    return { request: req, error: e, startedAt, durationMs: Date.now() - startedAt };
  } finally {
    clearTimeout(timer);
  }
}

/** Is `location` (relative to `from`) on another origin? */
export function isCrossOrigin(from: string, location: string): boolean {
  try {
    return new URL(location, from).origin !== new URL(from).origin;
  } catch {
    return true;
  }
}
