/**
 * The API client of a conformance run: builds requests for an operation, sends
 * them through the transport, paces itself on X-RateLimit-Remaining so a
 * Free-plan key completes a run without a 429, honours Retry-After (seconds or
 * HTTP-date) and retries once if a 429 comes anyway, and enforces the run's
 * request budget and deadline. Every exchange (including a 429 that was retried)
 * is handed to `onExchange` so the response checks see every response.
 */
import { parseJson, stringifyExact, type JsonValue } from '../core/json.ts';
import { header, parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate } from '../core/ratelimit.ts';
import { send, type Exchange, type OutgoingRequest } from './transport.ts';

export type OperationId = 'listPets' | 'createPet' | 'getPet';

/** Which credential a request carries: the configured key, none, or a raw Authorization value. */
export type Credential = 'valid' | 'none' | { authorization: string };

export interface ApiRequest {
  operation: OperationId;
  method: OutgoingRequest['method'];
  /** Path relative to the base URL, e.g. `/pets` or `/pets/123`. */
  path: string;
  query?: Record<string, string>;
  /** A value to serialize with exact int64 digits, or a raw string body. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  auth?: Credential;
  /** Statuses the spec test accepts besides the documented ones (e.g. 400 for an out-of-range limit). */
  alsoAcceptable?: number[];
}

export interface ApiExchange extends Exchange {
  api: ApiRequest;
  /** Parsed body (lossless) when the response body is JSON. */
  json?: JsonValue;
  jsonError?: string;
  /** True for a 429 the client waited out and retried. */
  retried?: boolean;
  /** The retry of a 429 sent after waiting out its whole Retry-After: what it asked for and what was waited. */
  afterRetryAfter?: { retryAfter: string; waitedMs: number };
}

