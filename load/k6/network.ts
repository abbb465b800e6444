/**
 * The bundle's side of the run's network (src/settings/network.ts), as k6's own options: the client certificate
 * (`tlsAuth`, its files read with k6's open() in the init context, the passphrase of a legacy-encrypted key as its
 * `password`) and --insecure (`insecureSkipTLSVerify`). The proxy, the CA and HTTP/2 or not reach k6 through Go's
 * own environment (HTTPS_PROXY, SSL_CERT_FILE, GODEBUG), which the suite's k6 engine sets (load/node/k6-network.ts).
 * Bundled for k6: no Node built-ins.
 */
import type { NetworkConfig } from '../../src/settings/network.ts';

export interface K6NetworkOptions {
  tlsAuth?: Array<{ cert: string; key: string; password?: string }>;
  insecureSkipTLSVerify?: boolean;
}

/** k6's options for the network; open() reads the certificate and key, so this runs in the init context only. */
export function k6NetworkOptions(n: NetworkConfig): K6NetworkOptions {
  const out: K6NetworkOptions = {};
  if (n.clientCert && n.clientKey)
    out.tlsAuth = [
      {
        cert: open(n.clientCert),
        key: open(n.clientKey),
        ...(n.clientKeyPassphrase !== undefined ? { password: n.clientKeyPassphrase } : {}),
      },
    ];
  if (n.insecure) out.insecureSkipTLSVerify = true;
  return out;
}
