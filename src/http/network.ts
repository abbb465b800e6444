/**
 * The Node side of the network settings (src/settings/network.ts): the files read once and checked (a CA bundle, a
 * client certificate and its key), and the undici dispatcher of a target — an Agent for a direct route, a ProxyAgent
 * (undici's own CONNECT tunnel, or an absolute-form request for an http:// target the user allowed through a proxy)
 * for a proxied one, with the route decided by Go's rules, as k6 decides it. The CA is added to the roots Node
 * trusts, never in place of them; HTTP/2 is offered by ALPN when asked for. Node side only.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { ConfigError } from '../settings/read-config.ts';
import { LATE_CAP_FACTOR } from './own-lateness.ts';
import { PASSPHRASE_VAR, routeFor, type NetworkConfig, type Route } from '../settings/network.ts';

/** What the TLS of every connection to the target is given. */
export interface TlsOptions {
  ca?: string[];
  cert?: string;
  key?: string;
  passphrase?: string;
  rejectUnauthorized: boolean;
  /**
   * The CA, certificate and key as one context, made once: given to every connection instead of them, which would
   * otherwise parse the system's roots again for each (a hundred milliseconds a connection on a busy machine).
   */
  secureContext?: SecureContext;
  /** The context of a connection to an https:// proxy: the same roots, no client certificate. */
  proxyContext?: SecureContext;
}

