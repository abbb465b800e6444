/**
 * The reference server as a request handler, without I/O: authentication first,
 * then rate limiting (per key; failed authentication per client address), then
 * routing to one handler per operation. Every reply goes through one writer
 * that adds the rate-limit, deprecation and common headers.
 */
import type http from 'node:http';
import { errorFactory, type ErrorFactory } from './errors.ts';
import { faultSet, type Has } from './faults.ts';
import { deprecationHeaders, rateLimitHeaders, retryAfter } from './headers.ts';
import { hostileReply } from './hostile.ts';
import { DEMO_KEYS, findKey, keyTable, type KeyInfo } from './keys.ts';
import { RateLimiter, type Decision, type Limits } from './limiter.ts';
import { resolveOptions, type AppOptions, type ResolvedOptions } from './options.ts';
import { jsonReply, type Reply } from './reply.ts';
import { composeReply, writeReply, type WriteOptions } from './respond.ts';
import { matchRoute, type Route } from './router.ts';
import type { PlanName } from './plans.ts';
import { PetStore } from './store.ts';

export type { AppOptions, ResolvedOptions, Variants } from './options.ts';

/** What the app reads of a request: an http.IncomingMessage, or a plain object for in-process calls. */
export interface RequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string; localPort?: number };
}

/** A response of an in-process call. */
export interface CallResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface App {
  handler(req: http.IncomingMessage, res: http.ServerResponse): void;
  /**
   * Answer one request in process, at the app's clock, without sockets (the
   * suite's virtual-time self-tests). Transport-level hostile faults and the
   * latency variant need the socket and do not apply.
   */
  call(req: RequestLike & { body?: string }): CallResponse;
  store: PetStore;
  options: ResolvedOptions;
  /** The demo API key of each plan. */
  keys: Readonly<Record<PlanName, string>>;
  /** Requests that presented each plan's demo key so far (the self-tests prove no key was crossed). */
  requestsByPlan(): Record<PlanName, number>;
}

/** Largest request body read; beyond it createPet answers 400. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** Variant banOnEarlyRetry: ban length in windows. */
export const BAN_WINDOWS = 10;
/** Variant banOnEarlyRetry: requests arriving this soon after a 429 were already in flight and are not early retries. */
export const BAN_GRACE_MS = 250;

