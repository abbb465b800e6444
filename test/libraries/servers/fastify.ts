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
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { clientKey, errorAnswer, limitFor, NOT_FOUND, PetStore, planOf, RATE_LIMITED, UNAUTHORIZED, type Answer } from '../pets.ts';
import type { LibraryServer, ServerOptions } from './types.ts';

const send = (reply: FastifyReply, a: Answer) =>
  reply
    .code(a.status)
    .headers({ ...a.headers, 'content-type': 'application/json' })
    .send(a.body);

const one = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : '');

type Query = { Querystring: Record<string, unknown>; Params: { petId: string }; Body: string };

export async function startFastifyRateLimit(o: ServerOptions & { unixReset: boolean }): Promise<LibraryServer> {
  const pets = new PetStore();
  const app = Fastify({ bodyLimit: 1 << 20 });
  // The raw text of every body: the store parses it itself, int64 digits exact.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  await app.register(rateLimit, {
    max: (req: FastifyRequest) => limitFor(req.headers.authorization),
    timeWindow: o.windowMs,
    keyGenerator: (req: FastifyRequest) => clientKey(req.headers.authorization, req.ip),
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
  app.get<Query>('/v1/pets', (req, reply) => send(reply, pets.list(one(req.query.limit), one(req.query.status))));
  app.post<Query>('/v1/pets', (req, reply) => send(reply, pets.create(typeof req.body === 'string' ? req.body : '')));
  app.get<Query>('/v1/pets/:petId', (req, reply) => send(reply, pets.get(req.params.petId)));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/v1`, close: () => app.close() };
}
