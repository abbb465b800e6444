/**
 * A k6 process reaches the target exactly as the Node side does, through k6's own means: the proxy in the
 * environment Go's http.ProxyFromEnvironment reads (HTTPS_PROXY, HTTP_PROXY, NO_PROXY — set from the run's settings,
 * the lower-case spellings removed so that nothing else is read), the CA in a file of the system's roots plus the
 * user's CA that Go reads from SSL_CERT_FILE (on Linux), HTTP/1.1 only unless --http2 (GODEBUG=http2client=0, which
 * k6 honours), and the client certificate and --insecure as the bundle's options (tlsAuth and insecureSkipTLSVerify:
 * load/k6/network.ts, from the ANIMAL_STORE_* variables here). Node side only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { PASSPHRASE_VAR, type NetworkConfig } from '../../src/settings/network.ts';

/** Where Go looks for the system's roots on Linux (crypto/x509/root_linux.go), in its order. */
export const GO_CERT_FILES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** The ANIMAL_STORE_* variables of the network the bundle reads (its options: tlsAuth, insecureSkipTLSVerify). */
export function networkVars(n: NetworkConfig | undefined): Record<string, string> {
  if (!n) return {};
  return {
    ...(n.clientCert && n.clientKey ? { ANIMAL_STORE_CLIENT_CERT: n.clientCert, ANIMAL_STORE_CLIENT_KEY: n.clientKey } : {}),
    ...(n.clientKeyPassphrase !== undefined ? { [PASSPHRASE_VAR]: n.clientKeyPassphrase } : {}),
    ANIMAL_STORE_HTTP2: n.http2 ? 'yes' : 'no',
    ANIMAL_STORE_INSECURE: n.insecure ? 'yes' : 'no',
    ANIMAL_STORE_ALLOW_CLEARTEXT_PROXY: n.allowCleartextProxy ? 'yes' : 'no',
  };
}

/** The system's roots as Go on Linux reads them (the first file of its list that exists), else Node's own. */
function systemRoots(): string {
  const file = GO_CERT_FILES.find((f) => existsSync(f));
  return file ? readFileSync(file, 'utf8') : rootCertificates.join('\n');
}

/** GODEBUG with HTTP/2 on or off for Go's client (k6 reads http2client=0 as HTTP/1.1 only). */
function godebug(current: string | undefined, http2: boolean): string | undefined {
  const kept = (current || '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !/^http2client=/.test(s));
  if (!http2) kept.push('http2client=0');
  return kept.length ? kept.join(',') : undefined;
}

/**
 * Set a k6 process's environment for the run's network (in place): the proxy variables, GODEBUG and, with a CA file,
 * SSL_CERT_FILE — a file in `dir` (the run's temporary folder) holding the system's roots and the user's CA.
 */
export function applyK6Network(env: NodeJS.ProcessEnv, n: NetworkConfig | undefined, dir: string): void {
  for (const v of PROXY_VARS) delete env[v];
  if (n?.proxy.https) env.HTTPS_PROXY = n.proxy.https;
  if (n?.proxy.http) env.HTTP_PROXY = n.proxy.http;
  if (n?.proxy.noProxy) env.NO_PROXY = n.proxy.noProxy;
  const g = godebug(env.GODEBUG, !!n?.http2);
  if (g) env.GODEBUG = g;
  else delete env.GODEBUG;
  if (n?.caFile) {
    const bundle = join(dir, 'ca-bundle.pem');
    writeFileSync(bundle, `${systemRoots().trimEnd()}\n${readFileSync(n.caFile, 'utf8').trim()}\n`, { mode: 0o600 });
    env.SSL_CERT_FILE = bundle;
  }
}

/** Why k6 cannot reach the target as the Node side does (undefined when it can): the engine is then the Node one, or refused. */
export function k6NetworkLimit(n: NetworkConfig | undefined, platform: string = process.platform): string | undefined {
  if (n?.caFile && !['linux', 'freebsd', 'openbsd', 'netbsd', 'dragonfly', 'solaris', 'aix'].includes(platform))
    return `k6 is told a CA (--ca-file) through SSL_CERT_FILE, which Go does not read on ${platform}`;
  if (n?.clientKey && n.clientKeyPassphrase !== undefined) {
    let pem: string;
    try {
      pem = readFileSync(n.clientKey, 'utf8');
    } catch {
      return undefined; // reported by the configuration check
    }
    if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(pem))
      return `k6 decrypts a client key only in the legacy PEM form (Proc-Type: 4,ENCRYPTED), not PKCS#8 (${n.clientKey}): convert it with openssl pkey -in KEY -traditional -aes256 -out KEY-legacy.pem`;
  }
  return undefined;
}
