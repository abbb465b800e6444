/**
 * The reference server as an app: `call()` answers a request in process,
 * `handler` on a socket. What it answers is decided phase by phase in
 * decide.ts (authentication, then rate limiting, then the operation); every
 * reply then goes through one writer that adds the rate-limit, deprecation and
 * common headers.
 */
import type http from 'node:http';
import { decide, headerOf, resizeWorld, serverState, type RequestLike, type ServerState } from './decide.ts';
import { errorFactory } from './errors.ts';
import { deprecationHeaders, rateLimitHeaders } from './headers.ts';
import { hostileReply } from './hostile.ts';
import { errorAsText } from './held-out-faults.ts';
import { frontReply, keptQuery, reserveOnArrival, stored } from './held-out-faults-39.ts';
import { DEMO_KEYS } from './keys.ts';
import { delays, type Delay } from './latency.ts';
import { resolveOptions, type AppOptions, type ResolvedOptions } from './options.ts';
import type { PlanName } from './plan-limits.ts';
import { jsonReply, type Reply } from './reply.ts';
import { composeReply, writeReply, type WriteOptions } from './respond.ts';
import { matchRoute } from './router.ts';
import { routingOf } from './methods.ts';
import type { PetStore } from './pet-store.ts';

export type { AppOptions, ResolvedOptions, Variants } from './options.ts';
export type { RequestLike } from './decide.ts';
export type { Delay } from './latency.ts';
export { BAN_GRACE_MS, BAN_WINDOWS } from './decide.ts';

/** A response of an in-process call. */
export interface CallResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body's bytes, when it is in a content coding (`body` is then empty). */
  raw?: Buffer;
}

export interface App {
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /**
   * Answer one request in process, at the app's clock, without sockets (the
   * suite's virtual-time self-tests). Transport-level hostile faults need the
   * socket and do not apply; the latency variants are the transport's to wait
   * (`delay`), on its own clock.
   */
  call: (req: RequestLike & { body?: string }) => CallResponse;
  /**
   * The next request's delay by the latency variants (latencyMs, latencyJitterMs): how long before it is
   * counted, then before its response is written. The socket handler draws one per request; an in-process
   * transport draws one per call and waits it on its clock, so both see the same server.
   */
  delay(): Delay;
  store: PetStore;
  options: ResolvedOptions;
  /** The demo API key of each plan. */
  keys: Readonly<Record<PlanName, string>>;
  /** Requests that presented each plan's demo key so far (the self-tests prove no key was crossed). */
  requestsByPlan(): Record<PlanName, number>;
  /** A new window and quota day from now on (decide.ts resizeWorld): the embedded server re-sized before a run's scenarios. */
  resize(world: { windowMs: number; dayMs: number }): void;
}

/** Largest request body read; beyond it createPet answers 400. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** The request URL; an unparsable one becomes a path that matches no route. */
function requestUrl(req: RequestLike): URL {
  try {
    return new URL(req.url ?? '/', 'http://reference.invalid');
  } catch {
    return new URL('http://reference.invalid/invalid-request-target');
  }
}

/** Variant nonIntegerLimit 'default': a listPets limit that is no integer is ignored (the default page). */
function ignoredLimit(s: ServerState, url: URL, operation: string | undefined): void {
  const limit = url.searchParams.get('limit');
  if (s.o.variants.nonIntegerLimit === 'default' && operation === 'listPets' && limit !== null && !/^[+-]?\d+$/.test(limit))
    url.searchParams.delete('limit');
}

/** A request's body as read: at most MAX_REQUEST_BODY_BYTES (empty, and `tooLarge`, past them). */
interface ReadBody {
  body: string;
  tooLarge: boolean;
}

