/**
 * The commands over real networks (issue 31), as a user runs them:
 * - `npm start` through a proxy given only by HTTPS_PROXY (with credentials) to a target whose name only the proxy
 *   resolves, over HTTP/2 with a CA of its own: the run passes, the proxy relayed a tunnel in which neither the key
 *   nor anything readable crossed, and no console line, report, HAR or JUnit file holds the key or the proxy's
 *   password; the certificate records the route (redacted), the protocol ALPN agreed on and the CA;
 * - `npm start -- --mutual-tls --http2` on the embedded server, on the k6 engine (a stand-in k6 that reaches the
 *   server as Go does): the conformance specs and the ceiling pass over HTTP/2 with a CA and a client certificate
 *   made for the run;
 * - `npm run load` refuses an http:// target that would cross a proxy in clear (exit 2, nothing sent), tells an
 *   unreachable proxy apart from the target (exit 3), and its dry run shows the route with the credentials redacted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_KEYS } from '../../reference/keys.ts';
import { emulatedK6 } from '../support/k6-shim/bin.ts';
import { SMALL_EXPLORATION } from '../support/explore-budget.ts';
import { filesContaining, LOADED_TEST_MS, runCases, runCli, tempReports } from '../support/cli.ts';
import { certificates, internalUrl, serveTls, startProxy, type NetServer, type TestProxy } from '../support/network.ts';

const KEY = DEMO_KEYS.business;
const PASS = 'pr0xy-pass';
let server: NetServer;
let proxy: TestProxy;
beforeAll(async () => {
  [server, proxy] = await Promise.all([serveTls(), startProxy({ auth: `suite:${PASS}` })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), proxy?.close()]);
});

const certification = (dir: string) => JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8'));

describe('npm start through a proxy given only by HTTPS_PROXY', () => {
  test(
    'The run passes over HTTP/2 in a CONNECT tunnel, records its route, and neither the key nor the proxy password is anywhere.',
    async () => {
      const reports = tempReports();
      const env = {
        ANIMAL_STORE_API_KEY: KEY,
        ANIMAL_STORE_PLAN: 'business',
        ANIMAL_STORE_REPORTS_DIR: reports,
        ANIMAL_STORE_CA_FILE: certificates('test').ca,
        HTTPS_PROXY: proxy.url,
        ...SMALL_EXPLORATION,
      };
      const r = await runCli('src/cli/main.ts', ['--base-url', internalUrl(server), '--http2', '--only', 'conformance'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(server.byVersion).toEqual({ '2.0': expect.any(Number) });
      expect(proxy.connects.every((c) => c === `animal-store.internal:${server.port}`)).toBe(true);
      for (const secret of [KEY, PASS]) {
        expect(filesContaining(reports, secret), secret).toEqual([]);
        expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
        expect(proxy.relayed().includes(secret)).toBe(false);
      }
      expect(certification(reports).target.network).toEqual({
        via: 'proxy',
        proxy: `http://[REDACTED]@127.0.0.1:${/:(\d+)$/.exec(proxy.url)![1]}`,
        proxySource: 'HTTPS_PROXY',
        http2: true,
        negotiated: 'HTTP/2',
        ca: 'ca.pem',
        insecure: false,
      });
      expect(readFileSync(join(reports, 'index.html'), 'utf8')).toMatch(
        /data-testid="meta-network">through the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+ \(HTTPS_PROXY, a CONNECT tunnel\) · HTTP\/2 offered by ALPN, HTTP\/1\.1 where not taken \(agreed: HTTP\/2\)/,
      );
    },
    LOADED_TEST_MS,
  );
});

describe('npm start -- --mutual-tls --http2 on the embedded server', () => {
  test(
    'On the k6 engine, the specs and the ceiling pass over HTTP/2, with a CA and a client certificate made for the run.',
    async () => {
      const reports = tempReports();
      const env = { ANIMAL_STORE_REPORTS_DIR: reports, K6_BIN: emulatedK6('v2.2.0'), ...SMALL_EXPLORATION };
      // A 10 s window: the stand-in k6 (an emulator in a Node process) reaches Pro's 300 well within one on a busy machine.
      const r = await runCli(
        'src/cli/main.ts',
        ['--mutual-tls', '--http2', '--scenarios', 'ceiling', '--engine', 'k6', '--window-ms', '10000'],
        { env },
      );
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stderr).toMatch(/Rate limits on the k6 engine/);
      const c = certification(reports);
      expect(c.target.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(c.target.network).toEqual({
        via: 'direct',
        http2: true,
        negotiated: 'HTTP/2',
        ca: 'run',
        clientCertificate: 'client.pem',
        insecure: false,
      });
      const failed = (c.requirements as Array<{ id: string; status: string }>).filter((x) => x.status === 'fail' || x.status === 'warn');
      expect(failed).toEqual([]);
      expect((c.requirements as Array<{ id: string; status: string }>).find((x) => x.id === 'RL-CEILING-429')?.status).toBe('pass');
    },
    LOADED_TEST_MS,
  );
});

describe('npm run load and the key’s safety', () => {
  test('An http target behind a proxy is refused before anything is sent; an unreachable proxy is named; the dry run shows the route, redacted.', async () => {
    const base = { ANIMAL_STORE_API_KEY: KEY, ANIMAL_STORE_PLAN: 'business', ANIMAL_STORE_REPORTS_DIR: tempReports() };
    const out = await runCases('load', {
      cleartext: { args: ['--base-url', internalUrl(server, 'http'), '--scenarios', 'ceiling'], env: { ...base, HTTP_PROXY: proxy.url } },
      unreachable: {
        args: ['--base-url', internalUrl(server), '--scenarios', 'ceiling'],
        env: { ...base, ANIMAL_STORE_CA_FILE: certificates('test').ca, HTTPS_PROXY: 'http://suite:gone-pass@127.0.0.1:9' },
      },
      dryRun: {
        args: ['--base-url', internalUrl(server), '--scenarios', 'ceiling', '--dry-run', '--http2'],
        env: {
          ...base,
          https_proxy: proxy.url,
          ANIMAL_STORE_CLIENT_CERT: certificates('test').clientCert,
          ANIMAL_STORE_CLIENT_KEY: certificates('test').clientKey,
        },
      },
    });
    expect(out.cleartext.code).toBe(2);
    expect(out.cleartext.stderr).toMatch(
      /is http:\/\/ and HTTP_PROXY \(http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+\) would carry it: the proxy would read the API key in clear/,
    );
    expect(proxy.forwarded).toEqual([]);
    expect(out.unreachable.code).toBe(3);
    expect(out.unreachable.stderr).toMatch(
      /target unreachable: the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:9 \(HTTPS_PROXY\) cannot be reached \(ECONNREFUSED\)/,
    );
    expect(out.dryRun.code).toBe(0);
    expect(out.dryRun.stdout).toMatch(
      /Network: through the proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+ \(https_proxy, a CONNECT tunnel\) · HTTP\/2 offered by ALPN, HTTP\/1\.1 where not taken · trusting the system's roots · client certificate client\.pem\./,
    );
    for (const o of Object.values(out)) expect(`${o.stdout}${o.stderr}`).not.toMatch(new RegExp(`${PASS}|gone-pass|${KEY}`));
  }, 90_000);
});
