/**
 * Express 5 with express-rate-limit, as a team would configure it for the
 * Animal Store: the limiter first (so 401s and 404s carry the headers too),
 * keyed by the API key (by address without one), the plan's limit per key,
 * `legacyHeaders: true` for X-RateLimit-* (Reset a Unix timestamp) and
 * `standardHeaders: 'draft-8'` beside them. `jsonErrors` replaces the default
 * 429 handler (a text body) with one sending an Error.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import {
  bearerToken,
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

function send(res: Response, a: Answer): void {
  res
    .status(a.status)
    .set({ 'Content-Type': 'application/json', ...a.headers })
    .send(a.body);
}

/** A query parameter given once, '' when repeated (invalid), undefined when absent. */
const one = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : '');

export async function startExpressRateLimit(o: ServerOptions & { jsonErrors: boolean }): Promise<LibraryServer> {
  const pets = new PetStore();
  const limits = limitsWith(o.enterpriseLimit);
  const app = express();
  app.use(
    rateLimit({
      windowMs: o.windowMs,
      limit: (req: Request) => limitFor(req.headers.authorization, limits),
      keyGenerator: (req: Request) => bearerToken(req.headers.authorization) ?? ipKeyGenerator(req.ip ?? ''),
      legacyHeaders: true,
      standardHeaders: 'draft-8',
      ...(o.jsonErrors ? { handler: (_req: Request, res: Response) => send(res, RATE_LIMITED(Number(res.getHeader('Retry-After')))) } : {}),
    }),
  );
  app.use((req, res, next) => (planOf(req.headers.authorization) ? next() : send(res, UNAUTHORIZED())));
  // The raw text of every body: the store parses it itself, int64 digits exact.
  app.use(express.text({ type: () => true, limit: '1mb' }));
  const v1 = express.Router();
  v1.get('/pets', (req, res) => send(res, pets.list(one(req.query.limit), one(req.query.status))));
  v1.post('/pets', (req, res) => send(res, pets.create(typeof req.body === 'string' ? req.body : '')));
  v1.get('/pets/:petId', (req, res) => send(res, pets.get(req.params.petId)));
  app.use('/v1', v1);
  app.use((_req, res) => send(res, NOT_FOUND()));
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500;
    send(res, errorAnswer(status, status === 500 ? 'internal' : 'bad_request', err.message ?? 'error'));
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
