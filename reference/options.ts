/**
 * Options of the reference server: the injectable clock and windows, fault
 * modes, and the variants (unusual behaviours the suite must never fail: see variants.ts).
 */
import type { PlanName } from './plan-limits.ts';
import type { FaultName } from './faults.ts';
import { DEFAULT_ENTERPRISE } from './keys.ts';
import type { RetryAfterStyle } from './headers.ts';
import type { WireVariants } from './wire.ts';
import type { ListOrder } from './held-out-variants-39.ts';

export interface Variants {
  /** Retry-After as delay-seconds or as an HTTP-date. */
  retryAfter: RetryAfterStyle;
  /**
   * Per-minute window: fixed (aligned on the epoch), a sliding log over windowMs,
   * or a token bucket (capacity = limit, refilled continuously at limit per window:
   * never more than 2 × limit in any window, limit per window on average).
   */
  limiter: 'fixed' | 'sliding' | 'token-bucket';
  /** listPets limit outside 1..100: 400 Error, or clamped into range. */
  outOfRangeLimit: 'reject' | 'clamp';
  /**
   * listPets limit that is no integer (`limit=abc`, `limit=2.5`): 400 Error, or
   * ignored (the default page of 20). Valid either way: the spec documents no
   * 400 for listPets and says nothing of malformed values; the page stays ≤ 100.
   */
  nonIntegerLimit: 'reject' | 'default';
  /**
   * Seconds added to every Retry-After beyond the instant the limit frees a slot
   * (X-RateLimit-Reset is unchanged): a conservative wait, which the client
   * honours by retrying a little later than strictly needed. 0: none.
   */
  retryAfterPaddingS: number;
  /**
   * Names longer than 255 characters: accepted whole, or answered 422 with an
   * Error. Valid either way: the maximum length of name is not shown, so the spec
   * names no status for exceeding it.
   */
  longNames: 'accept' | 'reject-422';
  /** Status of a pet created without one: "available", or no status field at all. */
  defaultStatus: 'available' | 'none';
  /** Names refused with a 400 Error where the spec is silent: none, those with control characters, or all outside printable ASCII. */
  nameCharacters: 'any' | 'no-controls' | 'printable-ascii';
  /** Names longer than this many characters refused with a 400 Error (0: no such limit). */
  nameMaxLength: number;
  /** createPet body properties outside NewPet: ignored, or refused with a 400 Error. */
  unknownProperties: 'ignore' | 'reject';
  /** Integers written non-canonically (categoryId 1.0 or 1e2, limit +5 or 05, petId 007): taken, or refused with a 400 Error. */
  strictIntegers: boolean;
  /** Identifiers below 1 (categoryId, petId): taken, or refused with a 400 Error. */
  positiveIds: boolean;
  /** Names stored without their leading and trailing spaces. */
  trimNames: boolean;
  /** Delay before every response is written. */
  latencyMs: number;
  /**
   * Up to this many ms more on each request, drawn per request (the same draws on every run): up to half
   * of it before the request is counted, up to half before its response is written, so that requests in
   * flight together are counted in another order than sent and their responses overtake one another.
   */
  latencyJitterMs: number;
  /** A key that sends a request while a Retry-After is still running is banned for 10 windows. */
  banOnEarlyRetry: boolean;
  /** What X-RateLimit-* describe: the per-minute window, or the per-day quota ("the request limit in force" either way). */
  rateLimitHeaders: 'minute' | 'day';
  /** Undocumented fields on every Pet: `retrievedAt` (differs on every response) and, in lists only, `href`. */
  extraFields: boolean;
  /** The order of a page: as created (the default), newest first, or by name (reference/held-out-variants-39.ts). */
  listOrder: ListOrder;
  /** Ids of created pets: the next of a sequence (the default), or Snowflake ids (time, worker, sequence: far apart). */
  ids: 'sequential' | 'snowflake';
  /** HEAD: served as GET (the default, as most frameworks do), or 405 with Allow (reference/methods.ts). */
  head: 'get' | '405';
  /** A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) answered 204 without credentials. */
  cors: boolean;
  /**
   * OPTIONS: answered 204 with Allow after authentication (the default), 204 with Allow before it (`open`: no
   * credentials asked), or as Express's automatic OPTIONS does, before it: 200, Allow, and the list as a text body.
   */
  options: 'after-auth' | 'open' | 'express';
  /** The router decides before authentication: 404 and 405 with or without a key. */
  routerFirst: boolean;
  /** A path with a trailing slash served as the path without it. */
  trailingSlash: boolean;
  /** A petId that is an integer outside int64: 404 (the default: no such animal), or a 400 Error. */
  idNotInt64: '404' | '400';
  /** Unusual but valid HTTP framing and headers (reference/wire.ts). */
  wire: WireVariants;
  /** How the request's surface is read where an RFC leaves a choice (each valid). */
  surface: SurfaceVariants;
}

