/**
 * Diagnosis before detail: what most likely went wrong, in one line, before any
 * requirement — a refused connection, an unknown host, a TLS handshake that
 * fails, a base URL that answers an HTML page (the preflight); every
 * authenticated request answered 401 (the key was refused: exit 5); a 429 on
 * the very first request that asks for a longer wait than the run allows (the
 * key's quota is used up, or it is banned). Loopback servers only; the unknown
 * host is the transport's own error kind, so no DNS lookup is needed.
 */
import { describe, expect, test } from 'vitest';
import { preflight } from '../../src/http/preflight.ts';
import { EXIT, exitCodeOf } from '../../src/cli/entry.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { ApiClient, KEY_REFUSED_AFTER, RunAborted } from '../../src/http/client.ts';
import type { send } from '../../src/http/transport.ts';
import { certifiedReport } from '../support/report-fixtures.ts';
import { closeLast, closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();
const serve = serveHost;

const target = (baseUrl: string) => ({
  config: readConfig({ ANIMAL_STORE_API_KEY: 'k_123456789' }, { 'base-url': baseUrl, 'timeout-ms': '5000' }, 'start'),
});

describe('the preflight request', () => {
  test('A closed port is unreachable: nothing listens at the base URL.', async () => {
    const host = await serve((_q, r) => r.end());
    await closeLast();
    const p = await preflight(target(`http://${host}/v1`));
    expect(p).toMatchObject({ ok: false, diagnosis: expect.stringMatching(/nothing listens at .* \(connection refused\)/) });
  });

  test('https spoken to a plain-HTTP server is a failed TLS handshake, diagnosed as such.', async () => {
    const host = await serve((_q, r) => r.end('[]'));
    const p = await preflight(target(`https://${host}/v1`));
    expect(p).toMatchObject({
      ok: false,
      diagnosis: expect.stringMatching(/^the TLS handshake with https:\/\/.* failed .*http\/https mixed up$/),
    });
    expect(p.ok === false && p.diagnosis).not.toMatch(/\n/);
  });

  test('An unknown host is diagnosed as DNS.', async () => {
    const dnsFails: typeof send = async (req) => ({
      request: req,
      error: { kind: 'dns', message: 'Error: getaddrinfo ENOTFOUND api.example.invalid (ENOTFOUND)' },
      startedAt: 0,
      durationMs: 1,
    });
    const p = await preflight(target('https://api.example.invalid/v1'), dnsFails);
    expect(p).toMatchObject({ ok: false, diagnosis: 'the host of https://api.example.invalid/v1 is not found (DNS): check the base URL' });
  });

  test('A base URL that answers an HTML page gets a one-line hint, and the run still judges what it gets.', async () => {
    const host = await serve((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      r.end('<html>welcome</html>');
    });
    const p = await preflight(target(`http://${host}/v1`));
    expect(p).toMatchObject({
      ok: true,
      hint: expect.stringMatching(/answered 200 with an HTML page, not the API's JSON: check the base URL/),
    });
  });
});

describe('the key', () => {
  function client(host: string) {
    return new ApiClient({
      baseUrl: `http://${host}/v1`,
      apiKey: 'k_123456789',
      timeoutMs: 2000,
      maxBodyBytes: 65536,
      maxRequests: 100,
      deadlineAt: Date.now() + 60_000,
      maxWaitMs: 70_000,
      onExchange: () => undefined,
      sleep: async () => undefined,
    });
  }
  const list = { operation: 'listPets', method: 'GET', path: '/pets' } as const;

  test(`Every authenticated request answered 401: after ${KEY_REFUSED_AFTER} the run stops — the API key was refused, exit 5.`, async () => {
    let hits = 0;
    const host = await serve((_q, r) => {
      hits++;
      r.writeHead(401, { 'content-type': 'application/json' });
      r.end('{"code":"unauthorized","message":"bad key","status":401}');
    });
    const c = client(host);
    let err: unknown;
    for (let i = 0; i < 10 && !err; i++) await c.request(list).catch((e: unknown) => (err = e));
    expect(err).toBeInstanceOf(RunAborted);
    expect(err).toMatchObject({ reason: 'key-refused', diagnosis: expect.stringMatching(/^the API key was refused/) });
    expect(hits).toBe(KEY_REFUSED_AFTER);
    expect(exitCodeOf(certifiedReport(), { requireComplete: false, abortReason: 'key-refused' })).toBe(EXIT.keyRefused);
  });

  test('A 429 on the very first request asking for a longer wait than the run allows: the quota is used up or the key banned.', async () => {
    const host = await serve((_q, r) => {
      r.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
      r.end('{"code":"rate_limited","message":"banned","status":429}');
    });
    await expect(client(host).request(list)).rejects.toMatchObject({
      reason: 'max-wait',
      diagnosis: expect.stringMatching(
        /^the key was throttled before the run sent anything else \(429 on the first request, Retry-After 3600 s\)/,
      ),
    });
  });
});
