/**
 * The TLS inspection of a failed preflight: one TLS handshake with the target, on the run's route (directly, or through
 * its proxy's CONNECT tunnel, opened by undici's own `connect`), with the run's client certificate and protocols but
 * without verifying the server — so that the diagnosis can name the certificate the server showed (its issuer, its
 * names, its dates) and hear an alert the server sends after the handshake (TLS 1.3 asks for a client certificate
 * then). It sends no request: nothing, the key least of all, goes to a server whose certificate was not verified.
 * Node side only.
 */
import { X509Certificate } from 'node:crypto';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { Client } from 'undici';
import { routeFor, type NetworkConfig } from '../settings/network.ts';
import { originOf } from '../settings/proxy-route.ts';
import { connectTls, tlsOptionsOf } from './network.ts';

export interface TlsPeer {
  /** The handshake completed (the server's certificate not verified). */
  connected: boolean;
  /** Why Node would not trust the certificate (an OpenSSL code, e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE). */
  authorizationError?: string;
  /** The server's certificate: its subject, issuer, names and validity; the top of the chain it sent. */
  subject?: string;
  issuer?: string;
  names?: string;
  validFrom?: string;
  validTo?: string;
  selfSigned?: boolean;
  /** The protocol agreed by ALPN (h2, http/1.1), or none. */
  alpn?: string;
  /** An error code the handshake or the server's first alert gave (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED…). */
  code?: string;
  /** The tunnel could not be opened: the proxy's answer. */
  proxyStatus?: number;
  /** The server closed the connection right after the handshake, without an alert (Node's servers refuse a client certificate so). */
  closedAfterHandshake?: boolean;
  /** The issuer of the client certificate the run presents, if any. */
  clientIssuer?: string;
}

/** A distinguished name as one line: `CN=Example CA, O=Example Corp`. */
export function dn(name: PeerCertificate['subject'] | undefined): string | undefined {
  if (!name) return undefined;
  const parts = (['CN', 'O', 'OU'] as const).map((k) => [k, (name as unknown as Record<string, string | string[]>)[k]] as const);
  const shown = parts.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`);
  return shown.length ? shown.join(', ') : undefined;
}

function describe(socket: TLSSocket): TlsPeer {
  const cert = socket.getPeerCertificate(true);
  const empty = !cert || !Object.keys(cert).length;
  const err = socket.authorizationError as unknown as string | Error | null;
  return {
    connected: true,
    ...(err ? { authorizationError: typeof err === 'string' ? err : ((err as NodeJS.ErrnoException).code ?? String(err)) } : {}),
    ...(empty
      ? {}
      : {
          subject: dn(cert.subject),
          issuer: dn(cert.issuer),
          names: cert.subjectaltname,
          validFrom: cert.valid_from,
          validTo: cert.valid_to,
          selfSigned: cert.fingerprint256 === cert.issuerCertificate?.fingerprint256,
        }),
    ...(socket.alpnProtocol ? { alpn: socket.alpnProtocol } : {}),
  };
}

/** The proxy's tunnel to host:port (undici's own CONNECT), or its status when it refused. */
async function tunnel(proxy: string, authority: string, timeoutMs: number): Promise<{ socket?: Duplex; status?: number; close(): void }> {
  const m = /^([a-z]+:\/\/)(?:([^@/]*)@)?(.*)$/i.exec(proxy) as RegExpExecArray;
  const client = new Client(`${m[1]}${m[3]}`, { connectTimeout: timeoutMs });
  const auth = m[2] ? decodeUserinfo(m[2]) : undefined;
  const headers: Record<string, string> = {
    host: authority,
    ...(auth ? { 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` } : {}),
  };
  const { socket, statusCode } = await client.connect({ path: authority, headers, signal: AbortSignal.timeout(timeoutMs) });
  const close = () => void client.destroy().catch(() => undefined);
  if (statusCode !== 200) {
    socket.destroy();
    return { status: statusCode, close };
  }
  return { socket, close };
}

function decodeUserinfo(userinfo: string): string {
  const i = userinfo.indexOf(':');
  const d = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return i < 0 ? d(userinfo) : `${d(userinfo.slice(0, i))}:${d(userinfo.slice(i + 1))}`;
}

/**
 * TlsPeer the target's TLS on the run's route. `alertMs`: how long to listen after the handshake for an alert (a server
 * demanding a client certificate sends it then, under TLS 1.3); 0 not to.
 */
export async function inspectTls(url: string, n: NetworkConfig, o: { timeoutMs: number; alertMs: number }): Promise<TlsPeer> {
  const origin = originOf(url);
  if (!origin) return { connected: false };
  const route = routeFor(url, n.proxy);
  const authority = `${origin.host.indexOf(':') >= 0 ? `[${origin.host}]` : origin.host}:${origin.port}`;
  let through: Awaited<ReturnType<typeof tunnel>> | undefined;
  try {
    if (route.via === 'proxy') {
      through = await tunnel(route.proxy, authority, o.timeoutMs);
      if (!through.socket) return { connected: false, proxyStatus: through.status };
    }
    const p = await handshake({ origin, socket: through?.socket, n, ...o });
    const cert = tlsOptionsOf(n).cert;
    // X509Certificate names the issuer one attribute a line, the most general first: shown most specific first.
    return cert ? { ...p, clientIssuer: new X509Certificate(cert).issuer.split('\n').reverse().join(', ') } : p;
  } catch (e) {
    return { connected: false, code: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  } finally {
    through?.close();
  }
}

interface HandshakeOptions {
  origin: NonNullable<ReturnType<typeof originOf>>;
  socket?: Duplex;
  n: NetworkConfig;
  timeoutMs: number;
  alertMs: number;
}

function handshake(h: HandshakeOptions): Promise<TlsPeer> {
  const tls = connectTls(h.n);
  const isIp = /^[\d.]+$|:/.test(h.origin.host);
  return new Promise<TlsPeer>((resolve) => {
    let found: TlsPeer | undefined;
    const socket = tlsConnect({
      host: h.origin.host,
      port: Number(h.origin.port),
      ...(h.socket ? { socket: h.socket } : {}),
      ...(isIp ? {} : { servername: h.origin.host }),
      ALPNProtocols: h.n.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
      ...(tls.secureContext ? { secureContext: tls.secureContext } : {}),
      rejectUnauthorized: false,
    });
    const done = (p: TlsPeer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(p);
    };
    const timer = setTimeout(() => done(found ?? { connected: false, code: 'ETIMEDOUT' }), h.timeoutMs + h.alertMs);
    socket.once('secureConnect', () => {
      found = describe(socket);
      if (!h.alertMs) done(found);
      else setTimeout(() => done(found as TlsPeer), h.alertMs).unref();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => done({ ...(found ?? { connected: false }), code: e.code ?? e.message }));
    socket.on('end', () => found && done({ ...found, closedAfterHandshake: true }));
    socket.on('close', () => found && done(found));
  });
}
