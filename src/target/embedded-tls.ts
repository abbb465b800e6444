/**
 * The embedded reference server over TLS (--tls, --mutual-tls): a CA made for the run in a temporary folder of its
 * own, trusted by this run only (its --ca-file), a server certificate it signs, and for mutual TLS the client
 * certificate the run presents. The folder is removed when the target closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificates } from '../../reference/certificates.ts';
import type { ServeTls } from '../../reference/server.ts';
import { ConfigError } from '../settings/read-config.ts';
import type { NetworkConfig } from '../settings/network.ts';

export interface EmbeddedTls {
  /** How the server serves. */
  serve: ServeTls;
  /** The run's network with the run's CA (and client certificate) in it. */
  network: NetworkConfig;
  remove(): void;
}

export function embeddedTls(mode: 'https' | 'mutual', network: NetworkConfig): EmbeddedTls {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-tls-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const set = makeCertificates(dir);
    const mutual = mode === 'mutual';
    return {
      serve: { cert: set.serverCert, key: set.serverKey, ...(mutual ? { clientCa: set.ca } : {}) },
      network: { ...network, caFile: set.ca, insecure: false, ...(mutual ? { clientCert: set.clientCert, clientKey: set.clientKey } : {}) },
      remove,
    };
  } catch (e) {
    remove();
    throw new ConfigError(`--${mode === 'mutual' ? 'mutual-tls' : 'tls'}: ${(e as Error).message}`);
  }
}
