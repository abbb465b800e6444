/**
 * Hono 4 on @hono/node-server with hono-rate-limiter, as a team would configure
 * it: keyed by the API key (by address without one), `limit` the key's plan,
 * `standardHeaders: 'draft-6'` (its default: RateLimit-Limit / -Remaining /
 * -Reset, seconds until the reset, and Retry-After on a 429). The library sends
 * no X-RateLimit-* headers: `legacyHeaders` is the team's middleware adding
 * them from the limiter's info (`c.get('rateLimit')`), Reset as a Unix
 * timestamp; `jsonErrors` replaces the default 429 handler (a text body).
 */
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import {
  clientKey,
  errorAnswer,
  limitFor,
  limitsWith,
  NOT_FOUND,
  PetStore,
  planOf,
  RATE_LIMITED,
  UNAUTHORIZED,
  type Answer,
} from '../pets.ts';
import type { LibraryServer, ServerOptions } from './types.ts';

const send = (c: Context, a: Answer) => c.body(a.body, a.status as 200, { ...a.headers, 'Content-Type': 'application/json' });

interface RateLimitInfo {
  limit: number;
  remaining: number;
  resetTime?: Date;
}

const secondsLeft = (info: RateLimitInfo | undefined) =>
  info?.resetTime ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : 1;

export async function startHonoRateLimiter(o: ServerOptions & { legacyHeaders: boolean; jsonErrors: boolean }): Promise<LibraryServer> {
  const pets = new PetStore();
  const limits = limitsWith(o.enterpriseLimit);
  const app = new Hono<{ Variables: { rateLimit?: RateLimitInfo } }>();
  if (o.legacyHeaders)
    app.use(async (c, next) => {
      await next();
      const info = c.get('rateLimit');
      if (!info) return;
      c.res.headers.set('X-RateLimit-Limit', String(info.limit));
      c.res.headers.set('X-RateLimit-Remaining', String(info.remaining));
      if (info.resetTime) c.res.headers.set('X-RateLimit-Reset', String(Math.ceil(info.resetTime.getTime() / 1000)));
    });
  app.use(
    rateLimiter({
      windowMs: o.windowMs,
      limit: (c: Context) => limitFor(c.req.header('authorization'), limits),
      keyGenerator: (c: Context) => clientKey(c.req.header('authorization'), getConnInfo(c).remote.address),
      standardHeaders: 'draft-6',
      ...(o.jsonErrors ? { handler: (c: Context) => send(c, RATE_LIMITED(secondsLeft(c.get('rateLimit')))) } : {}),
    }),
  );
  app.use(async (c, next) => (planOf(c.req.header('authorization')) ? next() : send(c, UNAUTHORIZED())));
  app.get('/v1/pets', (c) => send(c, pets.list(c.req.query('limit'), c.req.query('status'))));
  app.post('/v1/pets', async (c) => send(c, pets.create(await c.req.text())));
  app.get('/v1/pets/:petId', (c) => send(c, pets.get(c.req.param('petId'))));
  app.notFound((c) => send(c, NOT_FOUND()));
  app.onError((err, c) => send(c, errorAnswer(500, 'internal', err.message)));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