function readPem(path: string, what: string, flag: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${what} ${path} (${flag}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return text;
}

/** The CA certificates of a PEM file, each checked; none is an error. */
function caCertificates(path: string): string[] {
  const blocks = readPem(path, 'the CA file', '--ca-file').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) || [];
  if (!blocks.length) throw new ConfigError(`the CA file ${path} (--ca-file) holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch (e) {
      throw new ConfigError(`the CA file ${path} (--ca-file) holds a certificate that cannot be read: ${(e as Error).message}`);
    }
  }
  return blocks;
}

function clientKeyOf(path: string, pem: string, passphrase: string | undefined): KeyObject {
  // PKCS#8 (BEGIN ENCRYPTED PRIVATE KEY) or the legacy form (Proc-Type: 4,ENCRYPTED)
  if (passphrase === undefined && /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: *4, *ENCRYPTED/.test(pem))
    throw new ConfigError(`the client key ${path} (--client-key) is encrypted: set its passphrase in ${PASSPHRASE_VAR} (never a flag)`);
  try {
    return createPrivateKey(passphrase === undefined ? pem : { key: pem, passphrase });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (/PASSPHRASE|ENCRYPTED/i.test(`${code} ${(e as Error).message}`) && passphrase === undefined)
      throw new ConfigError(`the client key ${path} (--client-key) is encrypted: set its passphrase in ${PASSPHRASE_VAR} (never a flag)`);
    if (passphrase !== undefined)
      throw new ConfigError(
        `the client key ${path} (--client-key) cannot be read with the passphrase in ${PASSPHRASE_VAR}: ${(e as Error).message}`,
      );
    throw new ConfigError(`the client key ${path} (--client-key) is no PEM private key: ${(e as Error).message}`);
  }
}

/** The client certificate and key, checked: readable, a certificate, a key (decrypted with the passphrase) that is its own. */
function clientPair(n: NetworkConfig): Pick<TlsOptions, 'cert' | 'key' | 'passphrase'> {
  if (!n.clientCert || !n.clientKey) return {};
  const cert = readPem(n.clientCert, 'the client certificate', '--client-cert');
  const key = readPem(n.clientKey, 'the client key', '--client-key');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (e) {
    throw new ConfigError(`the client certificate ${n.clientCert} (--client-cert) is no PEM certificate: ${(e as Error).message}`);
  }
  const keyObject = clientKeyOf(n.clientKey, key, n.clientKeyPassphrase);
  if (!x509.checkPrivateKey(keyObject))
    throw new ConfigError(`the client key ${n.clientKey} is not the key of the client certificate ${n.clientCert}`);
  return { cert, key, ...(n.clientKeyPassphrase !== undefined ? { passphrase: n.clientKeyPassphrase } : {}) };
}

const loaded = new Map<string, TlsOptions>();

/**
 * The TLS options of a network configuration, its files read once and checked; a ConfigError (exit 2, one line) for
 * a file that cannot be read, holds no certificate, or a key that is not the certificate's. The CA is added to the
 * roots Node trusts by default.
 */
export function tlsOptionsOf(n: NetworkConfig): TlsOptions {
  const k = JSON.stringify([n.caFile, n.clientCert, n.clientKey, n.clientKeyPassphrase, n.insecure]);
  let o = loaded.get(k);
  if (!o) {
    const files = { ...(n.caFile ? { ca: [...rootCertificates, ...caCertificates(n.caFile)] } : {}), ...clientPair(n) };
    const given = Object.keys(files).length > 0;
    o = {
      ...files,
      rejectUnauthorized: !n.insecure,
      ...(given ? { secureContext: createSecureContext(files) } : {}),
      ...(files.ca ? { proxyContext: createSecureContext({ ca: files.ca }) } : {}),
    };
    loaded.set(k, o);
  }
  return o;
}

/** What a connection is given: the context made once, and whether to verify the server. */
export function connectTls(n: NetworkConfig | undefined): Pick<TlsOptions, 'secureContext' | 'rejectUnauthorized'> {
  if (!n) return { rejectUnauthorized: true };
  const t = tlsOptionsOf(n);
  return { ...(t.secureContext ? { secureContext: t.secureContext } : {}), rejectUnauthorized: t.rejectUnauthorized };
}

/** Read and check the network's files now (a ConfigError for a bad one): an entry point's configuration check, before anything is sent. */
export function checkNetworkFiles(n: NetworkConfig | undefined): void {
  if (n && (n.caFile || n.clientCert)) tlsOptionsOf(n);
}

export interface DispatcherOptions {
  timeoutMs: number;
  network?: NetworkConfig;
}

/**
 * The agent options every route shares: the timeouts, no redirects, HTTP/2 when asked for. undici's header and body
 * timeouts are backstops at the longest a request may take (transport.ts ends it first: after the timeout of the
 * client's attention, own-lateness.ts), so that a client running late does not lose an answer to undici's own timer.
 */
function agentOptions(o: DispatcherOptions) {
  return {
    headersTimeout: o.timeoutMs * LATE_CAP_FACTOR,
    bodyTimeout: o.timeoutMs * LATE_CAP_FACTOR,
    connectTimeout: Math.min(o.timeoutMs, 10_000),
    keepAliveTimeout: 4_000,
    maxRedirections: 0,
    allowH2: !!o.network?.http2,
  };
}

const proxyContextOf = (n: NetworkConfig | undefined): { secureContext?: SecureContext } => {
  const c = n?.caFile ? tlsOptionsOf(n).proxyContext : undefined;
  return c ? { secureContext: c } : {};
};

/** A new dispatcher for requests to `url` on its route: a pool of one connection when `pinned`. */
function newDispatcher(url: string, route: Route, o: DispatcherOptions, pinned: boolean): Dispatcher {
  const base = { ...agentOptions(o), ...(pinned ? { connections: 1 } : {}) };
  const tls = connectTls(o.network);
  const connect = { ...tls, timeout: base.connectTimeout, allowH2: base.allowH2 };
  if (route.via === 'direct') return new Agent({ ...base, connect });
  return new ProxyAgent({
    ...base,
    uri: route.proxy,
    // The target's TLS runs inside the tunnel: the proxy relays bytes it cannot read.
    requestTls: connect,
    // An https:// proxy is verified with the same roots (a corporate proxy's CA given with --ca-file).
    proxyTls: { ...proxyContextOf(o.network), rejectUnauthorized: tls.rejectUnauthorized, timeout: base.connectTimeout },
    // An http:// target (allowed through the proxy explicitly) is sent to the proxy in absolute form, as Go sends it.
    proxyTunnel: /^https:/i.test(url),
  });
}

const dispatchers = new Map<string, Dispatcher>();

/** The origin part of a URL (scheme://host:port), without parsing the rest. */
const originPart = (url: string): string => (/^[a-z]+:\/\/[^/?#]+/i.exec(url) || [url])[0].toLowerCase();

/**
 * The dispatcher of a request to `url` (one per origin, route and settings) and the route it takes; with a `connection`
 * name, that name's own pool of one connection (OutgoingRequest.connection).
 */
export function dispatcherFor(url: string, o: DispatcherOptions, connection?: string): { dispatcher: Dispatcher; route: Route } {
  const route = o.network ? routeFor(url, o.network.proxy) : ({ via: 'direct' } as const);
  const key = JSON.stringify([originPart(url), o.timeoutMs, o.network ?? null, route, connection ?? null]);
  let d = dispatchers.get(key);
  if (!d) {
    d = newDispatcher(url, route, o, connection !== undefined);
    dispatchers.set(key, d);
  }
  return { dispatcher: d, route };
}

/** Close every pooled connection (the end of a run). */
export async function closeDispatchers(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.allSettled(all.map((d) => d.close()));
}
