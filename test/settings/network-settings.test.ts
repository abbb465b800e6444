/**
 * One network configuration, read once by the one reader (flags over the environment, k6's __ENV alike): the proxy
 * variables as curl and Go spell them, --proxy over both, the checks that keep the key safe (an http:// target
 * through a proxy refused unless allowed, --insecure refused in production, a passphrase never a flag), and the
 * secrets every redactor is given.
 */
import { describe, expect, test } from 'vitest';
import { parseArgs } from '../../src/config/args.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { networkInfoOf } from '../../src/settings/network.ts';
import { envKeys, keysOf } from '../../src/settings/plan-keys.ts';
import { ConfigError, readConfig, type Flags } from '../../src/settings/read-config.ts';

const KEY = { ANIMAL_STORE_API_KEY: 'k_123456789' };
const read = (env: Record<string, string>, flags: Flags = {}, base = 'https://api.example.com/v1') =>
  readConfig({ ...KEY, ...env }, { 'base-url': base, ...flags }, 'start');
const refused = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('the proxy', () => {
  test('HTTPS_PROXY, https_proxy and --proxy each give the proxy of an https target, and the report names which.', () => {
    expect(read({ HTTPS_PROXY: 'http://p:1' }).network.proxy).toEqual({ https: 'http://p:1', httpsFrom: 'HTTPS_PROXY' });
    expect(read({ https_proxy: 'p:1' }).network.proxy).toEqual({ https: 'http://p:1', httpsFrom: 'https_proxy' });
    expect(read({ HTTPS_PROXY: 'http://p:1' }, { proxy: 'http://q:2' }).network.proxy).toMatchObject({
      https: 'http://q:2',
      http: 'http://q:2',
      httpsFrom: '--proxy',
    });
  });

  test('Upper and lower case that disagree are refused (curl and Go would take different ones), the credentials not shown.', () => {
    const m = refused(() => read({ HTTPS_PROXY: 'http://u:secret1@p:1', https_proxy: 'http://q:2' }));
    expect(m).toMatch(/^HTTPS_PROXY and https_proxy differ \(http:\/\/\[REDACTED\]@p:1 and http:\/\/q:2\)/);
    expect(m).not.toContain('secret1');
    expect(read({ HTTPS_PROXY: 'http://p:1', https_proxy: 'http://p:1' }).network.proxy.https).toBe('http://p:1');
  });

  test('A proxy that is no URL, or a socks one, is refused in one line.', () => {
    expect(refused(() => read({ HTTPS_PROXY: 'http://p:1/x?y' }))).toMatch(/^HTTPS_PROXY is not a proxy URL/);
    expect(refused(() => read({ HTTPS_PROXY: 'socks5://p:1' }))).toMatch(/is a socks5 proxy: only http:\/\/ and https:\/\/ proxies/);
  });

  test('An http:// target that would go through a proxy is refused — the proxy would read the key in clear — unless allowed; NO_PROXY and loopback need nothing.', () => {
    const m = refused(() => read({ HTTP_PROXY: 'http://p:1' }, {}, 'http://api.example.com/v1'));
    expect(m).toMatch(
      /is http:\/\/ and HTTP_PROXY \(http:\/\/p:1\) would carry it: the proxy would read the API key in clear.*--allow-cleartext-proxy/,
    );
    expect(
      read({ HTTP_PROXY: 'http://p:1', ANIMAL_STORE_ALLOW_CLEARTEXT_PROXY: 'yes' }, {}, 'http://api.example.com/v1').network
        .allowCleartextProxy,
    ).toBe(true);
    expect(read({ HTTP_PROXY: 'http://p:1', NO_PROXY: 'example.com' }, {}, 'http://api.example.com/v1').network.proxy.http).toBe(
      'http://p:1',
    );
    expect(read({ HTTP_PROXY: 'http://p:1' }, {}, 'http://127.0.0.1:4010/v1').baseUrl).toBe('http://127.0.0.1:4010/v1');
    // the same check where k6 reads its configuration (__ENV): the bundle refuses too
    expect(() =>
      readConfig({ ...KEY, ANIMAL_STORE_BASE_URL: 'http://api.example.com/v1', HTTP_PROXY: 'p:1', ANIMAL_STORE_PLAN: 'pro' }, {}, 'load'),
    ).toThrow(/in clear/);
  });
});

