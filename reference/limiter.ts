/**
 * Rate limiting: per bucket (an API key, or a client address for requests that
 * failed authentication) a per-minute window — fixed (aligned on the epoch) or a
 * sliding log — and a fixed per-day window. Refused requests are not counted.
 *
 * X-RateLimit-Limit is always the per-minute number; Remaining is the smaller of
 * what the minute and the day still allow; Reset is when the binding one resets.
 */
import type { Has } from './faults.ts';

export interface Limits {
  perMinute: number;
  perDay?: number;
}

export interface Decision {
  allowed: boolean;
  /** What X-RateLimit-Limit advertises. */
  limit: number;
  remaining: number;
  /** Epoch ms at which Remaining is restored (X-RateLimit-Reset, before rounding up to seconds). */
  resetAt: number;
  /** When refused: the epoch ms from which a request can succeed. */
  retryAt?: number;
  /** The per-day quota as headers would show it (variant rateLimitHeaders 'day'). */
  day: { limit: number; remaining: number; resetAt: number };
}

export interface LimiterOptions {
  windowMs: number;
  dayMs: number;
  mode: 'fixed' | 'sliding' | 'token-bucket';
  has: Has;
}

interface Bucket {
  windowStart: number;
  count: number;
  /** Sliding mode: times of the accepted requests of the last window. */
  log: number[];
  /** Token-bucket mode: tokens left (fractional) at `refilledAt`. */
  tokens: number;
  refilledAt: number;
  dayStart: number;
  dayCount: number;
  /** Fault sustained-throttle: start of the current unbroken run of requests, last request, accepted requests of the last window. */
  streakStart: number;
  lastAt: number;
  recent: number[];
}

interface MinuteState {
  used: number;
  /** Requests a window may hold (what Remaining counts down from). */
  cap: number;
  /** When the window frees a slot (fixed: its end; sliding: when the oldest entry expires). */
  end: () => number;
  /** When a refused request could succeed, if not at end() (token bucket: the next token). */
  retry?: () => number;
  record: () => void;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly o: LimiterOptions) {}

  /** A new window and day from now on (the embedded server's world re-sized between a run's phases): counts restart on them. */
  resize(windowMs: number, dayMs: number): void {
    Object.assign(this.o, { windowMs, dayMs });
    for (const b of this.buckets.values()) Object.assign(b, { windowStart: -1, count: 0, log: [], tokens: NaN, dayStart: -1, dayCount: 0 });
  }

  take(bucketId: string, limits: Limits, now: number): Decision {
    const { has, dayMs } = this.o;
    const b = this.bucket(bucketId);
    const dayStart = Math.floor(now / dayMs) * dayMs;
    if (b.dayStart !== dayStart) Object.assign(b, { dayStart, dayCount: 0 });
    const dayEnd = dayStart + dayMs;
    const quota = limits.perDay ?? Infinity;
    const perDay = has('daily-ignored') ? Infinity : has('daily-quota-low') ? Math.floor(quota * 0.75) : quota;
    const mode = this.o.mode;
    const minute =
      mode === 'sliding'
        ? this.sliding(b, limits.perMinute, now)
        : mode === 'token-bucket'
          ? this.tokenBucket(b, limits.perMinute, now)
          : this.fixed(b, limits.perMinute, now);
    const allowUpTo = has('throttle-early') ? Math.floor(minute.cap * 0.8) : minute.cap;
    const steady = has('sustained-throttle') && this.steadyCut(b, minute.cap, now);
    const allowed = has('never-429') || (!steady && minute.used < allowUpTo && b.dayCount < perDay);
    if (allowed) {
      minute.record();
      b.dayCount++;
      if (has('sustained-throttle')) b.recent.push(now);
    }
    const remainingMinute = steady ? 0 : Math.max(0, minute.cap - minute.used - (allowed ? 1 : 0));
    const remainingDay = Math.max(0, perDay - b.dayCount);
    const dayBinding = remainingDay < remainingMinute || b.dayCount >= perDay;
    const resetAt = dayBinding ? dayEnd : minute.end();
    return {
      allowed,
      limit: limits.perMinute,
      remaining: Math.min(remainingMinute, remainingDay),
      resetAt,
      ...(allowed ? {} : { retryAt: b.dayCount >= perDay ? dayEnd : (minute.retry ?? minute.end)() }),
      day: { limit: perDay, remaining: remainingDay, resetAt: dayEnd },
    };
  }

  private bucket(id: string): Bucket {
    let b = this.buckets.get(id);
    if (!b) {
      b = {
        windowStart: -1,
        count: 0,
        log: [],
        tokens: NaN,
        refilledAt: 0,
        dayStart: -1,
        dayCount: 0,
        streakStart: 0,
        lastAt: -Infinity,
        recent: [],
      };
      this.buckets.set(id, b);
    }
    return b;
  }

  /**
   * Fault sustained-throttle: a key that has sent without a pause longer than a
   * tenth of the window for half a window, and used 75% of its limit over the
   * last window, is refused. Bursts and clients that pause are unaffected.
   */
  private steadyCut(b: Bucket, cap: number, now: number): boolean {
    const { windowMs } = this.o;
    if (now - b.lastAt > windowMs / 10) b.streakStart = now;
    b.lastAt = now;
    while (b.recent.length && b.recent[0] + windowMs <= now) b.recent.shift();
    return now - b.streakStart >= windowMs / 2 && b.recent.length >= Math.ceil(cap * 0.75);
  }

  private fixed(b: Bucket, limit: number, now: number): MinuteState {
    // Fault window-10s: ceil(limit / 6) per sixth of the window.
    const short = this.o.has('window-10s');
    const w = short ? this.o.windowMs / 6 : this.o.windowMs;
    const start = Math.floor(now / w) * w;
    if (b.windowStart !== start) Object.assign(b, { windowStart: start, count: 0 });
    return { used: b.count, cap: short ? Math.ceil(limit / 6) : limit, end: () => start + w, record: () => void b.count++ };
  }

  /**
   * Token bucket: capacity `limit`, refilled continuously at `limit` per window.
   * Remaining is the whole tokens left (it may rise by one between requests);
   * Reset is when the bucket is full again; a refused request may retry when
   * the next token arrives. At most 2 × limit − 1 requests fit in any window.
   */
  private tokenBucket(b: Bucket, limit: number, now: number): MinuteState {
    const perToken = this.o.windowMs / limit;
    if (Number.isNaN(b.tokens)) b.tokens = limit;
    else b.tokens = Math.min(limit, b.tokens + (now - b.refilledAt) / perToken);
    b.refilledAt = now;
    return {
      used: limit - Math.floor(b.tokens + 1e-9),
      cap: limit,
      end: () => now + Math.ceil((limit - b.tokens) * perToken),
      retry: () => now + Math.ceil(Math.max(0, 1 - b.tokens) * perToken),
      record: () => void (b.tokens -= 1),
    };
  }

  private sliding(b: Bucket, limit: number, now: number): MinuteState {
    const { windowMs } = this.o;
    while (b.log.length && b.log[0] + windowMs <= now) b.log.shift();
    return {
      used: b.log.length,
      cap: limit,
      end: () => (b.log.length ? b.log[0] : now) + windowMs,
      record: () => void b.log.push(now),
    };
  }
}