/** A request header (joined when repeated). */
function headerOf(req: RequestLike, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The request URL; an unparsable one becomes a path that matches no route. */
function requestUrl(req: RequestLike): URL {
  try {
    return new URL(req.url ?? '/', 'http://reference.invalid');
  } catch {
    return new URL('http://reference.invalid/invalid-request-target');
  }
}

type Auth = { ok: true; key: string; limits: Limits } | { ok: false; detail: string };

/** Decide who the caller is from the Authorization header (Bearer, scheme case-insensitive). */
function authenticate(header: string | undefined, keys: Map<string, KeyInfo>, has: Has, anonymous: Limits): Auth {
  const accepted = (info: KeyInfo | undefined): Auth =>
    info ? { ok: true, key: info.key, limits: info } : { ok: true, key: '(accepted without a valid key)', limits: anonymous };
  if (header === undefined || header.trim() === '')
    return has('auth-missing-accepted') ? accepted(undefined) : { ok: false, detail: 'the Authorization header is missing' };
  const m = /^\s*(\S+)(?:\s+(.*))?$/.exec(header);
  const scheme = m?.[1] ?? '';
  const token = (m?.[2] ?? '').trim();
  if (scheme.toLowerCase() !== 'bearer')
    return has('auth-any-scheme')
      ? accepted(keys.get(token))
      : { ok: false, detail: `the scheme must be Bearer, got ${JSON.stringify(scheme)}` };
  if (token === '') return has('auth-empty-token-accepted') ? accepted(undefined) : { ok: false, detail: 'the bearer token is empty' };
  const info = findKey(keys, token, has);
  if (!info) return has('auth-unknown-key-accepted') ? accepted(undefined) : { ok: false, detail: 'the key is unknown' };
  if (has('auth-rejects-valid-key')) return { ok: false, detail: 'the key is not accepted' };
  return accepted(info);
}

/** Variant banOnEarlyRetry: keys that retried while a Retry-After was running. */
class Bans {
  private readonly state = new Map<string, { retryAt429: number; retryUntil: number; bannedUntil: number }>();
  constructor(private readonly banMs: number) {}

  /** The end of the ban `key` is under (starting one if this request is an early retry), or undefined. */
  check(key: string, now: number): number | undefined {
    const s = this.state.get(key);
    if (!s) return undefined;
    if (now < s.bannedUntil) return s.bannedUntil;
    if (now < s.retryUntil && now >= s.retryAt429 + BAN_GRACE_MS) return (s.bannedUntil = now + this.banMs);
    return undefined;
  }

  throttled(key: string, now: number, until: number): void {
    const s = this.state.get(key);
    if (s && now < s.retryUntil) s.retryUntil = Math.max(s.retryUntil, until);
    else this.state.set(key, { retryAt429: now, retryUntil: until, bannedUntil: s?.bannedUntil ?? 0 });
  }
}

export function buildApp(options?: AppOptions): App {
  const o = resolveOptions(options);
  const has = faultSet(o.faults);
  const store = new PetStore(o);
  const keys = keyTable(o.enterprise, o.dayQuotas);
  if (has('wrong-plan-limit')) for (const k of keys.values()) k.perMinute += 40;
  const anonymous: Limits = { perMinute: o.anonymousPerMinute };
  const limiter = new RateLimiter({ windowMs: o.windowMs, dayMs: o.dayMs, mode: o.variants.limiter, has });
  const bans = new Bans(BAN_WINDOWS * o.windowMs);
  /** Fault throttle-after-idle: when each key was last seen. */
  const lastSeen = new Map<string, number>();
  // Every request that presented a valid key, per key: the self-tests tell the plans' keys apart by it.
  const tally = new Map<string, number>();
  let seq = 0;

  /** Rate limit, then the operation; returns the reply and the decision its headers come from. */
  function decide(
    req: RequestLike,
    url: URL,
    body: string,
    bodyTooLarge: boolean,
    now: number,
    route: Route | undefined,
    error: ErrorFactory,
  ): { reply: Reply; decision: Decision } {
    const auth = authenticate(headerOf(req, 'authorization'), keys, has, anonymous);
    if (auth.ok) tally.set(auth.key, (tally.get(auth.key) ?? 0) + 1);
    const ctx = { url, params: route?.params ?? {}, body, bodyTooLarge, store, has, variants: o.variants, error, probe: !auth.ok };
    if (auth.ok && o.variants.banOnEarlyRetry) {
      const bannedUntil = bans.check(auth.key, now);
      if (bannedUntil !== undefined) {
        const decision = {
          allowed: false,
          limit: auth.limits.perMinute,
          remaining: 0,
          resetAt: bannedUntil,
          retryAt: bannedUntil,
          day: { limit: Infinity, remaining: 0, resetAt: bannedUntil },
        };
        return { reply: error('key_banned', `retry after ${new Date(bannedUntil).toISOString()}`), decision };
      }
    }
    if (auth.ok && has('throttle-after-idle')) {
      const last = lastSeen.get(auth.key);
      lastSeen.set(auth.key, now);
      if (last === undefined || now - last >= o.windowMs) {
        const retryAt = now + 1000;
        return {
          reply: error('rate_limited'),
          decision: {
            allowed: false,
            limit: auth.limits.perMinute,
            remaining: 0,
            resetAt: retryAt,
            retryAt,
            day: { limit: Infinity, remaining: 0, resetAt: retryAt },
          },
        };
      }
    }
    // Fault plans-share-bucket: the free and pro keys are counted in one bucket (each keeps its own Limit).
    const shared = auth.ok && has('plans-share-bucket') && (auth.key === DEMO_KEYS.free || auth.key === DEMO_KEYS.pro);
    const decision = limiter.take(
      shared ? 'key:free+pro' : auth.ok ? `key:${auth.key}` : `addr:${req.socket?.remoteAddress ?? 'unknown'}`,
      auth.ok ? auth.limits : anonymous,
      now,
    );
    if (!decision.allowed) {
      if (auth.ok && o.variants.banOnEarlyRetry)
        bans.throttled(auth.key, now, retryAfter(decision.retryAt!, now, o.variants.retryAfter, o.variants.retryAfterPaddingS).until);
      const reply = has('429-body-not-error') ? jsonReply(429, { message: 'Too many requests' }) : error('rate_limited');
      return { reply, decision };
    }
    if (!auth.ok) {
      if (has('429-instead-of-401')) return { reply: { ...error('rate_limited'), headers: { 'Retry-After': '0' } }, decision };
      // Fault validate-before-auth: a validation or lookup failure wins over the 401.
      const early = has('validate-before-auth') ? (route ? route.handler(ctx) : error('not_found', url.pathname)) : undefined;
      return { reply: early && (early.status === 400 || early.status === 404) ? early : error('unauthorized', auth.detail), decision };
    }
    if (!route) return { reply: error('not_found', `${req.method} ${url.pathname}`), decision };
    return { reply: route.handler(ctx) ?? error('internal_error'), decision };
  }

  /** The reply to a request and what the writer needs to put it on the wire. */
  function answer(req: RequestLike, body: string, bodyTooLarge: boolean): { reply: Reply; write: WriteOptions } {
    const now = o.now();
    const authorization = headerOf(req, 'authorization');
    const error = errorFactory({ has, authorization });
    const url = requestUrl(req);
    const route = matchRoute(req.method ?? 'GET', url.pathname);
    // Variant nonIntegerLimit 'default': a limit that is no integer is ignored (the default page).
    const limitParam = url.searchParams.get('limit');
    if (
      o.variants.nonIntegerLimit === 'default' &&
      route?.operation === 'listPets' &&
      limitParam !== null &&
      !/^[+-]?\d+$/.test(limitParam)
    )
      url.searchParams.delete('limit');
    let { reply, decision } = decide(req, url, body, bodyTooLarge, now, route, error);
    reply = hostileReply(reply, has, error, req);
    if (has('error-422-not-error') && reply.status === 400 && route?.operation !== 'createPet')
      reply = jsonReply(422, { detail: [{ loc: ['query'], msg: 'validation error' }] });
    const headers = {
      ...rateLimitHeaders(decision, reply.status, {
        has,
        now,
        seq: seq++,
        retryAfter: o.variants.retryAfter,
        counts: o.variants.rateLimitHeaders,
        paddingS: o.variants.retryAfterPaddingS,
      }),
      ...(route?.deprecated ? deprecationHeaders(has, `http://${headerOf(req, 'host') ?? '127.0.0.1'}`) : {}),
      ...reply.headers,
    };
    return {
      reply: { ...reply, headers },
      write: { has, now, latencyMs: o.variants.latencyMs, authorization, wire: o.variants.wire },
    };
  }

  function respond(req: http.IncomingMessage, res: http.ServerResponse, body: string, bodyTooLarge: boolean): void {
    const { reply, write } = answer(req, body, bodyTooLarge);
    writeReply(res, reply, write);
  }

  function call(req: RequestLike & { body?: string }): CallResponse {
    const { reply, write } = answer(req, req.body ?? '', false);
    const m = composeReply(reply, write);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.headers)) headers[k.toLowerCase()] = v;
    return { status: m.status, headers, body: m.body.toString('utf8') };
  }

  function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      try {
        respond(req, res, tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge);
      } catch (e) {
        if (!res.headersSent)
          writeReply(res, errorFactory({ has })('internal_error', (e as Error).message), { has: () => false, now: o.now(), latencyMs: 0 });
      }
    });
  }

  const requestsByPlan = () => {
    const out: Partial<Record<PlanName, number>> = {};
    for (const [plan, key] of Object.entries(DEMO_KEYS) as [PlanName, string][]) out[plan] = tally.get(key) ?? 0;
    return out as Record<PlanName, number>;
  };
  return { handler, call, store, options: o, keys: DEMO_KEYS, requestsByPlan };
}
