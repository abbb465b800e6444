/**
 * Fault modes written before the generators were extended for issue 39, by an author who had not read them (held out:
 * the benchmark measures how many the suite finds). Each is a bug real deployments have had, in what lies around the
 * request rather than in its text: caches, connections, concurrency, the order of paging and filtering, serializers,
 * id allocation, rate limiters and proxies. Each shows only in some ordinary situations:
 * - cache-serves-anonymous: nginx with `proxy_cache_bypass $http_authorization` but no `proxy_no_cache`: getPet 200s,
 *   sent `Cache-Control: public, max-age=60` (a pet never changes), are stored and served to requests without credentials;
 * - null-cached-lookup: Spring's `@Cacheable` caches a null result unless told `unless = "#result == null"`: an id read
 *   before a pet had it stays "not found" for the cache's 60 s;
 * - list-cache-key-status: `@Cacheable(key = "#status")` on the page query, the limit left out of the key (evicted on
 *   every create);
 * - query-kept-per-connection: a request object recycled per connection without its parsed parameters (the servlet
 *   containers' recycled-facade bugs): a request without a query gets the connection's previous one;
 * - create-id-race: an ORM's `SELECT MAX(id) + 1` read when the create starts, its INSERT committed 20 ms later;
 * - limit-before-filter: DynamoDB's Scan (`Limit` counts the items evaluated, before the FilterExpression), or
 *   `findAll(PageRequest.of(0, limit))` filtered in memory: a status page holds the matches among the first `limit`;
 * - zero-values-omitted: the protobuf JSON mapping's default (protojson, JsonFormat, grpc-gateway): a field holding
 *   its zero value (categoryId 0, name "") is not written;
 * - id-blocks-overlap-500: Hibernate's pooled optimizer, allocationSize = 50, over a sequence INCREMENT BY 1: every
 *   block after the first overlaps the ids already handed out (a duplicate key: 500);
 * - create-counted-twice: express-rate-limit mounted app-wide and again on the POST route (its ERR_ERL_DOUBLE_COUNT);
 * - dedupe-identical-create: creates written through an SQS FIFO queue with content-based deduplication: a body equal
 *   to one sent in the last 5 minutes is dropped, and the first create's 201 answered again;
 * - idle-keepalive-502 (seen by the rate-limit scenarios): an AWS ALB (idle timeout 60 s) before a Node server whose
 *   keepAliveTimeout is 5 s: the first request after 5 s of silence reuses a connection the server closed (502).
 */
import type { Decision } from './limiter.ts';
import type { Has } from './faults.ts';
import { Int64 } from './lossless-json.ts';
import type { Pet, PetStore } from './pet-store.ts';
import type { Reply } from './reply.ts';

/** What the held-out faults of issue 39 (and the held-out variants) keep between requests. */
export interface HeldOut39 {
  now: () => number;
  /** cache-serves-anonymous: getPet 200s by request target. */
  shared: Map<string, { reply: Reply; at: number }>;
  /** null-cached-lookup: ids found absent, and when. */
  absent: Map<bigint, number>;
  /** list-cache-key-status: pages by status alone. */
  pages: Map<string, Pet[]>;
  /** query-kept-per-connection: each connection's last query. */
  queries: WeakMap<object, string>;
  /** create-id-race: the id each create read as it arrived. */
  reserved: WeakMap<object, bigint>;
  /** id-blocks-overlap-500: ids handed out so far, and blocks fetched. */
  pooled: { used: number; blocks: number };
  /** dedupe-identical-create: the 201 of each body, and when. */
  sent: Map<string, { reply: Reply; at: number }>;
  /** idle-keepalive-502: when the balancer last sent a request upstream. */
  lastRequestAt?: number;
  /** Variant ids=snowflake: the millisecond of the last id, and its sequence number. */
  snowflake: { ms: number; seq: number };
}

export function heldOut39(now: () => number): HeldOut39 {
  return {
    now,
    shared: new Map(),
    absent: new Map(),
    pages: new Map(),
    queries: new WeakMap(),
    reserved: new WeakMap(),
    pooled: { used: 0, blocks: 0 },
    sent: new Map(),
    snowflake: { ms: -1, seq: 0 },
  };
}

/** What these functions read of a request (a structural subset of RequestLike). */
interface Incoming {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: object;
}

const GET_PET = /^\/v1\/pets\/[^/?]+(?:\?|$)/;
const CACHE_TTL_MS = 60_000;

/** The connection a request came on: a real socket only (the in-process transport has none). */
function connectionOf(req: Incoming): object | undefined {
  const socket = req.socket as { remotePort?: unknown } | undefined;
  return socket && typeof socket.remotePort === 'number' ? socket : undefined;
}

/**
 * What a proxy in front answers without reaching the app. Fault idle-keepalive-502: the balancer's 502 after 5 s of
 * silence (none of the app's headers). Fault cache-serves-anonymous: a stored getPet 200 for a request without
 * Authorization (requests with one bypass the lookup).
 */
