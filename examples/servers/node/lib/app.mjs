/**
 * The request handler: every request is authenticated, then counted by the rate limiter, then
 * routed; every response is JSON and carries the X-RateLimit-* headers.
 */
import { timingSafeEqual } from 'node:crypto';
import { parse, stringify } from 'lossless-json';
import { Limits, rateLimitHeaders } from './ratelimit.mjs';
import { int64, newPetProblems, PetStore, STATUSES } from './pets.mjs';

const MAX_BODY_BYTES = 1 << 20;
// RFC 9745 / RFC 8594: deprecated since this service's 1.0.0 (an @epoch date), removed on 5 December 2030.
const DEPRECATION = {
  Deprecation: '@1735689600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};

class HttpError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    Object.assign(this, { status, code, headers });
  }
}

function send(res, status, body, headers = {}) {
  const text = stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const sameKey = (a, b) => a.length === b.length && timingSafeEqual(a, b);

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    // Refused before the body was read whole: the rest is still on the connection, so it must close (RFC 9112 §9.6),
    // or the next request on it would be read from the middle of this body.
    if (size > MAX_BODY_BYTES)
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `the body exceeds ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createHandler(config) {
  const pets = new PetStore();
  const plans = config.plans.map((p) => ({ ...p, keyBytes: Buffer.from(p.key), limits: new Limits(p, config) }));
  const anonymous = new Limits(config.anonymous, config);

  /** The plan of a valid "Bearer <key>" (the scheme is case-insensitive, RFC 9110 §11.1). */
  function planOf(authorization) {
    const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    const token = m && Buffer.from(m[1]);
    return token ? plans.find((p) => sameKey(p.keyBytes, token)) : undefined;
  }

  const routes = {
    '/v1/pets': {
      GET: (url) => [200, listPets(url.searchParams)],
      POST: async (url, req) => [201, pets.add(await newPet(req))],
    },
    '/v1/pets/:id': {
      GET: (url, req, id) => {
        const pet = pets.get(petId(id));
        if (!pet) throw new HttpError(404, 'NOT_FOUND', `no pet with id ${id}`, DEPRECATION);
        return [200, pet, DEPRECATION];
      },
    },
  };

  function listPets(query) {
    const limitText = query.get('limit');
    let limit = 20;
    if (limitText !== null) {
      if (!/^-?[0-9]+$/.test(limitText)) throw new HttpError(400, 'BAD_REQUEST', 'limit must be an integer from 1 to 100');
      limit = Math.min(100, Math.max(1, Number(limitText))); // out of range: the nearest page size
    }
    const status = query.get('status') ?? undefined;
    if (status !== undefined && !STATUSES.includes(status))
      throw new HttpError(400, 'BAD_REQUEST', `status must be one of ${STATUSES.join(', ')}`);
    return pets.page(limit, status);
  }

  async function newPet(req) {
    const type = req.headers['content-type'];
    if (type !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))
      throw new HttpError(400, 'BAD_REQUEST', 'the body must be application/json');
    let body;
    try {
      body = parse(await readBody(req));
    } catch (e) {
      if (e instanceof HttpError) throw e;
      throw new HttpError(400, 'BAD_REQUEST', `the body is not JSON: ${e.message}`);
    }
    const problems = newPetProblems(body);
    if (problems.length) throw new HttpError(400, 'BAD_REQUEST', problems.join('; '));
    return body;
  }

  function petId(segment) {
    let text;
    try {
      text = decodeURIComponent(segment);
    } catch {
      text = segment;
    }
    const id = int64(text);
    if (id === undefined) throw new HttpError(400, 'BAD_REQUEST', 'petId must be an integer (int64)', DEPRECATION);
    return id;
  }

  function route(method, path) {
    const m = /^\/v1\/pets\/([^/]+)$/.exec(path);
    const [pattern, param] = path === '/v1/pets' ? ['/v1/pets'] : m ? ['/v1/pets/:id', m[1]] : [];
    if (!pattern) throw new HttpError(404, 'NOT_FOUND', `no resource at ${path}`);
    const handlers = routes[pattern];
    const handler = handlers[method === 'HEAD' ? 'GET' : method];
    if (!handler) {
      const allow = [...Object.keys(handlers), 'HEAD'].sort().join(', ');
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`, { Allow: allow });
    }
    return [handler, param];
  }

  return async function handle(req, res) {
    const plan = planOf(req.headers.authorization);
    // Limits count per key, and per client address for requests without a valid key.
    const quota = plan ? await plan.limits.hit(plan.name) : await anonymous.hit(req.socket.remoteAddress ?? '-');
    const limitHeaders = rateLimitHeaders(quota);
    try {
      if (quota.retryAfter !== undefined)
        throw new HttpError(429, 'RATE_LIMITED', `rate limit exceeded; retry after ${quota.retryAfter} s`);
      if (!plan)
        throw new HttpError(401, 'UNAUTHORIZED', 'a valid API key is required as a Bearer token', { 'WWW-Authenticate': 'Bearer' });
      const url = new URL(req.url, 'http://localhost');
      const [handler, param] = route(req.method, url.pathname);
      const [status, body, headers] = await handler(url, req, param);
      send(res, status, body, { ...headers, ...limitHeaders });
    } catch (e) {
      if (!(e instanceof HttpError)) console.error(e);
      const err = e instanceof HttpError ? e : new HttpError(500, 'INTERNAL', 'internal error');
      send(res, err.status, { code: err.code, message: err.message, status: err.status }, { ...err.headers, ...limitHeaders });
    }
  };
}
