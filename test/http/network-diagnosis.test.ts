/**
 * Diagnoses a user can act on, on real parts (servers and a proxy on 127.0.0.1, certificates made with openssl): the
 * preflight request names the issuer of a certificate the run could not verify and the option that fixes it, says
 * when a server demands a client certificate or refused the one given, when a server speaks only HTTP/2, when a
 * certificate is for another name — and tells a proxy that refuses (407, 403, 502 to CONNECT) or cannot be reached
 * apart from the target, never looking the target's name up on this machine. When it gets through, it says which
 * protocol ALPN agreed on.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkNetworkFiles, connectTls } from '../../src/http/network.ts';
import { tempDir } from '../support/temp.ts';
import { preflight } from '../../src/http/preflight.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { certificates, INTERNAL, internalUrl, serveTls, startProxy, type NetServer, type TestProxy } from '../support/network.ts';
import { closeLast, closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();
const mine = () => certificates('test');
const other = () => certificates('other');

let both: NetServer;
let http2Only: NetServer;
let mutual: NetServer;
let plain: NetServer;
const proxies: TestProxy[] = [];
beforeAll(async () => {
  [both, http2Only, mutual] = await Promise.all([serveTls(), serveTls({ http1: false }), serveTls({ mutual: true })]);
  plain = both;
});
afterAll(async () => {
  await closeTransport();
  await Promise.all([both, http2Only, mutual, ...proxies].map((s) => s?.close()));
});

async function proxy(o: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> {
  const p = await startProxy(o);
  proxies.push(p);
  return p;
}

/** The preflight of a run against `url` with these variables. */
function check(url: string, env: Record<string, string> = {}) {
  const config = readConfig({ ANIMAL_STORE_API_KEY: 'k_123456789', ANIMAL_STORE_TIMEOUT_MS: '5000', ...env }, { 'base-url': url }, 'start');
  return preflight({ config });
}

const diagnosis = async (p: ReturnType<typeof check>) => {
  const r = await p;
  if (r.ok) throw new Error(`the preflight passed: ${JSON.stringify(r)}`);
  expect(r.diagnosis).not.toMatch(/\n/);
  return r.diagnosis;
};

describe('certificates the run cannot verify', () => {
  test('A certificate of an unknown CA names that CA and the option that fixes it.', async () => {
    const d = await diagnosis(check(both.url));
    expect(d).toContain('issued by "CN=Animal Store test CA, O=Animal Store"');
    expect(d).toContain('--ca-file FILE (or ANIMAL_STORE_CA_FILE; added to the system roots');
  });

  test('With another CA given, the message says that one does not sign it either.', async () => {
    const d = await diagnosis(check(both.url, { ANIMAL_STORE_CA_FILE: other().ca }));
    expect(d).toMatch(/nor by a CA of ca\.pem \(--ca-file\).*"CN=Animal Store test CA/);
  });

  test('A certificate for other names says so, and names them.', async () => {
    const p = await proxy({ hosts: { 'wrong-name.internal': '127.0.0.1' } });
    const d = await diagnosis(
      check(`https://wrong-name.internal:${both.port}/v1`, { ANIMAL_STORE_CA_FILE: mine().ca, HTTPS_PROXY: p.url }),
    );
    expect(d).toMatch(
      /is for other names \(DNS:localhost, IP Address:127\.0\.0\.1.*DNS:animal-store\.internal\), not wrong-name\.internal/,
    );
  });

  test('With --insecure the certificate is not verified: a throwaway staging box is reached (the report flags it; production refuses it).', async () => {
    expect(await check(both.url, { ANIMAL_STORE_INSECURE: 'yes' })).toMatchObject({ ok: true, protocol: 'HTTP/1.1' });
  });

  test('https spoken to a plain-HTTP server says http and https are mixed up.', async () => {
    const host = await serveHost((_q, r) => r.end('[]'));
    expect(await diagnosis(check(`https://${host}/v1`))).toMatch(/does not speak TLS at that port: http\/https mixed up$/);
  });
});

describe('client certificates', () => {
  test('A server that demands a client certificate says so, and how to give one.', async () => {
    const d = await diagnosis(check(mutual.url, { ANIMAL_STORE_CA_FILE: mine().ca }));
    expect(d).toContain(
      'demands a client certificate (TLS alert: certificate required): give one with --client-cert FILE --client-key FILE',
    );
  });

  test('A client certificate of a CA the server does not trust, refused without an alert (as a Node server does), is named with its issuer.', async () => {
    const env = {
      ANIMAL_STORE_CA_FILE: mine().ca,
      ANIMAL_STORE_CLIENT_CERT: other().clientCert,
      ANIMAL_STORE_CLIENT_KEY: other().clientKey,
    };
    expect(await diagnosis(check(mutual.url, env))).toMatch(
      /closed the connection right after the TLS handshake, .*refused the client certificate client\.pem \(issued by "CN=Animal Store other CA, O=Animal Store"\)/,
    );
  });

  test('The right client certificate gets through.', async () => {
    const env = { ANIMAL_STORE_CA_FILE: mine().ca, ANIMAL_STORE_CLIENT_CERT: mine().clientCert, ANIMAL_STORE_CLIENT_KEY: mine().clientKey };
    expect(await check(mutual.url, env)).toMatchObject({ ok: true, protocol: 'HTTP/1.1' });
  });
});

describe('HTTP/2', () => {
  test('A server that speaks only HTTP/2, reached without --http2, is told to be run with --http2.', async () => {
    expect(await diagnosis(check(http2Only.url, { ANIMAL_STORE_CA_FILE: mine().ca }))).toMatch(/speaks HTTP\/2 only .*run with --http2/);
  });

  test.each([
    { what: 'a server offering both', server: () => both, http2: 'yes', protocol: 'HTTP/2' },
    { what: 'a server offering both', server: () => both, http2: 'no', protocol: 'HTTP/1.1' },
    { what: 'an HTTP/2-only server', server: () => http2Only, http2: 'yes', protocol: 'HTTP/2' },
  ] as const)('Against $what with ANIMAL_STORE_HTTP2=$http2, ALPN agrees on $protocol.', async ({ server, http2, protocol }) => {
    expect(await check(server().url, { ANIMAL_STORE_CA_FILE: mine().ca, ANIMAL_STORE_HTTP2: http2 })).toMatchObject({ ok: true, protocol });
  });
});

describe('a proxy is told apart from the target', () => {
  const env = (p: TestProxy) => ({ ANIMAL_STORE_CA_FILE: mine().ca, HTTPS_PROXY: p.url });

  test('A proxy that demands credentials (407) says so and where they go; wrong ones are called wrong, and never shown.', async () => {
    const p = await proxy({ auth: 'suite:right-secret' });
    const none = await diagnosis(check(internalUrl(plain), env({ ...p, url: p.url.replace('suite:right-secret@', '') })));
    expect(none).toMatch(
      /^the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) asks for credentials \(407 Proxy Authentication Required\): give them in its URL/,
    );
    const wrong = await diagnosis(check(internalUrl(plain), env({ ...p, url: p.url.replace('right-secret', 'wrong-secret') })));
    expect(wrong).toMatch(/^the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+ \(HTTPS_PROXY\) refused the credentials in its URL \(407/);
    expect(wrong).not.toContain('wrong-secret');
    expect(await check(internalUrl(plain), env(p))).toMatchObject({ ok: true });
  });

  test('A proxy that refuses the tunnel (403) says it does not allow the host.', async () => {
    const p = await proxy({ refuse: 403 });
    expect(await diagnosis(check(internalUrl(plain), env(p)))).toMatch(
      /refused to open a tunnel to animal-store\.internal:\d+ \(403 Forbidden\)/,
    );
  });

  test('A proxy that cannot reach the target (502, a name it cannot resolve) says the proxy looks the name up — this machine never does.', async () => {
    const p = await proxy();
    const d = await diagnosis(check(`https://nowhere.internal:${plain.port}/v1`, env(p)));
    expect(d).toMatch(/^the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) could not reach nowhere\.internal:\d+ \(502\)/);
    expect(p.connects).toEqual([`nowhere.internal:${plain.port}`]);
  });

  test('A proxy that cannot be reached is named, not the target.', async () => {
    const host = await serveHost((_q, r) => r.end());
    await closeLast();
    const d = await diagnosis(check(internalUrl(plain), { HTTPS_PROXY: `http://${host}` }));
    expect(d).toMatch(
      /^the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) cannot be reached \(ECONNREFUSED\): check HTTPS_PROXY, or add animal-store\.internal to NO_PROXY/,
    );
  });

  test(`Through the proxy, a certificate of an unknown CA is diagnosed as directly: the name ${INTERNAL} is resolved by the proxy only.`, async () => {
    const p = await proxy();
    const d = await diagnosis(check(internalUrl(plain), { HTTPS_PROXY: p.url }));
    expect(d).toContain('issued by "CN=Animal Store test CA, O=Animal Store"');
  });
});

