/**
 * What the k6 engine hands a k6 process for the run's network (load/node/k6-network.ts): Go's own variables set from
 * the run's settings and nothing else of the shell's (the lower-case spellings removed), HTTP/1.1 only unless --http2
 * (GODEBUG=http2client=0, kept beside the user's other GODEBUG settings), SSL_CERT_FILE a file of the system's roots
 * followed by the user's CA — and where k6 cannot take the run's network, why (the Node engine runs instead).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyK6Network, k6NetworkLimit, networkVars } from '../../load/node/k6-network.ts';
import { DIRECT, type NetworkConfig } from '../../src/settings/network.ts';
import { certificates } from '../support/network.ts';
import { tempDir } from '../support/temp.ts';

const net = (o: Partial<NetworkConfig>): NetworkConfig => ({ ...DIRECT, ...o });

describe('the k6 process’s environment', () => {
  test('The proxy variables are the run’s, upper case only: the shell’s own spellings are removed.', () => {
    const env: NodeJS.ProcessEnv = { https_proxy: 'http://other:1', NO_PROXY: 'x', http_proxy: 'http://other:2', PATH: '/bin' };
    applyK6Network(env, net({ proxy: { https: 'http://p:3128', noProxy: '.corp' } }), tempDir('k6net'));
    expect(env).toEqual({ HTTPS_PROXY: 'http://p:3128', NO_PROXY: '.corp', GODEBUG: 'http2client=0', PATH: '/bin' });
  });

  test('HTTP/2 is off unless asked for; the user’s other GODEBUG settings are kept.', () => {
    const off: NodeJS.ProcessEnv = { GODEBUG: 'madvdontneed=1,http2client=1' };
    applyK6Network(off, net({}), tempDir('k6net'));
    expect(off.GODEBUG).toBe('madvdontneed=1,http2client=0');
    const on: NodeJS.ProcessEnv = { GODEBUG: 'http2client=0' };
    applyK6Network(on, net({ http2: true }), tempDir('k6net'));
    expect(on.GODEBUG).toBeUndefined();
  });

  test('With a CA, SSL_CERT_FILE holds the system’s roots, then that CA: added to them, not in place of them.', () => {
    const env: NodeJS.ProcessEnv = {};
    const dir = tempDir('k6net');
    applyK6Network(env, net({ caFile: certificates('test').ca }), dir);
    const bundle = readFileSync(env.SSL_CERT_FILE as string, 'utf8');
    expect(env.SSL_CERT_FILE).toBe(join(dir, 'ca-bundle.pem'));
    expect(bundle.match(/BEGIN CERTIFICATE/g)!.length).toBeGreaterThan(50);
    expect(bundle.trimEnd().endsWith(readFileSync(certificates('test').ca, 'utf8').trim())).toBe(true);
  });

  test('The bundle’s variables: the client certificate, its passphrase, --insecure, --http2 and the cleartext allowance.', () => {
    expect(networkVars(net({ clientCert: '/c.pem', clientKey: '/k.pem', clientKeyPassphrase: 'pw', insecure: true }))).toEqual({
      ANIMAL_STORE_CLIENT_CERT: '/c.pem',
      ANIMAL_STORE_CLIENT_KEY: '/k.pem',
      ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: 'pw',
      ANIMAL_STORE_HTTP2: 'no',
      ANIMAL_STORE_INSECURE: 'yes',
      ANIMAL_STORE_ALLOW_CLEARTEXT_PROXY: 'no',
    });
  });
});

describe('what k6 cannot take', () => {
  test('A CA on a system where Go does not read SSL_CERT_FILE (macOS, Windows); on Linux it can.', () => {
    expect(k6NetworkLimit(net({ caFile: '/ca.pem' }), 'darwin')).toMatch(/SSL_CERT_FILE, which Go does not read on darwin/);
    expect(k6NetworkLimit(net({ caFile: '/ca.pem' }), 'linux')).toBeUndefined();
  });

  test('A client key encrypted as PKCS#8 (k6 decrypts only the legacy PEM form), with the command that converts it.', () => {
    const key = join(tempDir('k6net'), 'key.pem');
    writeFileSync(key, '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n');
    expect(k6NetworkLimit(net({ clientCert: '/c.pem', clientKey: key, clientKeyPassphrase: 'pw' }))).toMatch(
      /legacy PEM form.*openssl pkey/,
    );
    expect(k6NetworkLimit(net({ clientCert: '/c.pem', clientKey: key }))).toBeUndefined();
  });
});
