/**
 * The ceiling scenario reaches the server through each route of issue 31 on both engines, on real parts: the Node
 * engine (undici) and the suite's k6 engine running a stand-in k6 (the emulator on real HTTP, reaching the server as
 * k6 does: Go's proxy variables, SSL_CERT_FILE, GODEBUG, the script's tlsAuth — test/support/k6-shim/go-network.ts),
 * so that what the k6 engine hands k6 is what is proven: HTTPS with a CA made for the test, mutual TLS, HTTP/2 (a
 * server that speaks nothing else), and a CONNECT proxy given only by HTTPS_PROXY that alone knows the target's
 * name. Each run gets its 429 at the limit, the server saw the protocol the route says, and the proxy never saw the
 * key in clear. Real k6 takes the same routes in real-k6.test.ts.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { NodeEngine } from '../../load/node/engine.ts';
import { K6Engine } from '../../load/node/k6.ts';
import { closeTransport } from '../../src/http/transport.ts';
import { builtBundles } from '../support/bundles.ts';
import { emulatedK6 } from '../support/k6-shim/bin.ts';
import { PER_MINUTE } from './helpers.ts';
import { ceiling, KEY, opened, ROUTES } from './network-helpers.ts';
import { KEY_PHRASE } from '../support/network.ts';

const bundles = builtBundles('network-routes-dist');
afterAll(async () => {
  await closeTransport();
  await Promise.all(opened.map((s) => s.close()));
});

const ENGINES = {
  node: (log: (l: string) => void) => new NodeEngine({}, log),
  k6: (log: (l: string) => void) => new K6Engine(emulatedK6('v2.2.0'), bundles.dir, log),
};

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('the ceiling on the %s engine', (name) => {
  test.each(ROUTES)(
    'Through $name, the 429 comes at the limit, over the protocol the route says.',
    async (route) => {
      const { report, server, proxy, logged } = await ceiling(route, ENGINES[name]);
      const outcome = (id: string) => report.judgements.find((j) => j.requirement === id)?.outcome;
      expect(outcome('RL-CEILING-429'), `${logged}\n${JSON.stringify(report.judgements.slice(0, 3))}`).toBe('pass');
      expect(report.engine).toBe(name);
      const sent = Object.values(server.byVersion).reduce((a, b) => a + b, 0);
      expect(sent).toBeGreaterThanOrEqual(PER_MINUTE + 1);
      expect(Object.keys(server.byVersion)).toEqual([route.http2 ? '2.0' : '1.1']);
      if (route.proxied) {
        expect(new Set(proxy.connects)).toEqual(new Set([`animal-store.internal:${server.port}`]));
        const relayed = proxy.relayed();
        for (const secret of [KEY, Buffer.from(`Bearer ${KEY}`).toString('base64'), 'pr0xy-pass'])
          expect(relayed.includes(secret)).toBe(false);
      } else expect(proxy.connects).toEqual([]);
      for (const secret of ['pr0xy-pass', KEY_PHRASE]) expect(`${JSON.stringify(report)}${logged}`).not.toContain(secret);
    },
    90_000,
  );
});
