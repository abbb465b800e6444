/**
 * How the emulated k6 (real time, real HTTP: run.ts) reaches a server, as k6 does — written apart from the suite's
 * own routing (src/settings/proxy-route.ts, src/http/network.ts), so that the two can disagree: Go's proxy variables
 * (upper case first; the scheme's own, no fallback; never localhost or a loopback address; NO_PROXY by host and
 * domain suffix), SSL_CERT_FILE as the whole set of roots, HTTP/2 by ALPN unless GODEBUG=http2client=0, and the
 * script's tlsAuth and insecureSkipTLSVerify. undici's Agent and ProxyAgent do the work.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';

/** The script's TLS options, as k6 reads them. */
export interface K6Tls {
  tlsAuth?: Array<{ cert: string; key: string; password?: string }>;
  insecureSkipTLSVerify?: boolean;
}

/** The Go variables of the k6 process that decide its network. */
export const GO_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'SSL_CERT_FILE', 'GODEBUG'];

const first = (env: Record<string, string | undefined>, ...names: string[]) => names.map((n) => env[n]).find((v) => !!v);

function proxyFor(url: URL, env: Record<string, string | undefined>): string | undefined {
  const https = url.protocol === 'https:';
  const proxy = https ? first(env, 'HTTPS_PROXY', 'https_proxy') : first(env, 'HTTP_PROXY', 'http_proxy');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!proxy || host === 'localhost' || /^127\./.test(host) || host === '::1') return undefined;
  for (const e of (first(env, 'NO_PROXY', 'no_proxy') ?? '').split(',').map((x) => x.trim().toLowerCase()))
    if (e === '*' || (e && (host === e.replace(/^\./, '') || host.endsWith(e.startsWith('.') ? e : `.${e}`)))) return undefined;
  return /^[a-z]+:\/\//.test(proxy) ? proxy : `http://${proxy}`;
}

const cache = new Map<string, Dispatcher>();

/** The dispatcher k6 would reach `url` with, given its environment and the script's TLS options. */
export function goDispatcher(url: string, env: Record<string, string | undefined>, tls: K6Tls = {}): Dispatcher {
  const u = new URL(url);
  const proxy = proxyFor(u, env);
  const key = JSON.stringify([u.origin, proxy, tls, env.SSL_CERT_FILE, env.GODEBUG]);
  let d = cache.get(key);
  if (d) return d;
  const auth = tls.tlsAuth?.[0];
  const allowH2 = !/(^|,)\s*http2client=0\s*(,|$)/.test(env.GODEBUG ?? '');
  const context = {
    ...(env.SSL_CERT_FILE ? { ca: readFileSync(env.SSL_CERT_FILE, 'utf8') } : {}),
    ...(auth ? { cert: auth.cert, key: auth.key, ...(auth.password ? { passphrase: auth.password } : {}) } : {}),
  };
  // one context for every connection, as Go keeps one tls.Config (parsing the roots for each would be slow)
  const secure = Object.keys(context).length ? { secureContext: createSecureContext(context) } : {};
  const connect = { ...secure, rejectUnauthorized: !tls.insecureSkipTLSVerify, allowH2 };
  d = proxy
    ? new ProxyAgent({ uri: proxy, allowH2, requestTls: connect, proxyTunnel: u.protocol === 'https:' })
    : new Agent({ allowH2, connect });
  cache.set(key, d);
  return d;
}

/** Close every dispatcher (the end of an emulated k6 process). */
export async function closeGoDispatchers(): Promise<void> {
  const all = [...cache.values()];
  cache.clear();
  await Promise.allSettled(all.map((d) => d.close()));
}
