/**
 * Fastify 5 with @fastify/rate-limit, as a team would configure it: registered
 * globally and on the not-found handler, keyed by the API key (by address
 * without one), `max` the key's plan limit, its default x-ratelimit-* headers,
 * and the team's error handler, which turns every error (the plugin's 429
 * included) into an Error body. Authentication runs in preHandler, after the
 * limiter, so 401s carry the headers too.
 *
 * The plugin's x-ratelimit-reset counts the seconds until the reset, where the
 * spec wants a Unix timestamp: `unixReset` is the team's fix (an onSend hook
 * that adds the current Unix time).
 */
import Fastify from 'fastify';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
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

/**
 * The part of Fastify's API this server uses, typed by hand: type-checking a handler against Fastify's own types
 * (its reply type, with every type provider and schema) costs the type check of `npm test` about 2.5 s — an eighth
 * of it — for this one file. What the server does is checked where it matters, by the tests that run it.
 */
interface Request {
  headers: Record<string, string | undefined>;
  ip: string;
  query: Record<string, unknown>;
  params: { petId: string };
  body: unknown;
}
interface Reply {
  code(status: number): Reply;
  headers(h: Record<string, string>): Reply;
  header(name: string, value: string | number): Reply;
  getHeader(name: string): unknown;
  send(body: unknown): Reply;
}
type Handler = (req: Request, reply: Reply) => unknown;
interface App {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    o: { parseAs: 'string' },
    parse: (req: Request, body: string, done: (e: null, b: string) => void) => void,
  ): void;
  register(plugin: typeof rateLimit, o: RateLimitPluginOptions): Promise<unknown>;
  addHook(name: 'onSend', hook: (req: Request, reply: Reply, payload: unknown) => Promise<unknown>): void;
  addHook(name: 'preHandler', hook: (req: Request, reply: Reply) => Promise<unknown>): void;
  setErrorHandler(h: (err: { statusCode?: number; message?: string; retryAfterS?: number }, req: Request, reply: Reply) => unknown): void;
  setNotFoundHandler(o: { preHandler: unknown }, h: Handler): void;
  rateLimit(): unknown;
  get(path: string, h: Handler): void;
  post(path: string, h: Handler): void;
  listen(o: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}

const send = (reply: Reply, a: Answer) =>
  reply
    .code(a.status)
    .headers({ ...a.headers, 'content-type': 'application/json' })
    .send(a.body);

const one = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : '');

export async function startFastifyRateLimit(o: ServerOptions & { unixReset: boolean }): Promise<LibraryServer> {
  const pets = new PetStore();
  const limits = limitsWith(o.enterpriseLimit);
  const app = Fastify({ bodyLimit: 1 << 20 }) as unknown as App;
  // The raw text of every body: the store parses it itself, int64 digits exact.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  await app.register(rateLimit, {
    max: (req) => limitFor(req.headers.authorization, limits),
    timeWindow: o.windowMs,
    keyGenerator: (req) => clientKey(req.headers.authorization, req.ip),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: ctx.statusCode, retryAfterS: Math.ceil(ctx.ttl / 1000) }),
  });
  if (o.unixReset)
    app.addHook('onSend', async (_req, reply, payload) => {
      const secondsLeft = reply.getHeader('x-ratelimit-reset');
      if (secondsLeft !== undefined) reply.header('x-ratelimit-reset', Math.floor(Date.now() / 1000) + Number(secondsLeft));
      return payload;
    });
  app.setErrorHandler((err: { statusCode?: number; message?: string; retryAfterS?: number }, _req, reply) => {
    if (err.statusCode === 429) return send(reply, RATE_LIMITED(err.retryAfterS ?? 1));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return send(reply, errorAnswer(status, status === 500 ? 'internal' : 'bad_request', err.message ?? 'error'));
  });
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (_req, reply) => send(reply, NOT_FOUND()));
  app.addHook('preHandler', async (req, reply) => {
    if (!planOf(req.headers.authorization)) return send(reply, UNAUTHORIZED());
  });
  app.get('/v1/pets', (req, reply) => send(reply, pets.list(one(req.query.limit), one(req.query.status))));
  app.post('/v1/pets', (req, reply) => send(reply, pets.create(typeof req.body === 'string' ? req.body : '')));
  app.get('/v1/pets/:petId', (req, reply) => send(reply, pets.get(req.params.petId)));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/v1`, close: () => app.close() };
}
