/**
 * The API client of a conformance run: builds requests for an operation, sends
 * them through the transport, paces itself on X-RateLimit-Remaining so a
 * Free-plan key completes a run without a 429, honours Retry-After (seconds or
 * HTTP-date) and retries once if a 429 comes anyway, and enforces the run's
 * request budget and deadline. Every exchange (including a 429 that was retried)
 * is handed to `onExchange` so the response checks see every response.
 */
import { parseJson, stringifyExact, type DuplicateMember, type JsonValue } from '../core/json.ts';
import { header, parseRetryAfter, readRateLimit, retryAfterDelayMs, serverDate } from '../core/ratelimit.ts';
import { send, type Exchange, type OutgoingRequest, type TransportOptions } from './transport.ts';
import type { NetworkConfig } from '../settings/network.ts';
import { Flight, Latencies, widthFor } from './flight.ts';
import { keyWire, type KeyPlacement } from './credentials.ts';

const MINUTE_MS = 60_000;

/** Methods that cannot write (RFC 9110 §9.2.1, and QUERY by its definition): the only ones sent with writes off, unless a request says why it is harmless. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'QUERY']);

export type { OperationId } from '../core/operations.ts';
import type { OperationId } from '../core/operations.ts';

/**
 * Which credential a request carries: the configured key, none, a raw Authorization value, or the configured key
 * spelled another way HTTP allows (`spelled`: the Authorization value with `{key}` where the key goes, e.g.
 * `bearer {key}`).
 */
/**
 * The request's credential: the configured key, none, an Authorization value, the key spelled another way (`{key}`),
 * or the key edited or placed elsewhere (credentials.ts: the wire is made from the key as the request leaves).
 */
export type Credential = 'valid' | 'none' | { authorization: string } | { spelled: string } | { placed: KeyPlacement };

export interface ApiRequest {
  operation: OperationId;
  method: OutgoingRequest['method'];
  /** Path relative to the base URL, e.g. `/pets` or `/pets/123`. */
  path: string;
  query?: Record<string, string>;
  /** A value to serialize with exact int64 digits, or a raw string body. */
  body?: unknown;
  rawBody?: string;
  /** Send the body chunked (Transfer-Encoding: chunked, no Content-Length), in chunks of these sizes in bytes (cycled). */
  chunks?: number[];
  contentType?: string;
  auth?: Credential;
  /** Headers set, replaced or (null) left out after the client's own (Accept, Content-Type): the request's spelling. */
  headers?: Record<string, string | null>;
  /** The query string exactly as sent (repeated, percent-encoded or case-variant names): replaces `query` on the wire. */
  rawQuery?: string;
  /**
   * A request the spec does not describe (a method a path does not take, HEAD, OPTIONS, the key in another channel):
   * the response checks that judge a documented operation's answers (status, media type, schemas, rate-limit headers,
   * deprecation) leave it to the spec that sent it, which judges what the spec and RFC 9110 say of it.
   */
  offSpec?: true;
  /**
   * Why this request cannot write, though its method is not safe (RFC 9110 §9.2.1): it carries no valid key, it
   * targets an id no server issued, its method is an extension no server implements. Sent with writes off.
   */
  harmless?: string;
  /**
   * Requests that test what they test only in flight together (creates racing for an id): this one may go while as
   * many are in flight, whatever the latency (at most MAX_IN_FLIGHT, never more than Remaining allows).
   */
  together?: number;
  /**
   * Requests given one name go one after another on one connection of their own (OutgoingRequest.connection): a
   * request that must follow another on the same connection (a query, a credential the connection must not keep).
   */
  connection?: string;
  /** Statuses the spec test accepts besides the documented ones (e.g. 400 for an out-of-range limit). */
  alsoAcceptable?: number[];
}

