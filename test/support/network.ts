/**
 * Real network parts for the tests of issue 31, on 127.0.0.1 only:
 * - certificates: two sets (CA, server, client), `test` and `other`, made once with openssl and cached under
 *   node_modules/.cache/animal-store/tls (remade when older than a week; valid for 30 days);
 * - the reference server over HTTPS (HTTP/2 and HTTP/1.1 by ALPN, or HTTP/2 only), demanding a client certificate
 *   when asked, counting the requests it got by HTTP version;
 * - a CONNECT proxy that resolves names itself from its own table (as a corporate proxy resolves internal names the
 *   runner cannot: `animal-store.internal`), counts the tunnels it opened and keeps every byte it relayed from the
 *   client, forwards absolute-form requests (an http:// target), and can demand credentials or refuse.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { buildApp, type App, type AppOptions } from '../../reference/app.ts';
import { certificateSet, makeCertificates, type CertificateSet } from '../../reference/certificates.ts';
import { listen, type Listening } from '../../reference/server.ts';

const CACHE = resolve(import.meta.dirname, '../../node_modules/.cache/animal-store/tls');
const WEEK_MS = 7 * 24 * 3600_000;

/** The name only the test proxy resolves (to 127.0.0.1). */
export const INTERNAL = 'animal-store.internal';

/** A cached set of certificates (`test`: the one the servers use; `other`: a CA nobody trusts). */
export function certificates(label: 'test' | 'other'): CertificateSet {
  const dir = join(CACHE, label);
  const caName = `Animal Store ${label} CA`;
  if (existsSync(join(dir, 'client.key')) && Date.now() - statSync(join(dir, 'ca.pem')).mtimeMs < WEEK_MS)
    return certificateSet(dir, caName);
  // Made aside, then moved in place: test files running side by side never see half a set.
  mkdirSync(CACHE, { recursive: true });
  const fresh = mkdtempSync(join(CACHE, `.${label}-`));
  makeCertificates(fresh, { days: 30, label });
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(fresh, dir);
  } catch {
    rmSync(fresh, { recursive: true, force: true }); // another file moved its set in first
  }
  return certificateSet(dir, caName);
}

/** The passphrase of `encryptedClientKey`. */
export const KEY_PHRASE = 'test-phrase-31';

/**
 * The `test` client key encrypted with KEY_PHRASE in the legacy PEM form (Proc-Type: 4,ENCRYPTED), the one k6's
 * tlsAuth `password` decrypts; made once beside the set.
 */
export function encryptedClientKey(): string {
  const set = certificates('test');
  const file = join(set.dir, 'client-legacy-encrypted.key');
  if (!existsSync(file)) {
    const fresh = `${file}.${process.pid}`;
    execFileSync('openssl', ['ec', '-in', set.clientKey, '-aes256', '-passout', `pass:${KEY_PHRASE}`, '-out', fresh], { stdio: 'ignore' });
    renameSync(fresh, file);
  }
  return file;
}

export interface NetServer extends Listening {
  app: App;
  /** Requests answered, by HTTP version ('1.1', '2.0'). */
  byVersion: Record<string, number>;
}

/** The reference server over TLS: HTTP/2 and HTTP/1.1 (or HTTP/2 only), a client certificate demanded when `mutual`. */
export async function serveTls(o: { mutual?: boolean; http1?: boolean; app?: AppOptions } = {}): Promise<NetServer> {
  const set = certificates('test');
  const app = buildApp(o.app ?? {});
  const byVersion: Record<string, number> = {};
  const counted: App = {
    ...app,
    handler: (req, res) => {
      byVersion[req.httpVersion] = (byVersion[req.httpVersion] ?? 0) + 1;
      app.handler(req, res);
    },
  };
  const tls = {
    cert: set.serverCert,
    key: set.serverKey,
    ...(o.mutual ? { clientCa: set.ca } : {}),
    ...(o.http1 === false ? { http1: false } : {}),
  };
  const server = await listen(counted, { host: '127.0.0.1', port: 0, tls });
  return { ...server, app, byVersion };
}