describe('TLS settings', () => {
  test('A client certificate needs its key, and the other way round.', () => {
    expect(refused(() => read({ ANIMAL_STORE_CLIENT_CERT: 'c.pem' }))).toMatch(
      /^ANIMAL_STORE_CLIENT_CERT needs its key: --client-key FILE/,
    );
    expect(refused(() => read({}, { 'client-key': 'k.pem' }))).toMatch(/^--client-key needs its certificate/);
  });

  test('--insecure is refused in production, with the way to trust the CA instead.', () => {
    const m = refused(() =>
      readConfig({ ...KEY, ANIMAL_STORE_PRODUCTION_URL: 'https://api.example.com/v1' }, { env: 'production', insecure: true }, 'start'),
    );
    expect(m).toBe("--insecure is refused in production: trust the server's CA with --ca-file FILE (or ANIMAL_STORE_CA_FILE) instead");
    expect(read({}, { insecure: true }).network.insecure).toBe(true);
  });

  test('The passphrase is read from the environment only: as a flag it is refused like the key.', () => {
    expect(() => parseArgs(['--client-key-passphrase', 'x'], 'start')).toThrow(
      /passphrase is not accepted as a flag.*ANIMAL_STORE_CLIENT_KEY_PASSPHRASE/,
    );
    const c = read({
      ANIMAL_STORE_CLIENT_CERT: 'c.pem',
      ANIMAL_STORE_CLIENT_KEY: 'k.pem',
      ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: 'pass-phrase-1',
    });
    expect(c.network.clientKeyPassphrase).toBe('pass-phrase-1');
  });

  test('--tls and --mutual-tls serve the embedded server; with a base URL they are refused.', () => {
    expect(readConfig({}, { tls: true }, 'start').reference.tls).toBe('https');
    expect(readConfig({}, { 'mutual-tls': true }, 'start').reference.tls).toBe('mutual');
    expect(refused(() => read({}, { tls: true }))).toMatch(/^--tls serves the embedded reference server over TLS/);
  });
});

describe('secrets and what reports record', () => {
  const env = {
    HTTPS_PROXY: 'http://suite:pr%40xy-pass@proxy.corp:3128',
    ANIMAL_STORE_CLIENT_CERT: '/home/me/c.pem',
    ANIMAL_STORE_CLIENT_KEY: '/home/me/k.pem',
    ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: 'pass-phrase-1',
  };

  test('The proxy’s credentials (as written, decoded, and in base64 as Proxy-Authorization carries them) and the passphrase are redacted with the key.', () => {
    const c = read(env);
    const redact = makeRedactor(keysOf(c));
    const basic = Buffer.from('suite:pr@xy-pass').toString('base64');
    const text = `${env.HTTPS_PROXY} pr@xy-pass Basic ${basic} pass-phrase-1 ${KEY.ANIMAL_STORE_API_KEY}`;
    expect(redact(text)).not.toMatch(/pr%40xy-pass|pr@xy-pass|pass-phrase-1|k_123456789/);
    expect(redact(text)).not.toContain(basic);
    expect(makeRedactor(envKeys({ ...KEY, ...env }))(text)).not.toMatch(/pr@xy-pass|pass-phrase-1/);
  });

  test('The certificate records the route with the proxy redacted, and file names only (never a folder).', () => {
    expect(networkInfoOf('https://api.example.com/v1', read({ ...env, ANIMAL_STORE_HTTP2: 'yes' }).network)).toEqual({
      via: 'proxy',
      proxy: 'http://[REDACTED]@proxy.corp:3128',
      proxySource: 'HTTPS_PROXY',
      http2: true,
      clientCertificate: 'c.pem',
      insecure: false,
    });
  });
});
