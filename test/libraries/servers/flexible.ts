/**
 * node:http with rate-limiter-flexible, as its README shows: one
 * RateLimiterMemory per plan (`points` the plan's limit, `duration` the window
 * in seconds), consumed per API key (per address without one), and the
 * headers set by hand from the RateLimiterRes. `readmeHeaders` copies the
 * README's header block literally — `"Retry-After": msBeforeNext / 1000`, a
 * fraction of seconds such as 2.347 — where the team's fix rounds it up to
 * whole seconds.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  clientKey,
  errorAnswer,
  LIMITS,
  limitsWith,
  NOT_FOUND,
  PetStore,
  planOf,
  RATE_LIMITED,
  UNAUTHORIZED,
  type Answer,
  type Plan,
} from '../pets.ts';
import type { LibraryServer, ServerOptions } from './types.ts';

const MAX_BODY = 1 << 20;

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function route(pets: PetStore, req: IncomingMessage): Promise<Answer> {
  if (!planOf(req.headers.authorization)) return UNAUTHORIZED();
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/v1/pets' && req.method === 'GET')
    return pets.list(url.searchParams.get('limit') ?? undefined, url.searchParams.get('status') ?? undefined);
  if (url.pathname === '/v1/pets' && req.method === 'POST') {
    const body = await readBody(req);
    return body === undefined ? errorAnswer(413, 'too_large', 'The body is too large.') : pets.create(body);
  }
  const m = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
  if (m && req.method === 'GET') {
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return errorAnswer(400, 'invalid_pet_id', 'petId must be an int64 integer.');
    }
    return pets.get(id);
  }
  return NOT_FOUND();
}

export async function startRateLimiterFlexible(o: ServerOptions & { readmeHeaders: boolean }): Promise<LibraryServer> {
  const pets = new PetStore();
  const limits = limitsWith(o.enterpriseLimit);
  const limiters = Object.fromEntries(
    (Object.keys(LIMITS) as Plan[]).map((p) => [p, new RateLimiterMemory({ points: limits[p], duration: o.windowMs / 1000 })]),
  ) as Record<Plan, RateLimiterMemory>;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const plan = planOf(req.headers.authorization) ?? 'free';
    let rl: RateLimiterRes;
    let limited = false;
    try {
      rl = await limiters[plan].consume(clientKey(req.headers.authorization, req.socket.remoteAddress));
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      rl = e;
      limited = true;
    }
    const headers: Record<string, string | number> = {
      'X-RateLimit-Limit': limits[plan],
      'X-RateLimit-Remaining': rl.remainingPoints,
      'X-RateLimit-Reset': Math.ceil((Date.now() + rl.msBeforeNext) / 1000),
    };
    const retryAfterS = Math.ceil(rl.msBeforeNext / 1000);
    if (limited) headers['Retry-After'] = o.readmeHeaders ? rl.msBeforeNext / 1000 : retryAfterS;
    const a = limited ? RATE_LIMITED(retryAfterS) : await route(pets, req);
    res.writeHead(a.status, { ...headers, ...a.headers, 'Content-Type': 'application/json' });
    res.end(a.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(errorAnswer(500, 'internal', err.message).body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
