/**
 * The network settings of a run (./network.ts) read from flags over the environment, with the checks that keep the
 * key safe on every route: an http:// target through a proxy is refused unless allowed (the proxy would read the key
 * in clear), --insecure is refused in production, a client certificate needs its key. Pure (bundled for k6).
 */
import { PASSPHRASE_VAR, proxyUrl, routeFor, shownProxy, type NetworkConfig, type ProxySettings } from './network.ts';

/** What of the one reader (./read-config.ts) the network settings read with. */
export interface NetworkReader {
  get(flag: string): string | undefined;
  /** Where the setting's value came from: `--flag` or its variable. */
  from(flag: string): string;
  bool(flag: string): boolean | undefined;
}

interface ReadOptions {
  env: Record<string, string | undefined>;
  /** The target's base URL (none: the embedded server) and environment. */
  base?: string;
  envName: string;
  fail: (message: string) => never;
}

/** The variable a proxy setting's value came from: the upper-case one, else the lower-case one (Go's order). */
function proxyVar(env: ReadOptions['env'], upper: string, fail: ReadOptions['fail']): string | undefined {
  const lower = upper.toLowerCase();
  const set = (n: string) => (env[n] || '').trim();
  if (set(upper) && set(lower) && set(upper) !== set(lower))
    fail(
      `${upper} and ${lower} differ (${shownProxy(set(upper))} and ${shownProxy(set(lower))}): Go, hence k6, reads ${upper} first and curl ${lower}; set one, or both alike`,
    );
  return set(upper) ? upper : set(lower) ? lower : undefined;
}

/** One proxy setting, checked: an http or https proxy URL (a bare host:port is http://, as Go reads it). */
function proxyOf(r: NetworkReader, flag: 'https-proxy' | 'http-proxy', o: ReadOptions): { url?: string; from?: string } {
  const upper = flag === 'https-proxy' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const viaFlag = r.get('proxy');
  // A flag (--proxy, --https-proxy) wins over the variables: their spellings need not agree then.
  const flagGiven = viaFlag !== undefined || r.from(flag).startsWith('--');
  const variable = flagGiven ? undefined : proxyVar(o.env, upper, o.fail);
  const raw = viaFlag ?? r.get(flag);
  if (!raw) return {};
  const from = viaFlag !== undefined ? '--proxy' : r.from(flag).startsWith('--') ? r.from(flag) : (variable ?? upper);
  const p = proxyUrl(raw);
  if (!p) o.fail(`${from} is not a proxy URL (http://[user:password@]host:port): ${JSON.stringify(shownProxy(raw))}`);
  if (p.scheme !== 'http' && p.scheme !== 'https')
    o.fail(`${from} is a ${p.scheme} proxy: only http:// and https:// proxies are supported (${shownProxy(p.url)})`);
  return { url: p.url, from };
}

function proxySettingsOf(r: NetworkReader, o: ReadOptions): ProxySettings {
  const https = proxyOf(r, 'https-proxy', o);
  const http = proxyOf(r, 'http-proxy', o);
  proxyVar(o.env, 'NO_PROXY', o.fail);
  const noProxy = r.get('no-proxy');
  return {
    ...(https.url ? { https: https.url, httpsFrom: https.from } : {}),
    ...(http.url ? { http: http.url, httpFrom: http.from } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

/** The network configuration of a run, checked. */
export function readNetwork(r: NetworkReader, o: ReadOptions): NetworkConfig {
  const proxy = proxySettingsOf(r, o);
  const clientCert = r.get('client-cert');
  const clientKey = r.get('client-key');
  if (!!clientCert !== !!clientKey)
    o.fail(
      clientCert
        ? `${r.from('client-cert')} needs its key: --client-key FILE (or ANIMAL_STORE_CLIENT_KEY)`
        : `${r.from('client-key')} needs its certificate: --client-cert FILE (or ANIMAL_STORE_CLIENT_CERT)`,
    );
  const passphrase = (o.env[PASSPHRASE_VAR] || '').length ? o.env[PASSPHRASE_VAR] : undefined;
  const n: NetworkConfig = {
    proxy,
    ...(r.get('ca-file') ? { caFile: r.get('ca-file') } : {}),
    ...(clientCert && clientKey ? { clientCert, clientKey } : {}),
    ...(passphrase && clientKey ? { clientKeyPassphrase: passphrase } : {}),
    http2: r.bool('http2') === true,
    insecure: r.bool('insecure') === true,
    allowCleartextProxy: r.bool('allow-cleartext-proxy') === true,
  };
  if (n.insecure && o.envName === 'production')
    o.fail(`${r.from('insecure')} is refused in production: trust the server's CA with --ca-file FILE (or ANIMAL_STORE_CA_FILE) instead`);
  const route = o.base ? routeFor(o.base, proxy) : undefined;
  if (o.base && route && route.via === 'proxy' && /^http:/i.test(o.base) && !n.allowCleartextProxy)
    o.fail(
      `${o.base} is http:// and ${route.from} (${shownProxy(route.proxy)}) would carry it: the proxy would read the API key in clear. Use the https:// address, add the host to NO_PROXY, or allow it with --allow-cleartext-proxy (ANIMAL_STORE_ALLOW_CLEARTEXT_PROXY=yes)`,
    );
  return n;
}

/** The embedded (or `npm run reference`) server over TLS: --tls, or --mutual-tls (a client certificate demanded). */
export function servedTls(r: NetworkReader, o: Pick<ReadOptions, 'base' | 'fail'>): 'https' | 'mutual' | undefined {
  const tls = r.bool('mutual-tls') ? 'mutual' : r.bool('tls') ? 'https' : undefined;
  if (tls && o.base)
    o.fail(
      `${r.from(tls === 'mutual' ? 'mutual-tls' : 'tls')} serves the embedded reference server over TLS; a base URL's scheme says how its server is reached (--ca-file, --client-cert for its certificates)`,
    );
  return tls;
}
