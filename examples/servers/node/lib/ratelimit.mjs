/**
 * The spec's rate limits with rate-limiter-flexible (in memory): the library's fixed window per key
 * for the per-minute limit (it starts at a key's first request), and a per-day quota whose days
 * start at multiples of DAY_MS since the Unix epoch (UTC midnight for a real day): the first
 * request of a day sets its record to expire at the day's end (customDuration).
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';

const seconds = (ms) => Math.ceil(ms / 1000);

export class Limits {
  constructor(plan, { windowMs, dayMs }) {
    this.plan = plan;
    this.dayMs = dayMs;
    this.window = new RateLimiterMemory({ keyPrefix: `${plan.name}:window`, points: plan.perWindow, duration: windowMs / 1000 });
    this.day = plan.perDay && new RateLimiterMemory({ keyPrefix: `${plan.name}:day`, points: plan.perDay, duration: dayMs / 1000 });
  }

  /** Counts one request of `who`, or refuses it: { limit, remaining, reset (Unix s), retryAfter (s, when refused) }. */
  async hit(who) {
    const now = Date.now();
    const dayEnd = (Math.floor(now / this.dayMs) + 1) * this.dayMs;
    const today = this.day && (await this.day.get(who));
    // A record is deleted by a timer at the day's end; one still there a moment after it belongs to yesterday.
    if (today && today.msBeforeNext > 0 && today.consumedPoints >= this.plan.perDay)
      // The day's quota is the limit in force: the headers and Retry-After say so.
      return { limit: this.plan.perDay, remaining: 0, reset: seconds(dayEnd), retryAfter: Math.max(1, seconds(dayEnd - now)) };
    let res;
    try {
      res = await this.window.consume(who);
    } catch (refused) {
      if (refused instanceof Error) throw refused;
      const reset = seconds(now + refused.msBeforeNext);
      // The library's own README sends msBeforeNext / 1000 (a fraction); RFC 9110 wants whole delay-seconds.
      return { limit: this.plan.perWindow, remaining: 0, reset, retryAfter: Math.max(1, seconds(refused.msBeforeNext)) };
    }
    if (this.day) await this.day.penalty(who, 1, { customDuration: (dayEnd - now) / 1000 });
    return { limit: this.plan.perWindow, remaining: res.remainingPoints, reset: seconds(now + res.msBeforeNext) };
  }
}

export function rateLimitHeaders(q) {
  const h = { 'X-RateLimit-Limit': q.limit, 'X-RateLimit-Remaining': q.remaining, 'X-RateLimit-Reset': q.reset };
  if (q.retryAfter !== undefined) h['Retry-After'] = q.retryAfter;
  return h;
}