export function frontReply(st: HeldOut39, req: Incoming, has: Has): Reply | undefined {
  const now = st.now();
  if (has('idle-keepalive-502')) {
    const idle = st.lastRequestAt !== undefined && now - st.lastRequestAt >= 5_000;
    st.lastRequestAt = now;
    if (idle) return { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html', bare: true };
  }
  if (!has('cache-serves-anonymous') || req.method !== 'GET' || req.headers.authorization !== undefined) return undefined;
  const hit = st.shared.get(req.url ?? '');
  return hit && now - hit.at < CACHE_TTL_MS ? hit.reply : undefined;
}

/** Fault cache-serves-anonymous: a getPet 200 to a request with credentials is marked public and stored by its target. */
export function stored(st: HeldOut39, req: Incoming, reply: Reply, has: Has): Reply {
  if (!has('cache-serves-anonymous') || req.method !== 'GET' || !GET_PET.test(req.url ?? '') || reply.status !== 200) return reply;
  const out = { ...reply, headers: { ...reply.headers, 'Cache-Control': 'public, max-age=60' } };
  if (req.headers.authorization !== undefined) st.shared.set(req.url ?? '', { reply: out, at: st.now() });
  return out;
}

/** Fault query-kept-per-connection: a request without a query gets its connection's previous query. */
export function keptQuery(st: HeldOut39, req: Incoming, url: URL, has: Has): void {
  const connection = connectionOf(req);
  if (!has('query-kept-per-connection') || !connection) return;
  if (url.search) st.queries.set(connection, url.search);
  else url.search = st.queries.get(connection) ?? '';
}

/** Fault create-id-race: a create reads the next id as it arrives; its commit waits 20 ms (the ms to wait). */
export function reserveOnArrival(st: HeldOut39, req: Incoming, store: PetStore, has: Has): number {
  if (!has('create-id-race') || req.method !== 'POST' || !/^\/v1\/pets(?:\?|$)/.test(req.url ?? '')) return 0;
  st.reserved.set(req, store.peekNextId());
  return 20;
}

export const reservedId = (st: HeldOut39, req: object): bigint | undefined => st.reserved.get(req);

/** Fault null-cached-lookup: a pet by id through a cache that also keeps "no such pet" for 60 s. */
export function lookedUp(st: HeldOut39, store: PetStore, id: bigint, has: Has): Pet | undefined {
  if (!has('null-cached-lookup')) return store.get(id);
  const absentAt = st.absent.get(id);
  if (absentAt !== undefined && st.now() - absentAt < CACHE_TTL_MS) return undefined;
  const pet = store.get(id);
  if (!pet) st.absent.set(id, st.now());
  return pet;
}

/** Fault list-cache-key-status: the page cached under its status alone (null: no filter). */
export function cachedPage(st: HeldOut39, status: string | null, has: Has, read: () => Pet[]): Pet[] {
  if (!has('list-cache-key-status')) return read();
  const key = status ?? '';
  const page = st.pages.get(key) ?? read();
  st.pages.set(key, page);
  return [...page];
}

/** Fault limit-before-filter: the first `size` animals are read, then those of `status` kept. */
export const scannedPage = (store: PetStore, status: string, size: number): Pet[] =>
  store.list(undefined, size).filter((p) => p.status === status);

/** Fault zero-values-omitted: a Pet as the protobuf JSON mapping writes it, without the fields at their zero value. */
export function withoutZeroValues(pet: Record<string, unknown>): Record<string, unknown> {
  const out = { ...pet };
  if (out.name === '') delete out.name;
  if (out.categoryId instanceof Int64 && /^-?0$/.test(out.categoryId.digits)) delete out.categoryId;
  return out;
}

/**
 * Fault id-blocks-overlap-500: the next id of a pooled optimizer (blocks of 50) whose sequence advances by 1: block k
 * starts k - 1 above the first created id. 'duplicate' when that id is held already (the INSERT fails).
 */
export function pooledId(st: HeldOut39, store: PetStore, has: Has): bigint | 'duplicate' | undefined {
  if (!has('id-blocks-overlap-500')) return undefined;
  const offset = st.pooled.used % 50;
  if (offset === 0) st.pooled.blocks++;
  st.pooled.used++;
  const id = store.firstCreatedId + BigInt(st.pooled.blocks - 1 + offset);
  return store.get(id) ? 'duplicate' : id;
}

/** Fault create-counted-twice: a create passes the limiter twice; the headers are the second one's. */
export function countedTwice(first: Decision, operation: string | undefined, has: Has, take: () => Decision): Decision {
  return has('create-counted-twice') && operation === 'createPet' && first.allowed ? take() : first;
}

const DEDUPLICATION_MS = 5 * 60_000;

/** Fault dedupe-identical-create: the 201 of the same body sent within the last 5 minutes, if any. */
export function deduplicated(st: HeldOut39, body: string, has: Has): Reply | undefined {
  const first = has('dedupe-identical-create') ? st.sent.get(body) : undefined;
  return first && st.now() - first.at < DEDUPLICATION_MS ? first.reply : undefined;
}

/** Fault dedupe-identical-create: a 201 remembered by its body; and fault list-cache-key-status: every page evicted. */
export function afterCreate(st: HeldOut39, body: string, reply: Reply, has: Has): Reply {
  if (reply.status !== 201) return reply;
  if (has('dedupe-identical-create')) st.sent.set(body, { reply, at: st.now() });
  st.pages.clear();
  return reply;
}