/** Choices RFC 8259, 9110 and 3986 leave to a server about a request's surface: each is valid. */
export interface SurfaceVariants {
  /** A member name given twice: its last value (the default), its first, or a 400 Error (RFC 8259 §4). */
  duplicateMembers?: 'last' | 'first' | 'reject';
  /** A byte order mark before the body: a 400 Error (the default) or ignored (RFC 8259 §8.1). */
  bom?: 'reject' | 'ignore';
  /** No depth limit on bodies (the default refuses more than 256 levels with a 400 Error: RFC 8259 §9). */
  unlimitedNesting?: boolean;
  /** createPet without Content-Type application/json (any case or parameters): read anyway (the default), or 415. */
  mediaType?: 'lenient' | 'strict';
  /** An Accept that excludes application/json: the JSON anyway (the default), or 406 (RFC 9110 §12.5.1). */
  accept?: 'ignore' | 'strict';
  /** A query parameter given twice: its first value (the default), its last, or a 400 Error (RFC 3986 §3.4). */
  repeatedParams?: 'first' | 'last' | 'reject';
  /** Query parameter names matched in any case (LIMIT is limit). */
  caseInsensitiveParams?: boolean;
  /** Query parameters listPets does not know: ignored (the default), or a 400 Error. */
  unknownParams?: 'ignore' | 'reject';
}

export const DEFAULT_VARIANTS: Readonly<Variants> = {
  retryAfter: 'seconds',
  limiter: 'fixed',
  outOfRangeLimit: 'reject',
  nonIntegerLimit: 'reject',
  retryAfterPaddingS: 0,
  longNames: 'accept',
  defaultStatus: 'available',
  nameCharacters: 'any',
  nameMaxLength: 0,
  unknownProperties: 'ignore',
  strictIntegers: false,
  positiveIds: false,
  trimNames: false,
  latencyMs: 0,
  latencyJitterMs: 0,
  banOnEarlyRetry: false,
  extraFields: false,
  rateLimitHeaders: 'minute',
  listOrder: 'created',
  ids: 'sequential',
  head: 'get',
  cors: false,
  options: 'after-auth',
  routerFirst: false,
  trailingSlash: false,
  idNotInt64: '404',
  wire: {},
  surface: {},
};

export interface AppOptions {
  /** Epoch ms; injectable clock. */
  now?: () => number;
  /** Rate-limit window, default 60000. */
  windowMs?: number;
  /** Quota window, default 86400000. */
  dayMs?: number;
  faults?: readonly FaultName[];
  variants?: Partial<Variants>;
  /** Limits of the enterprise key (custom in the spec). */
  enterprise?: { perMinute: number; perDay: number };
  /** Per-day quotas that replace a plan's published one (the embedded server's short day needs reachable quotas). */
  dayQuotas?: Partial<Record<PlanName, number>>;
  /** Per-day quotas of the daily keys (keys.ts DAILY_KEYS): the suite's embedded server gives them a short one of their own. */
  dailyKeyQuotas?: Partial<Record<PlanName, number>>;
  /** Pets in the store at start, default 120. */
  seedPets?: number;
  /** First id assigned, default 9007199254740993n (2^53 + 1). */
  firstId?: bigint;
  /** Per-minute limit of the per-address bucket of unauthenticated requests, default 60. */
  anonymousPerMinute?: number;
  /** Same as variants.latencyMs (the larger wins). */
  latencyMs?: number;
}

export interface ResolvedOptions {
  now: () => number;
  windowMs: number;
  dayMs: number;
  faults: readonly FaultName[];
  variants: Variants;
  enterprise: { perMinute: number; perDay: number };
  dayQuotas: Partial<Record<PlanName, number>>;
  dailyKeyQuotas: Partial<Record<PlanName, number>>;
  seedPets: number;
  firstId: bigint;
  anonymousPerMinute: number;
}

export function resolveOptions(o: AppOptions = {}): ResolvedOptions {
  const variants = { ...DEFAULT_VARIANTS, ...o.variants, wire: { ...o.variants?.wire }, surface: { ...o.variants?.surface } };
  variants.latencyMs = Math.max(variants.latencyMs, o.latencyMs ?? 0);
  return {
    now: o.now ?? Date.now,
    windowMs: o.windowMs ?? 60_000,
    dayMs: o.dayMs ?? 86_400_000,
    faults: [...(o.faults ?? [])],
    variants,
    enterprise: o.enterprise ?? { ...DEFAULT_ENTERPRISE },
    dayQuotas: { ...o.dayQuotas },
    dailyKeyQuotas: { ...o.dailyKeyQuotas },
    seedPets: o.seedPets ?? 120,
    firstId: o.firstId ?? 9007199254740993n,
    anonymousPerMinute: o.anonymousPerMinute ?? 60,
  };
}
