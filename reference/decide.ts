/**
 * What the reference server answers to one request, phase by phase:
 * authentication, the key's ban or idle throttle (a variant and a fault), the
 * rate limit (per key; failed authentication per client address), then the
 * operation. Pure of I/O: the app (app.ts) reads the request and writes the reply.
 */
import type { ErrorFactory } from './errors.ts';
import { headerFault } from './surface-faults.ts';
import { framedBody } from './held-out-faults.ts';
import { countedTwice, heldOut39, reservedId, type HeldOut39 } from './held-out-faults-39.ts';
import { faultSet, type Has } from './faults.ts';
import { credentialRead, keyIgnoringCase, tokenRead } from './credential-faults.ts';
import { headAlways200, openOptionsReply, preflightReply, undocumentedDelete, unroutedReply } from './methods.ts';
import { retryAfter } from './headers.ts';
import { DEMO_KEYS, findKey, keyTable, type KeyInfo } from './keys.ts';
import { RateLimiter, type Decision, type Limits } from './limiter.ts';
import type { ResolvedOptions } from './options.ts';
import { jsonReply, type Reply } from './reply.ts';
import type { Route } from './router.ts';
import { PetStore } from './pet-store.ts';

/** What the app reads of a request: an http.IncomingMessage, or a plain object for in-process calls. */
export interface RequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string; localPort?: number };
}

/** Variant banOnEarlyRetry: ban length in windows. */
export const BAN_WINDOWS = 10;
/** Variant banOnEarlyRetry: requests arriving this soon after a 429 were already in flight and are not early retries. */
export const BAN_GRACE_MS = 250;