export interface TestProxy {
  /** http://[user:pass@]127.0.0.1:port */
  url: string;
  /** The targets of every CONNECT it was asked for (host:port), and every absolute-form request line. */
  connects: string[];
  forwarded: string[];
  /** Every byte it relayed from the client into a tunnel or a forwarded request. */
  relayed(): Buffer;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** The names it resolves (default: animal-store.internal → 127.0.0.1); others it cannot reach (502). */
  hosts?: Record<string, string>;
  /** Demand these credentials (user:pass): 407 without them or with others. */
  auth?: string;
  /** Refuse every tunnel with this status (403…). */
  refuse?: number;
}

function authorized(req: IncomingMessage, auth: string | undefined): boolean {
  return !auth || req.headers['proxy-authorization'] === `Basic ${Buffer.from(auth).toString('base64')}`;
}

/** What the proxy keeps of its traffic. */
interface Seen {
  chunks: Buffer[];
  connects: string[];
  forwarded: string[];
  sockets: Set<Socket>;
}

/** An absolute-form request (an http:// target): forwarded in clear, as a forward proxy does — its bytes kept. */
function forward(o: ProxyOptions, hosts: Record<string, string>, seen: Seen) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    seen.forwarded.push(`${req.method} ${req.url}`);
    if (!authorized(req, o.auth)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const u = new URL(req.url ?? '');
    const ip = hosts[u.hostname];
    if (!ip) return void res.writeHead(502).end();
    const head = Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`);
    seen.chunks.push(Buffer.from(`${req.method} ${req.url}\r\n${head.join('\r\n')}\r\n\r\n`));
    const up = netConnect(Number(u.port || 80), ip, () => {
      up.write(
        `${req.method} ${u.pathname}${u.search} HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: ${req.headers.authorization ?? ''}\r\nconnection: close\r\n\r\n`,
      );
      up.pipe(res.socket as Socket);
    });
    up.on('error', () => res.socket?.destroy());
  };
}

/** A CONNECT request: refused as configured, else a tunnel to the name as the proxy resolves it, every client byte kept. */
function tunnel(o: ProxyOptions, hosts: Record<string, string>, seen: Seen) {
  return (req: IncomingMessage, client: Socket, head: Buffer): void => {
    seen.connects.push(req.url ?? '');
    const refuse = (status: string) =>
      client.end(`HTTP/1.1 ${status}\r\nproxy-authenticate: Basic realm="test"\r\ncontent-length: 0\r\n\r\n`);
    if (!authorized(req, o.auth)) return void refuse('407 Proxy Authentication Required');
    if (o.refuse) return void refuse(`${o.refuse} Refused`);
    const [name, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const ip = hosts[name];
    if (!ip) return void refuse('502 Bad Gateway');
    const up = netConnect(Number(port), ip, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        seen.chunks.push(head);
        up.write(head);
      }
      client.on('data', (d: Buffer) => seen.chunks.push(d));
      client.pipe(up);
      up.pipe(client);
    });
    seen.sockets.add(up);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  };
}

/** A CONNECT proxy (and forward proxy for http:// targets) on 127.0.0.1 that resolves names from its own table. */
export async function startProxy(o: ProxyOptions = {}): Promise<TestProxy> {
  const hosts = o.hosts ?? { [INTERNAL]: '127.0.0.1' };
  const seen: Seen = { chunks: [], connects: [], forwarded: [], sockets: new Set() };
  const server: Server = createServer(forward(o, hosts, seen));
  server.on('connection', (s: Socket) => (seen.sockets.add(s), s.once('close', () => seen.sockets.delete(s))));
  server.on('connect', tunnel(o, hosts, seen));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${o.auth ? `${o.auth}@` : ''}127.0.0.1:${port}`,
    connects: seen.connects,
    forwarded: seen.forwarded,
    relayed: () => Buffer.concat(seen.chunks),
    close: () =>
      new Promise<void>((r) => {
        for (const x of seen.sockets) x.destroy();
        server.close(() => r());
      }),
  };
}

/** The base URL of a server reached by the name only the proxy knows. */
export const internalUrl = (s: { port: number }, scheme = 'https'): string => `${scheme}://${INTERNAL}:${s.port}/v1`;
