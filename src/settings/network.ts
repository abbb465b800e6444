/**
 * The network between the suite and its target, one configuration for every phase and both engines: the proxy
 * (HTTPS_PROXY, HTTP_PROXY, NO_PROXY — upper or lower case, as curl and Go read them — or --proxy), a CA bundle
 * trusted besides the system's roots, a client certificate for mutual TLS (its key's passphrase from the environment
 * only), HTTP/2 negotiated by ALPN, and --insecure for a throwaway staging box. Which route a URL takes is decided
 * here once, by Go's rules (./proxy-route.ts: k6 is Go), and the Node side takes that route. Pure (bundled for k6,
 * which reads the same variables from __ENV).
 */
import { originOf, useProxy } from './proxy-route.ts';
import type { NetworkInfo } from '../core/target-info.ts';

export interface ProxySettings {
  /** The proxy of https URLs, of http URLs, and the hosts reached directly (NO_PROXY), as given. */
  https?: string;
  http?: string;
  noProxy?: string;
  /** Where each proxy came from, for messages: `--proxy`, `HTTPS_PROXY`, `https_proxy`… */
  httpsFrom?: string;
  httpFrom?: string;
}

export interface NetworkConfig {
  proxy: ProxySettings;
  /** PEM file of CA certificates trusted besides the system's roots. */
  caFile?: string;
  /** PEM files of the client certificate (mutual TLS) and its key; the key's passphrase (environment only). */
  clientCert?: string;
  clientKey?: string;
  clientKeyPassphrase?: string;
  /** Offer HTTP/2 by ALPN (HTTP/1.1 where the server does not take it). */
  http2: boolean;
  /** Do not verify the server's certificate (never in production). */
  insecure: boolean;
  /** Let an http:// target go through a proxy, which then reads the key in clear. */
  allowCleartextProxy: boolean;
}

/** The variable of the client key's passphrase: from the environment only, never a flag (like the API key). */
export const PASSPHRASE_VAR = 'ANIMAL_STORE_CLIENT_KEY_PASSPHRASE';
/** Flags refused, as the key's are: a passphrase on a command line shows in process lists and shell history. */
export const PASSPHRASE_FLAGS: readonly string[] = ['client-key-passphrase', 'passphrase', 'client-key-password'];

export const DIRECT: NetworkConfig = { proxy: {}, http2: false, insecure: false, allowCleartextProxy: false };

export type Route = { via: 'direct' } | { via: 'proxy'; proxy: string; from: string };

/** A proxy URL as Go reads it: without a scheme, http:// is assumed (`proxy.corp:3128`); the path is dropped. */
export function proxyUrl(raw: string): { url: string; scheme: string } | undefined {
  const v = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `http://${v}`;
  const m = /^([a-z][a-z0-9+.-]*):\/\/((?:[^@/?#]*@)?(?:\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::\d{1,5})?)\/?$/i.exec(withScheme);
  return m ? { url: `${m[1].toLowerCase()}://${m[2]}`, scheme: m[1].toLowerCase() } : undefined;
}

/** The route of a request to `url`: the scheme's proxy unless NO_PROXY or a loopback host sends it directly. */
export function routeFor(url: string, proxy: ProxySettings): Route {
  const o = originOf(url);
  if (!o) return { via: 'direct' };
  const p = o.scheme === 'https' ? proxy.https : proxy.http;
  if (!p || !useProxy(proxy.noProxy, o.host, o.port)) return { via: 'direct' };
  const from = (o.scheme === 'https' ? proxy.httpsFrom : proxy.httpFrom) || (o.scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  return { via: 'proxy', proxy: (proxyUrl(p) || { url: p }).url, from };
}

/** A proxy URL as shown anywhere (console, reports, the dry run): its credentials replaced. */
export function shownProxy(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1[REDACTED]@');
}

/** The credentials of a proxy URL, as a redactor must find them: the password, user:password and their decoded forms. */
export function proxySecrets(url: string | undefined): string[] {
  const m = url ? /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(url.trim()) : undefined;
  if (!m) return [];
  const userinfo = m[1];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const colon = userinfo.indexOf(':');
  const password = colon >= 0 ? userinfo.slice(colon + 1) : '';
  const out = [userinfo, decode(userinfo), password, decode(password)];
  // user:password decoded: what a Proxy-Authorization header carries in base64 (the redactor finds that form too)
  if (colon >= 0) out.push(`${decode(userinfo.slice(0, colon))}:${decode(password)}`);
  return out.filter((s, i) => s && out.indexOf(s) === i);
}

/** Every secret of a network configuration: the proxies' credentials and the client key's passphrase. */
export function networkSecrets(n: NetworkConfig | undefined): string[] {
  if (!n) return [];
  return [...proxySecrets(n.proxy.https), ...proxySecrets(n.proxy.http), ...(n.clientKeyPassphrase ? [n.clientKeyPassphrase] : [])];
}

/** Every proxy credential and passphrase an environment holds, for messages before a configuration exists. */
export function envNetworkSecrets(env: Record<string, string | undefined>): string[] {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
  const pass = env[PASSPHRASE_VAR];
  const out: string[] = [];
  for (const n of names) out.push(...proxySecrets(env[n]));
  return pass ? out.concat(pass) : out;
}

/** The file part of a path, as a report names a certificate or key file (never its folder: a home directory). */
export const fileName = (path: string): string => path.replace(/^.*[\\/]/, '');

/** What a report records of a run's network for a target: never a credential, never a folder. */
export function networkInfoOf(baseUrl: string, given: NetworkConfig | undefined, o: { runCa?: boolean } = {}): NetworkInfo {
  const n = given ?? DIRECT;
  const route = routeFor(baseUrl, n.proxy);
  return {
    via: route.via,
    ...(route.via === 'proxy' ? { proxy: shownProxy(route.proxy), proxySource: route.from } : {}),
    http2: n.http2,
    ...(o.runCa ? { ca: 'run' } : n.caFile ? { ca: fileName(n.caFile) } : {}),
    ...(n.clientCert ? { clientCertificate: fileName(n.clientCert) } : {}),
    insecure: n.insecure,
  };
}
