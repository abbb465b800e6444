/**
 * The routes of issue 31 the ceiling scenario is run through on real parts (network-routes.test.ts on the Node
 * engine and a stand-in k6, real-k6.test.ts on real k6): each a fresh reference server over TLS, a proxy beside it,
 * and the run's network read from the variables a user would set.
 */
import type { LoadEngine } from '../../load/node/engine.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import {
  certificates,
  encryptedClientKey,
  internalUrl,
  KEY_PHRASE,
  serveTls,
  startProxy,
  type NetServer,
  type TestProxy,
} from '../support/network.ts';
import { job, PER_DAY, PER_MINUTE } from './helpers.ts';

/** Every server and proxy started, for the calling file to close. */
export const opened: Array<{ close(): Promise<void> }> = [];

export const KEY = 'as_demo_enterprise_c4f86b1e09d2a753';

export interface Route {
  name: string;
  server: { mutual?: boolean; http1?: boolean };
  env: (t: { ca: string; clientCert: string; clientKey: string }, proxy: TestProxy) => Record<string, string>;
  proxied?: boolean;
  http2?: boolean;
}

export const ROUTES: Route[] = [
  { name: 'HTTPS with a CA given by --ca-file', server: {}, env: (t) => ({ ANIMAL_STORE_CA_FILE: t.ca }) },
  {
    name: 'mutual TLS',
    server: { mutual: true },
    env: (t) => ({ ANIMAL_STORE_CA_FILE: t.ca, ANIMAL_STORE_CLIENT_CERT: t.clientCert, ANIMAL_STORE_CLIENT_KEY: t.clientKey }),
  },
  {
    name: 'mutual TLS with a key encrypted by a passphrase (from the environment)',
    server: { mutual: true },
    env: (t) => ({
      ANIMAL_STORE_CA_FILE: t.ca,
      ANIMAL_STORE_CLIENT_CERT: t.clientCert,
      ANIMAL_STORE_CLIENT_KEY: encryptedClientKey(),
      ANIMAL_STORE_CLIENT_KEY_PASSPHRASE: KEY_PHRASE,
    }),
  },
  { name: 'HTTP/2 only', server: { http1: false }, env: (t) => ({ ANIMAL_STORE_CA_FILE: t.ca, ANIMAL_STORE_HTTP2: 'yes' }), http2: true },
  {
    name: 'a proxy given only by HTTPS_PROXY',
    server: {},
    env: (t, p) => ({ ANIMAL_STORE_CA_FILE: t.ca, HTTPS_PROXY: p.url }),
    proxied: true,
  },
];

async function started<T extends { close(): Promise<void> }>(p: Promise<T>): Promise<T> {
  const s = await p;
  opened.push(s);
  return s;
}

/** The ceiling on one engine, through a route, against a fresh server (its own key and window). */
export async function ceiling(route: Route, engine: (log: (l: string) => void) => LoadEngine) {
  const [server, proxy] = await Promise.all([
    started<NetServer>(serveTls({ ...route.server, app: { enterprise: { perMinute: PER_MINUTE, perDay: PER_DAY } } })),
    started(startProxy({ auth: 'suite:pr0xy-pass' })),
  ]);
  const baseUrl = route.proxied ? internalUrl(server) : server.url;
  const env = {
    ANIMAL_STORE_BASE_URL: baseUrl,
    ANIMAL_STORE_API_KEY: KEY,
    ANIMAL_STORE_PLAN: 'enterprise',
    ANIMAL_STORE_RPM: String(PER_MINUTE),
  };
  const config = readConfig({ ...env, ...route.env(certificates('test'), proxy) }, {}, 'load');
  const logged: string[] = [];
  const j = job('ceiling', { baseUrl, network: config.network, deadlineAt: Date.now() + 60_000, maxWaitMs: 30_000, tuning: {} });
  const { report } = await engine((l) => logged.push(l)).run(j);
  return { report, server, proxy, logged: logged.join('') };
}