export class RunAborted extends Error {
  constructor(
    readonly reason: 'budget' | 'deadline' | 'unreachable' | 'unresponsive' | 'interrupted',
    message: string,
  ) {
    super(message);
    this.name = 'RunAborted';
  }
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxRequests: number;
  deadlineAt: number;
  maxWaitMs: number;
  /** When false, no POST ever leaves the client (production with writes off). */
  allowWrites?: boolean;
  onExchange: (ex: ApiExchange) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

interface Bucket {
  remaining?: number;
  /** Local time (ms) at which the window is expected to reset. */
  resetAtLocal?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ApiClient {
  requestsSent = 0;
  waitedMs = 0;
  private buckets = new Map<string, Bucket>();
  private consecutiveRefused = 0;
  private consecutiveFailures = 0;
  /** After this many transport failures in a row the run stops: the server is not answering. */
  static readonly MAX_CONSECUTIVE_FAILURES = 3;

  constructor(readonly opts: ClientOptions) {}

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  private sleep(ms: number) {
    this.waitedMs += ms;
    return (this.opts.sleep ?? defaultSleep)(ms);
  }

  url(path: string, query?: Record<string, string>): string {
    const u = new URL(this.opts.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u.toString();
  }

  private headersFor(req: ApiRequest): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    const auth = req.auth ?? 'valid';
    if (auth === 'valid' && this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    else if (typeof auth === 'object') h.authorization = auth.authorization;
    if (req.rawBody !== undefined || req.body !== undefined) h['content-type'] = req.contentType ?? 'application/json';
    return h;
  }

  private bucketKey(req: ApiRequest) {
    return (req.auth ?? 'valid') === 'valid' ? 'key' : 'anonymous';
  }

  private remember(key: string, ex: Exchange) {
    const res = ex.response;
    if (!res) return;
    const rl = readRateLimit(res.headers);
    const b: Bucket = {};
    // A 429 means nothing remains — unless it came again after its Retry-After was waited out: that 429 is not a rate limit, and pacing on it would stall the run.
    if (rl.remaining !== undefined) b.remaining = res.status === 429 && !(ex as ApiExchange).afterRetryAfter ? 0 : rl.remaining;
    const ref = serverDate(res.headers);
    if (rl.reset !== undefined && rl.reset > 1e9 && rl.reset < 1e11) {
      const untilMs = rl.reset * 1000 - (ref ?? this.now());
      b.resetAtLocal = this.now() + Math.max(0, untilMs) + 1000; // Date has 1 s resolution
    }
    this.buckets.set(key, b);
  }

  /** Wait for the window when the last response said nothing remains. */
  private async pace(key: string) {
    const b = this.buckets.get(key);
    if (!b || b.remaining === undefined || b.remaining > 0) return;
    const wait = b.resetAtLocal !== undefined ? b.resetAtLocal - this.now() : this.opts.maxWaitMs;
    if (wait > 0) await this.waitBounded(Math.min(wait, this.opts.maxWaitMs));
    this.buckets.delete(key);
  }

  private async waitBounded(ms: number) {
    if (this.now() + ms > this.opts.deadlineAt)
      throw new RunAborted('deadline', `the run deadline would pass while waiting ${Math.round(ms / 1000)} s for the rate-limit window`);
    await this.sleep(ms);
  }

  private async once(req: ApiRequest): Promise<ApiExchange> {
    if (this.opts.allowWrites === false && req.method !== 'GET' && req.method !== 'HEAD')
      throw new Error(`refused to send ${req.method} ${req.path}: writes are disabled (ANIMAL_STORE_ALLOW_WRITES=false)`);
    if (this.requestsSent >= this.opts.maxRequests)
      throw new RunAborted('budget', `request budget of ${this.opts.maxRequests} reached (ANIMAL_STORE_MAX_REQUESTS)`);
    if (this.now() >= this.opts.deadlineAt) throw new RunAborted('deadline', 'run deadline reached (ANIMAL_STORE_DEADLINE_MS)');
    const body = req.rawBody !== undefined ? req.rawBody : req.body !== undefined ? stringifyExact(req.body) : undefined;
    const out: OutgoingRequest = { method: req.method, url: this.url(req.path, req.query), headers: this.headersFor(req), body };
    this.requestsSent++;
    const ex: ApiExchange = { ...(await send(out, this.opts)), api: req };
    if (ex.error?.kind === 'refused' || ex.error?.kind === 'dns') {
      if (++this.consecutiveRefused >= 3 || this.requestsSent <= 1)
        throw new RunAborted('unreachable', `target unreachable: ${ex.error.message}`);
    } else this.consecutiveRefused = 0;
    this.consecutiveFailures = ex.error ? this.consecutiveFailures + 1 : 0;
    if (ex.response && !ex.error) {
      const ct = header(ex.response.headers, 'content-type') ?? '';
      const text = ex.response.bodyText;
      if (text.trim() !== '' && (/json/i.test(ct) || /^\s*[[{]/.test(text))) {
        try {
          ex.json = parseJson(text).value;
        } catch (e) {
          ex.jsonError = (e as Error).message;
        }
      }
    }
    return ex;
  }

  /**
   * Send one API request. A 429 is checked, waited out (Retry-After, else the
   * window reset, else a bounded backoff) and retried once.
   */
  async request(req: ApiRequest): Promise<ApiExchange> {
    if (this.consecutiveFailures >= ApiClient.MAX_CONSECUTIVE_FAILURES)
      throw new RunAborted(
        'unresponsive',
        `the server failed ${this.consecutiveFailures} requests in a row (timeouts, resets or oversized bodies); the run stopped instead of waiting on every request`,
      );
    const key = this.bucketKey(req);
    await this.pace(key);
    const first = await this.once(req);
    this.remember(key, first);
    if (first.response?.status !== 429) {
      this.opts.onExchange(first);
      return first;
    }
    first.retried = true;
    this.opts.onExchange(first);
    const ra = parseRetryAfter(header(first.response.headers, 'retry-after'));
    const b = this.buckets.get(key);
    let wait = retryAfterDelayMs(ra, this.now(), serverDate(first.response.headers));
    if (wait === undefined) wait = b?.resetAtLocal !== undefined ? b.resetAtLocal - this.now() : 2000 + Math.random() * 3000;
    const waitMs = Math.min(Math.max(0, wait) + 250 + Math.random() * 250, this.opts.maxWaitMs);
    await this.waitBounded(waitMs);
    this.buckets.delete(key);
    const second = await this.once(req);
    if ((ra.kind === 'seconds' || ra.kind === 'date') && waitMs >= wait)
      second.afterRetryAfter = { retryAfter: ra.raw, waitedMs: Math.round(waitMs) };
    this.remember(key, second);
    this.opts.onExchange(second);
    return second;
  }
}
