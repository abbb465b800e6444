/**
 * Reading the rate-limit signals of a response: X-RateLimit-Limit / Remaining /
 * Reset and Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).
 *
 * Pure module shared by the conformance suite, the Node load engine and the k6
 * bundles: no Node built-ins, no BigInt, no timers; ES2017 syntax after bundling.
 */

export type HeaderBag = Record<string, string | string[] | undefined>;

/** Case-insensitive single header value (joins repeated headers with ", "). */
export function header(headers: HeaderBag, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== want) continue;
    const v = headers[key];
    if (v === undefined) return undefined;
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return undefined;
}

/** A non-negative decimal integer header value, or undefined if absent/malformed. */
export function parseNonNegativeInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = value.trim();
  if (!/^\d{1,16}$/.test(t)) return undefined;
  return Number(t);
}

export interface RateLimitHeaders {
  limitRaw?: string;
  remainingRaw?: string;
  resetRaw?: string;
  limit?: number;
  remaining?: number;
  reset?: number;
}

export function readRateLimit(headers: HeaderBag): RateLimitHeaders {
  const limitRaw = header(headers, 'x-ratelimit-limit');
  const remainingRaw = header(headers, 'x-ratelimit-remaining');
  const resetRaw = header(headers, 'x-ratelimit-reset');
  return {
    limitRaw,
    remainingRaw,
    resetRaw,
    limit: parseNonNegativeInteger(limitRaw),
    remaining: parseNonNegativeInteger(remainingRaw),
    reset: parseNonNegativeInteger(resetRaw),
  };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The epoch ms of an HTTP-date's day and time (its three groups of digits), undefined when no such day or time exists. */
function utc({ year, month, day }: { year: number; month: string; day: number }, time: string[]): number | undefined {
  const [hh, mm, ss] = time.map(Number);
  const mon = MONTHS.indexOf(month.toLowerCase());
  if (mon < 0 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60) return undefined;
  const ms = Date.UTC(year, mon, day, hh, mm, ss);
  const d = new Date(ms);
  if (d.getUTCDate() !== day) return undefined; // e.g. 31 Feb
  return ms;
}

/**
 * Parse an HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850
 * and asctime forms that recipients must also accept. Returns epoch ms.
 */
export function parseHttpDate(value: string): number | undefined {
  const v = value.trim();
  let m = /^([A-Za-z]{3}), (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(v);
  if (m) {
    if (DAYS.indexOf(m[1].toLowerCase()) < 0) return undefined;
    return utc({ year: Number(m[4]), month: m[3], day: Number(m[2]) }, m.slice(5, 8));
  }
  m = /^[A-Za-z]{6,9}, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(v);
  if (m) {
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
    const nowYear = new Date().getUTCFullYear();
    let year = 2000 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    return utc({ year, month: m[2], day: Number(m[1]) }, m.slice(4, 7));
  }
  m = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(v);
  if (m) return utc({ year: Number(m[6]), month: m[1], day: Number(m[2].trim()) }, m.slice(3, 6));
  return undefined;
}

export type RetryAfter =
  | { kind: 'seconds'; seconds: number; raw: string }
  | { kind: 'date'; at: number; raw: string }
  | { kind: 'invalid'; raw: string }
  | { kind: 'absent' };

export function parseRetryAfter(value: string | undefined): RetryAfter {
  if (value === undefined) return { kind: 'absent' };
  const t = value.trim();
  if (/^\d{1,10}$/.test(t)) return { kind: 'seconds', seconds: Number(t), raw: value };
  const at = parseHttpDate(t);
  if (at !== undefined) return { kind: 'date', at, raw: value };
  return { kind: 'invalid', raw: value };
}

/**
 * How long, in ms from the moment the response was received, Retry-After asks to
 * wait. An HTTP-date is measured against the response's own Date header when
 * present (so clock skew between client and server does not matter), else `nowMs`.
 */
export function retryAfterDelayMs(ra: RetryAfter, nowMs: number, serverDateMs?: number): number | undefined {
  if (ra.kind === 'seconds') return ra.seconds * 1000;
  if (ra.kind === 'date') return Math.max(0, ra.at - (serverDateMs ?? nowMs));
  return undefined;
}

/** Server's Date header in epoch ms, if present and valid. */
export function serverDate(headers: HeaderBag): number | undefined {
  const d = header(headers, 'date');
  return d === undefined ? undefined : parseHttpDate(d);
}

export type ResetVerdict =
  { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'milliseconds' | 'relative' | 'past' | 'too-far'; detail: string };

/**
 * Is X-RateLimit-Reset a Unix timestamp in seconds within [ref - skew, ref + window + skew]?
 * `refMs` is the response's Date header (or the local receive time), `windowSeconds`
 * the longest window the limit may refer to.
 */
export function judgeReset(resetRaw: string | undefined, refMs: number, windowSeconds: number, skewSeconds: number): ResetVerdict {
  if (resetRaw === undefined) return { ok: false, reason: 'missing', detail: 'X-RateLimit-Reset is absent' };
  const reset = parseNonNegativeInteger(resetRaw);
  if (reset === undefined)
    return { ok: false, reason: 'malformed', detail: `X-RateLimit-Reset ${JSON.stringify(resetRaw)} is not an integer` };
  const ref = Math.floor(refMs / 1000);
  if (reset > 1e11)
    return {
      ok: false,
      reason: 'milliseconds',
      detail: `X-RateLimit-Reset ${reset} looks like milliseconds, not Unix seconds (reference time ${ref})`,
    };
  if (reset < 1e9)
    return {
      ok: false,
      reason: 'relative',
      detail: `X-RateLimit-Reset ${reset} looks like seconds-until-reset, not a Unix timestamp (reference time ${ref})`,
    };
  if (reset < ref - skewSeconds)
    return { ok: false, reason: 'past', detail: `X-RateLimit-Reset ${reset} is ${ref - reset}s before the response time ${ref}` };
  if (reset > ref + windowSeconds + skewSeconds)
    return {
      ok: false,
      reason: 'too-far',
      detail: `X-RateLimit-Reset ${reset} is ${reset - ref}s after the response time ${ref}, more than one ${windowSeconds}s window`,
    };
  return { ok: true };
}