describe('the TLS settings of a connection', () => {
  test('The CA, the client certificate and its key are one context made once and given to every connection (the roots are not parsed per connection).', async () => {
    const n = readConfig(
      { ANIMAL_STORE_CA_FILE: mine().ca, ANIMAL_STORE_CLIENT_CERT: mine().clientCert, ANIMAL_STORE_CLIENT_KEY: mine().clientKey },
      {},
      'start',
    ).network;
    const a = connectTls(n);
    expect(Object.keys(a).sort()).toEqual(['rejectUnauthorized', 'secureContext']);
    expect(connectTls({ ...n }).secureContext).toBe(a.secureContext);
    expect(connectTls(undefined)).toEqual({ rejectUnauthorized: true });
  });
});

describe('the network’s files, checked before anything is sent (exit 2)', () => {
  const files = (env: Record<string, string>) => () => checkNetworkFiles(readConfig(env, {}, 'start').network);
  const pair = (key: string) => ({ ANIMAL_STORE_CLIENT_CERT: mine().clientCert, ANIMAL_STORE_CLIENT_KEY: key });

  test('A CA file that cannot be read, or holds no certificate, is named.', () => {
    expect(files({ ANIMAL_STORE_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /^cannot read the CA file \/nonexistent\/ca\.pem \(--ca-file\): ENOENT$/,
    );
    expect(files({ ANIMAL_STORE_CA_FILE: mine().clientKey })).toThrow(/holds no PEM certificate/);
  });

  test('A key that is not the certificate’s is refused; an encrypted key needs its passphrase from the environment, the right one.', () => {
    expect(files(pair(other().clientKey))).toThrow(/is not the key of the client certificate/);
    const encrypted = join(tempDir('keys'), 'client-encrypted.key');
    execFileSync('openssl', ['ec', '-in', mine().clientKey, '-aes256', '-passout', 'pass:right-phrase', '-out', encrypted], {
      stdio: 'ignore',
    });
    expect(files(pair(encrypted))).toThrow(/is encrypted: set its passphrase in ANIMAL_STORE_CLIENT_KEY_PASSPHRASE \(never a flag\)/);
    expect(files({ ...pair(encrypted), ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: 'wrong-phrase' })).toThrow(/cannot be read with the passphrase/);
    expect(files({ ...pair(encrypted), ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: 'right-phrase' })).not.toThrow();
  });
});