export interface ApiExchange extends Exchange {
  api: ApiRequest;
  /** Parsed body (lossless) when the response body is JSON. */
  json?: JsonValue;
  jsonError?: string;
  /** The member names an object of the parsed body holds twice (RFC 8259 §4), when there is one. */
  jsonDuplicates?: readonly DuplicateMember[];
  /** True for a 429 the client waited out and retried. */
  retried?: boolean;
  /** How many requests the call that returned this exchange sent (2: a 429 waited out and retried). */
  sends?: number;
  /** The retry of a 429 sent after waiting out its whole Retry-After: what it asked for and what was waited. */
  afterRetryAfter?: { retryAfter: string; waitedMs: number };
}

export class RunAborted extends Error {
  constructor(
    readonly reason: 'budget' | 'deadline' | 'unreachable' | 'unresponsive' | 'interrupted' | 'max-wait' | 'key-refused',
    message: string,
    /** One line saying what most likely went wrong, shown before any detail. */
    readonly diagnosis?: string,
  ) {
    super(message);
    this.name = 'RunAborted';
  }
}

/** After this many authenticated requests, all answered 401, the run stops: the key was refused. */
export const KEY_REFUSED_AFTER = 3;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  /** The route and TLS to the target (src/settings/network.ts). */
  network?: NetworkConfig;
  maxRequests: number;
  deadlineAt: number;
  maxWaitMs: number;
  /** When false, no POST ever leaves the client (production with writes off). */
  allowWrites?: boolean;
  /** The rate the requests in flight aim at (flight.ts: TARGET_RATE_PER_S unless given; the embedded server's run goes faster). */
  targetRatePerS?: number;
  onExchange: (ex: ApiExchange) => void;
  /** Called as each request leaves (in the async context of whoever sent it: a spec test counts its own). */
  onSend?: () => void;
  /** Called before the client waits on a window or a Retry-After: what for and how long. */
  onWait?: (what: string, ms: number) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The transport (tests: an in-process one on a virtual clock); undici by default. */
  send?: (req: OutgoingRequest, opts: TransportOptions) => Promise<Exchange>;
}

