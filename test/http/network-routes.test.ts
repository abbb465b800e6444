/**
 * The conformance specs and the exploration reach a server through each route of issue 31, on real parts: HTTPS
 * with a certificate of a CA made for the test (trusted with --ca-file, added to the system roots), mutual TLS (a
 * client certificate demanded), HTTP/2 (a server that speaks only HTTP/2, and one that falls back to HTTP/1.1), and
 * a CONNECT proxy given by HTTPS_PROXY alone that resolves the target's name itself. Each run is verdict-clean (no
 * failure, no warning) and the server saw what the route says: every request over HTTP/2 where it was offered, the
 * proxy a tunnel in which the key never shows in clear.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_KEYS } from '../../reference/keys.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { runSuiteAt } from '../support/suite.ts';
import { SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';
import { certificates, internalUrl, serveTls, startProxy, type NetServer, type TestProxy } from '../support/network.ts';

const KEY = DEMO_KEYS.business;
const tls = () => certificates('test');

let both: NetServer;
/** A server of its own for the proxied run: a second whole run against `both` within the same minute finds the Business
 * key's quota spent and waits for the window's reset (pacing, as it should), which outlasts the test's timeout. */
let proxied: NetServer;
let http2Only: NetServer;
let mutual: NetServer;
let proxy: TestProxy;
beforeAll(async () => {
  [both, proxied, http2Only, mutual, proxy] = await Promise.all([
    serveTls(),
    serveTls(),
    serveTls({ http1: false }),
    serveTls({ mutual: true }),
    startProxy({ auth: 'suite:pr0xy-secret' }),
  ]);
});
afterAll(async () => {
  await closeTransport();
  await Promise.all([both, proxied, http2Only, mutual, proxy].map((s) => s?.close()));
});

/** The whole conformance suite and a small exploration against `url` with these settings: its failures and warnings. */
async function conformance(url: string, env: Record<string, string>) {
  const run = await runSuiteAt(url, KEY, { env: { ANIMAL_STORE_CA_FILE: tls().ca, ...env }, exploreBudget: SMALL_EXPLORE_BUDGET });
  return { run, problems: run.problems() };
}

describe('conformance and exploration through each route', () => {
  test('Over HTTPS with a CA made for the test (--ca-file), the suite judges the server as over plain HTTP: no failure, no warning, HTTP/1.1 only.', async () => {
    const before = { ...both.byVersion };
    const { run, problems } = await conformance(both.url, {});
    expect(problems).toEqual([]);
    expect(run.requests).toBeGreaterThan(100);
    expect((both.byVersion['1.1'] ?? 0) - (before['1.1'] ?? 0)).toBe(run.requests);
    expect(both.byVersion['2.0'] ?? 0).toBe(before['2.0'] ?? 0);
  });

  test('Against a server that demands a client certificate, the certificate given with --client-cert and --client-key is presented on every request.', async () => {
    const { run, problems } = await conformance(mutual.url, {
      ANIMAL_STORE_CLIENT_CERT: tls().clientCert,
      ANIMAL_STORE_CLIENT_KEY: tls().clientKey,
    });
    expect(problems).toEqual([]);
    expect(mutual.byVersion['1.1']).toBe(run.requests);
  });

  test('With --http2, a server that speaks only HTTP/2 is reached over HTTP/2 on every request, and judged without a finding of its own.', async () => {
    const { run, problems } = await conformance(http2Only.url, { ANIMAL_STORE_HTTP2: 'yes' });
    expect(problems).toEqual([]);
    expect(http2Only.byVersion).toEqual({ '2.0': run.requests });
  });

  test('Through a proxy given only by HTTPS_PROXY (with credentials), a target whose name only the proxy knows is reached in a CONNECT tunnel: the key and the proxy password never cross it in clear.', async () => {
    const before = proxy.connects.length;
    const { run, problems } = await conformance(internalUrl(proxied), {
      HTTPS_PROXY: proxy.url,
      ANIMAL_STORE_HTTP2: 'yes',
    });
    expect(problems).toEqual([]);
    expect(proxy.connects.length).toBeGreaterThan(before);
    expect(new Set(proxy.connects.slice(before))).toEqual(new Set([`animal-store.internal:${proxied.port}`]));
    const relayed = proxy.relayed();
    expect(relayed.length).toBeGreaterThan(run.requests * 50);
    for (const secret of [KEY, Buffer.from(KEY).toString('base64'), 'pr0xy-secret', 'Bearer'])
      expect(relayed.includes(secret), secret).toBe(false);
    // No finding carries the proxy's credentials.
    expect(JSON.stringify(run.findings)).not.toContain('pr0xy-secret');
  });
});