/** Does an Accept field allow application/json (application/json, application/* or any type, with a weight above 0)? */
function acceptsJson(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return ['application/json', 'application/*', '*/*'].includes(type) && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** A request header (joined when repeated). */
export function headerOf(req: RequestLike, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
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
  const token = tokenRead((m?.[2] ?? '').trim(), has);
  // Fault bearer-case-sensitive: only "Bearer" spelled so (RFC 9110 §11.1 makes the scheme case-insensitive).
  if (scheme.toLowerCase() !== 'bearer' || (has('bearer-case-sensitive') && scheme !== 'Bearer'))
    return has('auth-any-scheme')
      ? accepted(keys.get(token))
      : { ok: false, detail: `the scheme must be Bearer, got ${JSON.stringify(scheme)}` };
  if (token === '') return has('auth-empty-token-accepted') ? accepted(undefined) : { ok: false, detail: 'the bearer token is empty' };
  const info = findKey(keys, token, has) ?? keyIgnoringCase(keys, token, has);
  if (!info) return has('auth-unknown-key-accepted') ? accepted(undefined) : { ok: false, detail: 'the key is unknown' };
  if (has('auth-rejects-valid-key')) return { ok: false, detail: 'the key is not accepted' };
  return accepted(info);
}

/** Variant banOnEarlyRetry: keys that retried while a Retry-After was running. */
class Bans {
  private readonly state = new Map<string, { retryAt429: number; retryUntil: number; bannedUntil: number }>();
  constructor(private banMs: number) {}

  /** A ban's length from now on (the world re-sized). */
  resize(banMs: number): void {
    this.banMs = banMs;
  }

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

/** Everything the server keeps between requests. */
export interface ServerState {
  o: ResolvedOptions;
  has: Has;
  store: PetStore;
  keys: Map<string, KeyInfo>;
  anonymous: Limits;
  limiter: RateLimiter;
  bans: Bans;
  /** Fault throttle-after-idle: when each key was last seen. */
  lastSeen: Map<string, number>;
  /** Every request that presented a valid key, per key: the self-tests tell the plans' keys apart by it. */
  tally: Map<string, number>;
  /** What the held-out faults of issue 39 and their variants keep. */
  h39: HeldOut39;
}

export function serverState(o: ResolvedOptions): ServerState {
  const has = faultSet(o.faults);
  const keys = keyTable(o.enterprise, o.dayQuotas, o.dailyKeyQuotas);
  if (has('wrong-plan-limit')) for (const k of keys.values()) k.perMinute += 40;
  return {
    o,
    has,
    store: new PetStore(o),
    keys,
    anonymous: { perMinute: o.anonymousPerMinute },
    limiter: new RateLimiter({ windowMs: o.windowMs, dayMs: o.dayMs, mode: o.variants.limiter, has }),
    bans: new Bans(BAN_WINDOWS * o.windowMs),
    lastSeen: new Map(),
    tally: new Map(),
    h39: heldOut39(o.now),
  };
}

/**
 * Re-size the server's world: its window and quota day from now on (the embedded server between a run's conformance specs
 * and its rate-limit scenarios, src/target/target.ts). The counts of the current window and day restart on the new ones.
 */
export function resizeWorld(s: ServerState, world: { windowMs: number; dayMs: number }): void {
  Object.assign(s.o, world);
  s.limiter.resize(world.windowMs, world.dayMs);
  s.bans.resize(BAN_WINDOWS * world.windowMs);
}

/** One request as the phases see it. */
export interface Request {
  req: RequestLike;
  url: URL;
  body: string;
  bodyTooLarge: boolean;
  now: number;
  route: Route | undefined;
  error: ErrorFactory;
}

export interface Outcome {
  reply: Reply;
  /** What the rate-limit headers describe. */
  decision: Decision;
}

/** A refusal until `until` (a ban, an idle throttle): nothing remains, in the minute or the day. */
const refusedUntil = (limit: number, until: number): Decision => ({
  allowed: false,
  limit,
  remaining: 0,
  resetAt: until,
  retryAt: until,
  day: { limit: Infinity, remaining: 0, resetAt: until },
});

/** Variant banOnEarlyRetry and fault throttle-after-idle: a known key refused before its limit is counted. */
function heldBack(s: ServerState, auth: Auth & { ok: true }, r: Request): Outcome | undefined {
  if (s.o.variants.banOnEarlyRetry) {
    const bannedUntil = s.bans.check(auth.key, r.now);
    if (bannedUntil !== undefined)
      return {
        reply: r.error('key_banned', `retry after ${new Date(bannedUntil).toISOString()}`),
        decision: refusedUntil(auth.limits.perMinute, bannedUntil),
      };
  }
  if (s.has('throttle-after-idle')) {
    const last = s.lastSeen.get(auth.key);
    s.lastSeen.set(auth.key, r.now);
    if (last === undefined || r.now - last >= s.o.windowMs)
      return { reply: r.error('rate_limited'), decision: refusedUntil(auth.limits.perMinute, r.now + 1000) };
  }
  return undefined;
}

/** The rate limit: the key's bucket (or the client address's, unauthenticated); a 429 when it is spent. */
function limited(s: ServerState, auth: Auth, r: Request): Outcome | { decision: Decision; reply?: undefined } {
  // Fault plans-share-bucket: the free and pro keys are counted in one bucket (each keeps its own Limit).
  const shared = auth.ok && s.has('plans-share-bucket') && (auth.key === DEMO_KEYS.free || auth.key === DEMO_KEYS.pro);
  // Fault limit-per-route: a limiter mounted on each route, each operation with a budget of its own.
  const route = s.has('limit-per-route') && r.route ? `:${r.route.operation}` : '';
  const bucket = shared ? 'key:free+pro' : auth.ok ? `key:${auth.key}${route}` : `addr:${r.req.socket?.remoteAddress ?? 'unknown'}`;
  const take = () => s.limiter.take(bucket, auth.ok ? auth.limits : s.anonymous, r.now);
  // Fault create-counted-twice: a create passes a second limiter on the same bucket.
  const decision = countedTwice(take(), auth.ok ? r.route?.operation : undefined, s.has, take);
  if (decision.allowed) return { decision };
  const v = s.o.variants;
  if (auth.ok && v.banOnEarlyRetry)
    s.bans.throttled(auth.key, r.now, retryAfter(decision.retryAt!, r.now, v.retryAfter, v.retryAfterPaddingS).until);
  // Fault throttle-503: nginx's limit_req_status default, 503 with Retry-After.
  if (s.has('throttle-503')) return { reply: r.error('throttled_503'), decision };
  return { reply: s.has('429-body-not-error') ? jsonReply(429, { message: 'Too many requests' }) : r.error('rate_limited'), decision };
}

/** An unauthenticated request within its address's limit: a 401, or what a fault answers instead. */
function unauthorized(s: ServerState, auth: Auth & { ok: false }, r: Request, probe: () => Reply | undefined): Reply {
  if (s.has('429-instead-of-401')) return { ...r.error('rate_limited'), headers: { 'Retry-After': '0' } };
  // Fault validate-before-auth: a validation or lookup failure wins over the 401.
  const early = s.has('validate-before-auth') ? (r.route ? probe() : r.error('not_found', r.url.pathname)) : undefined;
  return early && (early.status === 400 || early.status === 404) ? early : r.error('unauthorized', auth.detail);
}

/** Authenticate, hold back, rate limit, then the operation; returns the reply and the decision its headers come from. */
export function decide(s: ServerState, r: Request): Outcome {
  const method = r.req.method ?? 'GET';
  const header = (name: string) => headerOf(r.req, name);
  const early =
    preflightReply(r.url.pathname, s.o.variants, header) ??
    openOptionsReply(method, r.url.pathname, s.o.variants) ??
    undocumentedDelete(method, r.url.pathname, s.has);
  if (early) return { reply: early, decision: refusedUntil(0, r.now) };
  const credential = credentialRead({ url: r.url, header }, s.keys, s.has);
  // Fault head-skips-auth: HEAD is served like GET, but the key is checked for GET alone.
  const auth: Auth =
    method === 'HEAD' && s.has('head-skips-auth')
      ? { ok: true, key: '(HEAD without a key)', limits: s.anonymous }
      : authenticate(credential, s.keys, s.has, s.anonymous);
  if (auth.ok) s.tally.set(auth.key, (s.tally.get(auth.key) ?? 0) + 1);
  const { url, body, bodyTooLarge, error } = r;
  const ctx = {
    url,
    params: r.route?.params ?? {},
    // Fault chunked-body-empty: a body sent chunked, without Content-Length, is read as empty.
    body: framedBody(body, (name) => headerOf(r.req, name), s.has),
    header: (name: string) => headerOf(r.req, name),
    bodyTooLarge,
    store: s.store,
    has: s.has,
    variants: s.o.variants,
    error,
    probe: !auth.ok,
    h39: s.h39,
    // Fault create-id-race: the id this create read as it arrived.
    reservedId: reservedId(s.h39, r.req),
  };
  const held = auth.ok ? heldBack(s, auth, r) : undefined;
  if (held) return held;
  const limit = limited(s, auth, r);
  // Fault create-429-stored: the limiter's decision not awaited: a createPet refused with 429 was handled (stored) all the same.
  if (limit.reply && limit.reply.status === 429 && s.has('create-429-stored') && r.route?.operation === 'createPet')
    r.route.handler({ ...ctx, probe: false });
  if (limit.reply) return limit;
  const { decision } = limit;
  // Fault next-after-large-body-500: the request after a refused large body is read from the middle of that body.
  if (s.has('next-after-large-body-500') && s.store.bodyLeftUnread) {
    s.store.bodyLeftUnread = false;
    return { reply: error('internal_error', 'malformed request line'), decision };
  }
  const unrouted = () => unroutedReply({ method, pathname: url.pathname }, s.o.variants, error, s.has);
  // Variant routerFirst: 404 and 405 before authentication.
  if (!r.route && s.o.variants.routerFirst) return { reply: unrouted(), decision };
  // Fault create-401-stored: the credential checked after the handler ran (its decision not awaited): the pet is stored.
  if (!auth.ok && s.has('create-401-stored') && r.route?.operation === 'createPet') r.route.handler({ ...ctx, probe: false });
  if (!auth.ok) return { reply: unauthorized(s, auth, r, () => r.route?.handler(ctx)), decision };
  if (!r.route) return { reply: unrouted(), decision };
  const head = headAlways200(method, r.route.operation, s.has);
  if (head) return { reply: head, decision };
  const byHeaders = headerFault(ctx.header, s.has, error);
  if (byHeaders) return { reply: byHeaders, decision };
  // Variant surface.accept=strict: an Accept that excludes application/json gets a 406 (RFC 9110 §12.5.1).
  const accept = headerOf(r.req, 'accept');
  if (s.o.variants.surface.accept === 'strict' && accept !== undefined && !acceptsJson(accept))
    return { reply: error('not_acceptable', accept), decision };
  // Fault accept-charset-406: application/json with a parameter is not recognised as acceptable.
  if (s.has('accept-charset-406') && accept !== undefined && /application\/json\s*;/i.test(accept))
    return { reply: error('not_acceptable', accept), decision };
  return { reply: r.route.handler(ctx) ?? error('internal_error'), decision };
}
