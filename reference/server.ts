/**
 * Serving an App over HTTP (the only I/O of the reference server): plain HTTP/1.1, or over TLS — HTTPS with HTTP/2
 * offered by ALPN beside HTTP/1.1 (node:http2 with `allowHTTP1`; `http1: false` serves HTTP/2 alone), demanding a
 * client certificate of a given CA for mutual TLS when asked.
 */
import http from 'node:http';
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import type { App } from './app.ts';
import { BASE_PATH } from './router.ts';

export interface Listening {
  /** Base URL including the version segment, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeTls {
  /** PEM files of the server's certificate and key. */
  cert: string;
  key: string;
  /** Demand a client certificate issued by this CA (PEM file): mutual TLS. */
  clientCa?: string;
  /** Offer HTTP/1.1 beside HTTP/2 by ALPN (default true); false: HTTP/2 only. */
  http1?: boolean;
}

export interface ListenOptions {
  host?: string;
  port?: number;
  tls?: ServeTls;
}

function createServer(app: App, tls: ServeTls | undefined): Server {
  if (!tls) {
    // An idle connection is kept a minute, far longer than the suite's client keeps one (3 to 4 s): on a loaded
    // machine the client read a response seconds after the server sent it, so with Node's 5 s the server closed
    // connections the client still thought open, and a createPet sent on one was reset (not retried: not idempotent)
    // — 1 of 10 recovery-only runs beside 8 CPU-bound processes failed TRANSPORT-COMPLETE-RESPONSE that way.
    const server = http.createServer({ keepAliveTimeout: 60_000 }, app.handler);
    // Variant maxRequestsPerConnection: Node answers the last request of a connection with Connection: close.
    server.maxRequestsPerSocket = app.options.variants.wire.maxRequestsPerConnection ?? 0;
    return server;
  }
  const mutual = tls.clientCa ? { ca: readFileSync(tls.clientCa), requestCert: true, rejectUnauthorized: true } : {};
  const handler = app.handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void;
  return http2.createSecureServer(
    { cert: readFileSync(tls.cert), key: readFileSync(tls.key), allowHTTP1: tls.http1 !== false, ...mutual },
    handler,
  );
}

/** Every socket the server holds: closed with it, so that close() never waits for an idle keep-alive or HTTP/2 session. */
function tracked(server: Server): Set<{ destroy(): void }> {
  const sockets = new Set<{ destroy(): void; once(e: 'close', f: () => void): void }>();
  server.on(
    server instanceof http.Server ? 'connection' : 'secureConnection',
    (s: { destroy(): void; once(e: 'close', f: () => void): void }) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    },
  );
  return sockets;
}

export async function listen(app: App, opts: ListenOptions = {}): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1';
  const server = createServer(app, opts.tls);
  const sockets = tracked(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}${BASE_PATH}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (server instanceof http.Server) server.closeAllConnections();
        for (const s of sockets) s.destroy();
      })),
  };
}
