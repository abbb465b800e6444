/**
 * The headers computed from state: X-RateLimit-* and Retry-After from a limiter
 * decision, and the deprecation signals of getPet (RFC 9745 Deprecation,
 * RFC 8594 Sunset, Link). Header faults are branches here.
 */
import type { Has } from './faults.ts';
import type { Decision } from './limiter.ts';

/** getPet deprecated on 2025-01-01T00:00:00Z (RFC 9745: "@" epoch seconds). */
export const DEPRECATION_EPOCH_SECONDS = 1735689600;
/** Removal announced for 5 December 2030 (RFC 8594 Sunset, an HTTP-date). */
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
export const DEPRECATION_DOC = 'https://animal-store.example/docs/deprecations/get-pet';

const WRONG_SUNSET = 'Fri, 05 Dec 2031 00:00:00 GMT';
const AFTER_SUNSET_EPOCH_SECONDS = 1924992000; // 2031-01-01

export type RetryAfterStyle = 'seconds' | 'http-date';

/**
 * Retry-After for a wait until `retryAt`: delay-seconds rounded up (at least 1),
 * or an HTTP-date rounded up to the next whole second after the Date header.
 * `until` is the instant the value announces (a client waiting it out is not early).
 * `paddingS` (variant retryAfterPaddingS): a more conservative wait, seconds later.
 */
export function retryAfter(retryAt: number, now: number, style: RetryAfterStyle, paddingS = 0): { value: string; until: number } {
  retryAt += paddingS * 1000;
  if (style === 'http-date') {
    const until = Math.max(Math.ceil(retryAt / 1000), Math.floor(now / 1000) + 1) * 1000;
    return { value: new Date(until).toUTCString(), until };
  }
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return { value: String(seconds), until: now + seconds * 1000 };
}

export interface RateHeaderContext {
  has: Has;
  now: number;
  /** Sequence number of the response (fault limit-varies alternates on it). */
  seq: number;
  retryAfter: RetryAfterStyle;
  /** Variant: the headers describe the per-minute window (default) or the per-day quota. */
  counts?: 'minute' | 'day';
  /** Variant retryAfterPaddingS. */
  paddingS?: number;
  /** The per-minute window (fault reset-one-window-late); default a minute. */
  windowMs?: number;
}

export function rateLimitHeaders(decision: Decision, status: number, x: RateHeaderContext): Record<string, string> {
  const { has } = x;
  const d = x.counts === 'day' && isFinite(decision.day.limit) ? { ...decision, ...decision.day } : decision;
  const out: Record<string, string> = {};
  // Fault throttle-503: the refusal at the limit is a 503, with the same Retry-After.
  const refused = status === 429 || (status === 503 && has('throttle-503') && !d.allowed);
  if (refused && d.retryAt !== undefined && !has('no-retry-after')) {
    out['Retry-After'] = has('retry-after-too-short') ? '1' : retryAfter(d.retryAt, x.now, x.retryAfter, x.paddingS).value;
    if (has('retry-after-negative')) out['Retry-After'] = String(-Math.max(1, Math.ceil((d.retryAt - x.now) / 1000)));
    // Fault unearned-ban: an hour's ban on every 429, the key's first included.
    if (has('unearned-ban')) out['Retry-After'] = '3600';
  }
  if (has('ratelimit-headers-missing-on-errors') && status >= 400) return out;
  const limit = has('limit-varies') && x.seq % 2 === 1 ? d.limit * 2 : d.limit;
  let remaining = d.remaining;
  if (status !== 429) {
    if (has('remaining-not-falling')) remaining = d.limit;
    if (has('remaining-falls-by-two')) remaining = Math.max(0, d.limit - 2 * (d.limit - d.remaining));
    if (has('remaining-above-limit')) remaining = d.remaining + 10;
  } else if (has('remaining-on-429')) remaining = Math.max(1, remaining);
  else if (has('remaining-negative-on-429')) remaining = -1;
  let reset = Math.ceil(d.resetAt / 1000);
  if (has('reset-in-ms')) reset = Math.ceil(d.resetAt);
  if (has('reset-relative')) reset = Math.max(0, Math.ceil((d.resetAt - x.now) / 1000));
  if (has('reset-is-now')) reset = Math.floor(x.now / 1000);
  if (has('reset-in-past')) reset = Math.ceil(d.resetAt / 1000) - 60;
  if (has('reset-one-window-late')) reset = Math.ceil((d.resetAt + (x.windowMs ?? 60_000)) / 1000);
  out['X-RateLimit-Limit'] = has('ratelimit-non-integer')
    ? `${limit}.0`
    : has('ratelimit-limit-duplicated')
      ? `${limit}, ${limit * 2}`
      : String(limit);
  out['X-RateLimit-Remaining'] = String(remaining);
  out['X-RateLimit-Reset'] = String(reset);
  return out;
}

/** The deprecation signals sent on every getPet response. */
export function deprecationHeaders(has: Has, origin: string): Record<string, string> {
  if (has('no-deprecation-headers')) return {};
  const deprecation = has('deprecation-boolean')
    ? 'true'
    : `@${has('deprecation-after-sunset') ? AFTER_SUNSET_EPOCH_SECONDS : DEPRECATION_EPOCH_SECONDS}`;
  return {
    Deprecation: deprecation,
    Sunset: has('wrong-sunset') ? WRONG_SUNSET : has('sunset-not-http-date') ? '2030-12-05T00:00:00Z' : SUNSET,
    Link: `<${origin}/v1/pets?status=available>; rel="successor-version", <${DEPRECATION_DOC}>; rel="deprecation"`,
  };
}