/** The reply to a request and what the writer needs to put it on the wire. */
function answer(
  s: ServerState,
  nextSeq: () => number,
  req: RequestLike,
  { body, tooLarge: bodyTooLarge }: ReadBody,
): { reply: Reply; write: WriteOptions } {
  const { o, has } = s;
  const now = o.now();
  const authorization = headerOf(req, 'authorization');
  const error = errorFactory({ has, authorization });
  const url = requestUrl(req);
  // Fault query-kept-per-connection: a request without a query gets its connection's previous one.
  keptQuery(s.h39, req, url, has);
  const route = matchRoute(req.method ?? 'GET', url.pathname, routingOf(s.o.variants));
  ignoredLimit(s, url, route?.operation);
  const decided = decide(s, { req, url, body, bodyTooLarge, now, route, error });
  const { decision } = decided;
  let reply = hostileReply(decided.reply, has, error, req);
  if (has('error-422-not-error') && reply.status === 400 && route?.operation !== 'createPet')
    reply = jsonReply(422, { detail: [{ loc: ['query'], msg: 'validation error' }] });
  reply = errorAsText(reply, headerOf(req, 'accept'), has);
  const v = o.variants;
  const seq = nextSeq();
  // Fault list-500-bare: a framework's own error page carries none of the headers the app adds.
  const app = !reply.bare;
  const headers = {
    ...(app
      ? rateLimitHeaders(decision, reply.status, {
          has,
          now,
          seq,
          windowMs: s.o.windowMs,
          retryAfter: v.retryAfter,
          counts: v.rateLimitHeaders,
          paddingS: v.retryAfterPaddingS,
        })
      : {}),
    ...(app && (route?.deprecated || (has('deprecate-list') && route?.operation === 'listPets'))
      ? deprecationHeaders(has, `http://${headerOf(req, 'host') ?? '127.0.0.1'}`)
      : {}),
    ...(has('reflect-credentials-header') && authorization !== undefined
      ? { 'X-Debug-Auth': Buffer.from(authorization, 'latin1').toString('base64') }
      : {}),
    ...reply.headers,
  };
  const acceptEncoding = headerOf(req, 'accept-encoding');
  return {
    reply: { ...reply, headers },
    write: { has, now, latencyMs: v.latencyMs, authorization, wire: v.wire, ...(acceptEncoding !== undefined ? { acceptEncoding } : {}) },
  };
}

/**
 * The reply as a client receives it: from a proxy in front when it answers alone (faults idle-keepalive-502 and
 * cache-serves-anonymous), else the app's, which that proxy's cache may keep.
 */
function served(s: ServerState, nextSeq: () => number, req: RequestLike, read: ReadBody): { reply: Reply; write: WriteOptions } {
  const front = frontReply(s.h39, req, s.has);
  if (front) return { reply: front, write: { has: s.has, now: s.o.now(), latencyMs: 0 } };
  const { reply, write } = answer(s, nextSeq, req, read);
  return { reply: stored(s.h39, req, reply, s.has), write };
}

/** Read a request's body (at most MAX_REQUEST_BODY_BYTES), then hand it on. */
function readBody(req: http.IncomingMessage, then: (body: string, tooLarge: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('error', () => undefined);
  req.on('end', () => then(tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge));
}

export function buildApp(options?: AppOptions): App {
  const s = serverState(resolveOptions(options));
  let seq = 0;
  const nextSeq = () => seq++;

  function call(req: RequestLike & { body?: string }): CallResponse {
    // As on a socket: a body above the cap is not kept.
    const tooLarge = Buffer.byteLength(req.body ?? '', 'utf8') > MAX_REQUEST_BODY_BYTES;
    const { reply, write } = served(s, nextSeq, req, { body: tooLarge ? '' : (req.body ?? ''), tooLarge });
    const m = composeReply(reply, write);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.headers)) headers[k.toLowerCase()] = v;
    // A body in a content coding is bytes: the transport decodes it as it would on a socket.
    if (headers['content-encoding']) return { status: m.status, headers, body: '', raw: m.body };
    // As on a socket: a response to HEAD has no content (RFC 9110 §9.3.2).
    return { status: m.status, headers, body: req.method === 'HEAD' ? '' : m.body.toString('utf8') };
  }

  const delay = delays(s.o.variants.latencyMs, s.o.variants.latencyJitterMs);

  function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
    const d = delay();
    // Fault create-id-race: a create reads the next id as it arrives, and commits 20 ms later.
    const before = d.beforeMs + reserveOnArrival(s.h39, req, s.store, s.has);
    readBody(req, (body, tooLarge) => {
      if (before > 0) setTimeout(() => respond(res, req, { body, tooLarge }, d.afterMs), before);
      else respond(res, req, { body, tooLarge }, d.afterMs);
    });
  }

  /** Answer a request read from the socket; its response is written `latencyMs` later. */
  function respond(res: http.ServerResponse, req: http.IncomingMessage, read: ReadBody, latencyMs: number): void {
    try {
      const { reply, write } = served(s, nextSeq, req, read);
      writeReply(res, reply, { ...write, latencyMs });
    } catch (e) {
      if (!res.headersSent)
        writeReply(res, errorFactory({ has: s.has })('internal_error', (e as Error).message), {
          has: () => false,
          now: s.o.now(),
          latencyMs: 0,
        });
    }
  }

  const requestsByPlan = () => {
    const out: Partial<Record<PlanName, number>> = {};
    for (const [plan, key] of Object.entries(DEMO_KEYS) as [PlanName, string][]) out[plan] = s.tally.get(key) ?? 0;
    return out as Record<PlanName, number>;
  };
  const resize = (world: { windowMs: number; dayMs: number }) => resizeWorld(s, world);
  return { handler, call, delay, store: s.store, options: s.o, keys: DEMO_KEYS, requestsByPlan, resize };
}
