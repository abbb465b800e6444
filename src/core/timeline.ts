/**
 * One request of a rate-limit scenario as the reports plot it. Written by the
 * load engines (load/lib), read by the report writers (src/results): the one
 * definition both sides share. Type only.
 */
export interface TimelinePoint {
  /** Milliseconds since the scenario started. */
  t: number;
  /** The request's number in the scenario (1-based), as judgements name it ("request #12"). */
  seq?: number;
  /** HTTP status (0 for a transport failure). */
  status: number;
  remaining?: number;
  limit?: number;
  /** X-RateLimit-Reset, Unix seconds as sent. */
  reset?: number;
  /** Retry-After of a 429, in seconds (an HTTP-date converted against the response's Date). */
  retryAfter?: number;
}
