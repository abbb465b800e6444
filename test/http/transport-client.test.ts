/**
 * The transport never hangs, never buffers a huge body and never follows a
 * redirect with the credential; the client waits out the window instead of
 * tripping the limit, and honours Retry-After (seconds or HTTP-date) once.
 */
import { describe, expect, test } from 'vitest';
import { ApiClient, RunAborted, type ApiExchange } from '../../src/http/client.ts';
import { closeTransport, send } from '../../src/http/transport.ts';
import { closeServersAfterEach, serveHost } from '../support/serve.ts';

closeServersAfterEach();
const serve = async (handler: Parameters<typeof serveHost>[0]) => `http://${await serveHost(handler)}`;

const opts = { timeoutMs: 800, maxBodyBytes: 4096 };

describe('transport', () => {
  test('A server that never answers gives a timeout, not a hang.', async () => {
    const url = await serve(() => {});
    const ex = await send({ method: 'GET', url }, opts);
    expect(ex.error?.kind).toBe('timeout'); // within LATE_CAP_FACTOR timeouts at most (own-lateness.test.ts)
  });

  test('A body larger than the cap is cut at the cap and reported as too large.', async () => {
    const url = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(1_000_000));
    });
    const ex = await send({ method: 'GET', url }, opts);
    expect(ex.error?.kind).toBe('too-large');
    expect(ex.response?.bodyBytes).toBe(4096);
  });

  test('A connection reset mid-body is a transport failure.', async () => {
    const url = await serve((_q, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"a":', () => res.socket?.destroy());
    });
    const ex = await send({ method: 'GET', url }, opts);
    expect(ex.error?.kind === 'reset' || ex.error?.kind === 'other').toBe(true);
  });

  test('A redirect to another origin is not followed, so the credential never reaches it.', async () => {
    const seen: string[] = [];
    const other = await serve((req, res) => {
      seen.push(String(req.headers.authorization));
      res.end('{}');
    });
    const url = await serve((_q, res) => {
      res.writeHead(307, { location: `${other}/v1/pets` });
      res.end();
    });
    const ex = await send({ method: 'GET', url, headers: { authorization: 'Bearer secret' } }, opts);
    expect(ex.response?.status).toBe(307);
    expect(seen).toEqual([]);
  });

  test('Requests given one connection name go one after another on one kept-alive connection; unnamed ones open more.', async () => {
    const ports = { named: new Set<number>(), unnamed: new Set<number>() };
    let inFlight = 0;
    let most = 0;
    const url = await serve((req, res) => {
      ports[req.url === '/named' ? 'named' : 'unnamed'].add(req.socket.remotePort ?? 0);
      most = Math.max(most, ++inFlight);
      // Held a moment, so that requests sent together are in flight together unless something queues them.
      setTimeout(() => {
        inFlight--;
        res.end('{}');
      }, 20);
    });
    try {
      const named = await Promise.all([1, 2, 3, 4].map(() => send({ method: 'GET', url: `${url}/named`, connection: 'one' }, opts)));
      expect(named.map((e) => e.response?.status)).toEqual([200, 200, 200, 200]);
      expect([ports.named.size, most]).toEqual([1, 1]);
      await Promise.all([1, 2, 3, 4].map(() => send({ method: 'GET', url: `${url}/unnamed` }, opts)));
      expect(ports.unnamed.size).toBeGreaterThan(1);
    } finally {
      await closeTransport();
    }
  });
});

function client(baseUrl: string, sleeps: number[], extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const seen: ApiExchange[] = [];
  const c = new ApiClient({
    baseUrl,
    apiKey: 'k',
    timeoutMs: 2000,
    maxBodyBytes: 65536,
    maxRequests: 100,
    deadlineAt: Date.now() + 60_000,
    maxWaitMs: 70_000,
    onExchange: (e) => seen.push(e),
    sleep: async (ms) => void sleeps.push(ms),
    ...extra,
  });
  return { c, seen };
}

describe('client pacing', () => {
  test('With Remaining 0 the client waits for the Reset instead of sending into a 429.', async () => {
    let n = 0;
    const url = await serve((_q, res) => {
      n++;
      const now = Math.floor(Date.now() / 1000);
      res.writeHead(200, {
        'content-type': 'application/json',
        date: new Date(now * 1000).toUTCString(),
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': String(Math.max(0, 2 - n)),
        'x-ratelimit-reset': String(now + 20),
      });
      res.end('[]');
    });
    const sleeps: number[] = [];
    const { c } = client(url, sleeps);
    await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    expect(sleeps).toEqual([]);
    await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(19_000);
    expect(sleeps[0]).toBeLessThan(23_000);
  });

  test.each([
    ['delay-seconds', () => '7'],
    ['an HTTP-date', () => new Date(Math.floor(Date.now() / 1000) * 1000 + 7000).toUTCString()],
  ])('A 429 with Retry-After as %s is waited out and retried once; both responses are checked.', async (_how, value) => {
    let n = 0;
    const url = await serve((_q, res) => {
      n++;
      const headers = { 'content-type': 'application/json', date: new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString() };
      if (n === 1) res.writeHead(429, { ...headers, 'retry-after': value() });
      else res.writeHead(200, headers);
      res.end(n === 1 ? '{"code":"rate_limited","message":"slow down","status":429}' : '[]');
    });
    const sleeps: number[] = [];
    const { c, seen } = client(url, sleeps);
    const ex = await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    expect(ex.response?.status).toBe(200);
    expect(seen.map((e) => e.response?.status)).toEqual([429, 200]);
    expect(sleeps[0]).toBeGreaterThanOrEqual(7000);
    expect(sleeps[0]).toBeLessThan(9000);
  });

  test('The request budget stops the run with a clear reason.', async () => {
    const url = await serve((_q, res) => res.end('[]'));
    const { c } = client(url, [], { maxRequests: 2 });
    await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    await c.request({ operation: 'listPets', method: 'GET', path: '/pets' });
    await expect(c.request({ operation: 'listPets', method: 'GET', path: '/pets' })).rejects.toThrow(RunAborted);
  });

  test('A wait beyond the run deadline aborts instead of sleeping past it.', async () => {
    const url = await serve((_q, res) => {
      res.writeHead(429, { 'retry-after': '3000' });
      res.end();
    });
    const { c } = client(url, [], { deadlineAt: Date.now() + 5000, maxWaitMs: 3_600_000 });
    await expect(c.request({ operation: 'listPets', method: 'GET', path: '/pets' })).rejects.toThrow(/deadline/);
  });

  test('A Retry-After longer than --max-wait-ms stops the run: the client never retries before the Retry-After.', async () => {
    let hits = 0;
    const url = await serve((_q, res) => {
      hits++;
      res.writeHead(429, { 'retry-after': '3600' });
      res.end();
    });
    const { c } = client(url, [], { maxWaitMs: 70_000 });
    await expect(c.request({ operation: 'listPets', method: 'GET', path: '/pets' })).rejects.toThrow(
      /more than the run waits|more than the 70 s this run waits/,
    );
    expect(hits).toBe(1);
  });
});