interface Bucket {
  remaining?: number;
  /** Local time (ms) at which the window is expected to reset. */
  resetAtLocal?: number;
  /** X-RateLimit-Reset as sent: responses of one window say the same. */
  reset?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ApiClient {
  requestsSent = 0;
  waitedMs = 0;
  /** Authenticated requests answered so far, and how many of them were 401. */
  private authAnswered = 0;
  private authRefused = 0;
  private buckets = new Map<string, Bucket>();
  private consecutiveRefused = 0;
  private consecutiveFailures = 0;
  /** After this many transport failures in a row the run stops: the server is not answering. */
  static readonly MAX_CONSECUTIVE_FAILURES = 3;

  constructor(readonly opts: ClientOptions) {}

  /** The client's clock (epoch ms; a test's virtual one). */
  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** X-RateLimit-Remaining of the key's last response, when it said (how many requests may go out together). */
  remainingOnKey(): number | undefined {
    return this.buckets.get('key')?.remaining;
  }

  /** Why the client stopped sending (the key refused, the target unreachable or unresponsive): every later request throws it. */
  private stopped?: RunAborted;

  private stop(e: RunAborted): RunAborted {
    this.stopped ??= e;
    return e;
  }

  private sleep(ms: number) {
    this.waitedMs += ms;
    return (this.opts.sleep ?? defaultSleep)(ms);
  }

  url(path: string, query?: Record<string, string>, rawQuery?: string): string {
    const u = new URL(this.opts.baseUrl + path);
    if (rawQuery !== undefined) return `${u.toString()}${rawQuery === '' ? '' : `?${rawQuery}`}`;
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u.toString();
  }

  private headersFor(req: ApiRequest): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    const auth = req.auth ?? 'valid';
    if (auth === 'valid' && this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    else if (typeof auth === 'object' && 'spelled' in auth) h.authorization = auth.spelled.replace('{key}', this.opts.apiKey ?? '');
    else if (typeof auth === 'object' && 'placed' in auth) Object.assign(h, this.placed(auth.placed).headers);
    else if (typeof auth === 'object') h.authorization = auth.authorization;
    if (req.rawBody !== undefined || req.body !== undefined) h['content-type'] = req.contentType ?? 'application/json';
    for (const [k, v] of Object.entries(req.headers ?? {})) {
      if (v === null) delete h[k.toLowerCase()];
      else h[k.toLowerCase()] = v;
    }
    return h;
  }

  /** The header fields and query parameters a placement of the configured key puts on the wire. */
  private placed(p: KeyPlacement): { headers: Record<string, string>; query?: Record<string, string> } {
    const w = keyWire(this.opts.apiKey ?? '', p);
    return { headers: { ...(w.authorization !== null ? { authorization: w.authorization } : {}), ...w.headers }, query: w.query };
  }

  /** The URL of a request: with the query parameters its credential's placement adds. */
  urlOf(req: Pick<ApiRequest, 'path' | 'query' | 'rawQuery' | 'auth'>): string {
    const extra = typeof req.auth === 'object' && 'placed' in req.auth ? this.placed(req.auth.placed).query : undefined;
    if (!extra) return this.url(req.path, req.query, req.rawQuery);
    if (req.rawQuery === undefined) return this.url(req.path, { ...req.query, ...extra });
    const more = new URLSearchParams(extra).toString();
    return this.url(req.path, undefined, req.rawQuery === '' ? more : `${req.rawQuery}&${more}`);
  }

  private bucketKey(req: ApiRequest) {
    const auth = req.auth ?? 'valid';
    return auth === 'valid' || (typeof auth === 'object' && 'spelled' in auth) ? 'key' : 'anonymous';
  }

  private remember(key: string, ex: Exchange) {
    const res = ex.response;
    if (!res) return;
    const rl = readRateLimit(res.headers);
    const b: Bucket = {};
    // A 429 means nothing remains — unless it came again after its Retry-After was waited out: that 429 is not a rate limit, and pacing on it would stall the run.
    if (rl.remaining !== undefined) b.remaining = res.status === 429 && !(ex as ApiExchange).afterRetryAfter ? 0 : rl.remaining;
    // Requests in flight together come back in any order: within one window, the lowest Remaining is the latest count.
    const old = this.buckets.get(key);
    if (old?.remaining !== undefined && b.remaining !== undefined && rl.reset !== undefined && old.reset === rl.reset)
      b.remaining = Math.min(old.remaining, b.remaining);
    if (rl.reset !== undefined) b.reset = rl.reset;
    const ref = serverDate(res.headers);
    if (rl.reset !== undefined && rl.reset > 1e9 && rl.reset < 1e11) {
      const untilMs = rl.reset * 1000 - (ref ?? this.now());
      b.resetAtLocal = this.now() + Math.max(0, untilMs) + 1000; // Date has 1 s resolution
    }
    this.buckets.set(key, b);
  }

  /** Wait for the window when the last response said nothing remains (never longer than --max-wait-ms: the run stops instead). */
  private async pace(key: string) {
    const b = this.buckets.get(key);
    if (!b || b.remaining === undefined || b.remaining > 0) return;
    const wait = b.resetAtLocal !== undefined ? b.resetAtLocal - this.now() : Math.min(MINUTE_MS, this.opts.maxWaitMs);
    if (wait > this.opts.maxWaitMs)
      throw new RunAborted(
        'max-wait',
        `X-RateLimit-Remaining is 0 and the limit resets in ${Math.round(wait / 1000)} s, more than the ${Math.round(this.opts.maxWaitMs / 1000)} s this run waits (--max-wait-ms): the key's quota is used up`,
      );
    if (wait > 0)
      await this.waitBounded(
        wait,
        `the rate-limit window to reset (X-RateLimit-Remaining 0${key === 'anonymous' ? ', unauthenticated requests' : ''})`,
      );
    this.buckets.delete(key);
  }

  private async waitBounded(ms: number, what: string) {
    if (this.now() + ms > this.opts.deadlineAt)
      throw new RunAborted('deadline', `the run deadline would pass while waiting ${Math.round(ms / 1000)} s for ${what}`);
    if (this.opts.onWait) this.opts.onWait(what, ms);
    await this.sleep(ms);
  }

  private async once(req: ApiRequest): Promise<ApiExchange> {
    if (this.opts.allowWrites === false && !SAFE_METHODS.has(req.method) && !req.harmless)
      throw new Error(
        `refused to send ${req.method} ${req.path}: writes are off (the default in production, or --allow-writes false, or ANIMAL_STORE_ALLOW_WRITES=false)`,
      );
    if (this.stopped) throw this.stopped;
    if (this.requestsSent >= this.opts.maxRequests)
      throw new RunAborted('budget', `request budget of ${this.opts.maxRequests} reached (ANIMAL_STORE_MAX_REQUESTS)`);
    if (this.now() >= this.opts.deadlineAt) throw new RunAborted('deadline', 'run deadline reached (ANIMAL_STORE_DEADLINE_MS)');
    const body = req.rawBody !== undefined ? req.rawBody : req.body !== undefined ? stringifyExact(req.body) : undefined;
    const out: OutgoingRequest = {
      method: req.method,
      url: this.urlOf(req),
      headers: this.headersFor(req),
      body,
      ...(req.chunks?.length && body !== undefined ? { chunks: req.chunks } : {}),
      ...(req.connection !== undefined ? { connection: req.connection } : {}),
    };
    this.requestsSent++;
    this.opts.onSend?.();
    const ex: ApiExchange = { ...(await (this.opts.send ?? send)(out, this.opts)), api: req };
    if (ex.error?.kind === 'refused' || ex.error?.kind === 'dns' || ex.error?.kind === 'proxy') {
      if (++this.consecutiveRefused >= 3 || this.requestsSent <= 1)
        throw this.stop(new RunAborted('unreachable', `target unreachable: ${ex.error.message}`));
    } else this.consecutiveRefused = 0;
    // A timeout on the client's own account (a busy machine) says nothing of the server: it neither counts nor clears.
    if (!ex.error?.clientLate) this.consecutiveFailures = ex.error ? this.consecutiveFailures + 1 : 0;
    if (ex.response && !ex.error) {
      const ct = header(ex.response.headers, 'content-type') ?? '';
      const text = ex.response.bodyText;
      if (text.trim() !== '' && (/json/i.test(ct) || /^\s*[[{]/.test(text))) {
        try {
          const parsed = parseJson(text);
          ex.json = parsed.value;
          if (parsed.duplicates.length > 0) ex.jsonDuplicates = parsed.duplicates;
        } catch (e) {
          ex.jsonError = (e as Error).message;
        }
      }
    }
    return ex;
  }

  /** Every authenticated request answered 401 (at least KEY_REFUSED_AFTER of them): stop, the key was refused. */
  private watchKey(req: ApiRequest, ex: ApiExchange): void {
    if ((req.auth ?? 'valid') !== 'valid' || !ex.response) return;
    this.authAnswered++;
    if (ex.response.status === 401) this.authRefused++;
    if (this.authAnswered >= KEY_REFUSED_AFTER && this.authRefused === this.authAnswered)
      throw this.stop(
        new RunAborted(
          'key-refused',
          `the API key was refused: all ${this.authAnswered} authenticated requests were answered 401`,
          'the API key was refused (every authenticated request was answered 401): check ANIMAL_STORE_API_KEY and the base URL; if the key is right, the server rejects valid keys (AUTH-VALID-KEY-ACCEPTED)',
        ),
      );
  }

  /** A 429 on the very first authenticated request: the key's quota is used up, or the key is banned for a while. */
  private firstThrottled(ex: ApiExchange): void {
    const res = ex.response!;
    const wait = retryAfterDelayMs(parseRetryAfter(header(res.headers, 'retry-after')), this.now(), serverDate(res.headers));
    if (wait !== undefined && wait <= this.opts.maxWaitMs) return;
    throw new RunAborted(
      'max-wait',
      `the very first authenticated request was answered 429${wait !== undefined ? ` asking to wait ${Math.round(wait / 1000)} s` : ''}, more than the run waits (--max-wait-ms)`,
      `the key was throttled before the run sent anything else (429 on the first request${wait !== undefined ? `, Retry-After ${Math.round(wait / 1000)} s` : ''}): its quota is used up, or it is banned for a while — wait, or use another key`,
    );
  }

  /** How long the last exchanges took. */
  readonly latency = new Latencies();
  /** The requests in flight: as many as the latency needs (flight.ts), on each bucket never more than its Remaining allows. */
  readonly flight = new Flight(
    (bucket) => this.buckets.get(bucket)?.remaining,
    () => widthFor(this.latency.median(), this.opts.targetRatePerS),
  );

  /**
   * Send one request on `key`'s bucket once a slot is free (flight.ts: the cap, and never more in flight than the last
   * X-RateLimit-Remaining said: a request waits for one in flight to come back, or, none being, for the window).
   */
  private async reserved(key: string, send: () => Promise<ApiExchange>, atLeast = 0): Promise<ApiExchange> {
    const release = await this.flight.acquire(key, atLeast);
    try {
      await this.pace(key);
      const ex = await send();
      this.latency.took(ex.durationMs);
      this.remember(key, ex);
      return ex;
    } finally {
      release();
    }
  }

  /**
   * Send one API request. A 429 is checked, waited out (Retry-After, else the
   * window reset, else a bounded backoff) and retried once.
   */
  async request(req: ApiRequest): Promise<ApiExchange> {
    if (this.stopped) throw this.stopped;
    if (this.consecutiveFailures >= ApiClient.MAX_CONSECUTIVE_FAILURES)
      throw this.stop(
        new RunAborted(
          'unresponsive',
          `the server failed ${this.consecutiveFailures} requests in a row (timeouts, resets or oversized bodies); the run stopped instead of waiting on every request`,
        ),
      );
    const key = this.bucketKey(req);
    const first = await this.reserved(key, () => this.once(req), req.together);
    if (first.response?.status !== 429) {
      this.opts.onExchange(first);
      this.watchKey(req, first);
      return Object.assign(first, { sends: 1 });
    }
    first.retried = true;
    this.opts.onExchange(first);
    if (key === 'key' && this.authAnswered === 0) this.firstThrottled(first);
    const ra = parseRetryAfter(header(first.response.headers, 'retry-after'));
    const b = this.buckets.get(key);
    // Retry-After; without a usable one, the window's Reset (or one whole minute): never an early retry.
    let wait = retryAfterDelayMs(ra, this.now(), serverDate(first.response.headers));
    if (wait === undefined) wait = b?.resetAtLocal !== undefined ? b.resetAtLocal - this.now() : MINUTE_MS;
    const waitMs = Math.max(0, wait) + 250 + Math.random() * 250;
    if (waitMs > this.opts.maxWaitMs)
      throw new RunAborted(
        'max-wait',
        `a 429 asked to wait ${Math.round(wait / 1000)} s (${ra.kind === 'absent' ? 'no Retry-After' : `Retry-After: ${'raw' in ra ? ra.raw : ''}`}), more than the ${Math.round(this.opts.maxWaitMs / 1000)} s this run waits (--max-wait-ms); the run stopped rather than retry early`,
      );
    await this.waitBounded(waitMs, `the Retry-After of a 429 on ${req.operation}`);
    this.buckets.delete(key);
    const second = await this.reserved(key, async () => {
      const ex = await this.once(req);
      if (ra.kind === 'seconds' || ra.kind === 'date') ex.afterRetryAfter = { retryAfter: ra.raw, waitedMs: Math.round(waitMs) };
      return ex;
    });
    this.opts.onExchange(second);
    this.watchKey(req, second);
    return Object.assign(second, { sends: 2 });
  }
}
