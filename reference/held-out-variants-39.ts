/**
 * Valid variants written with the held-out faults of issue 39, in other stacks' idioms: unusual, correct, and to be
 * certified (they guard the suite against false alarms where those faults live):
 * - listOrder=newest: pages newest first (Rails' `order(created_at: :desc)`, Django's `ordering = ['-id']`);
 * - listOrder=name: pages ordered by name, byte order (a Postgres "C" collation, `ORDER BY name`);
 * - ids=snowflake: ids made of the time, a worker and a sequence (Twitter's Snowflake, Sonyflake, Discord's ids):
 *   unique, rising with time, far apart and near 2^61 — never consecutive;
 * - maxRequestsPerConnection=N: a connection closed after N requests, the last answered `Connection: close` (nginx's
 *   keepalive_requests, Node's server.maxRequestsPerSocket, Gunicorn's max_requests).
 */
import type { HeldOut39 } from './held-out-faults-39.ts';
import type { Pet, PetStore } from './pet-store.ts';

export type ListOrder = 'created' | 'newest' | 'name';

/** Text of a name for ordering: byte order of its UTF-16 units (names that are no string sort as their JSON). */
const sortKey = (p: Pet): string => (typeof p.name === 'string' ? p.name : (JSON.stringify(p.name) ?? ''));

/** Variant listOrder: the page of `status` (undefined: any), in the variant's order, `size` at most. */
export function orderedPage(store: PetStore, status: string | undefined, size: number, order: ListOrder): Pet[] {
  if (order === 'created') return store.list(status, size);
  const all = store.list(status);
  const sorted = order === 'newest' ? all.reverse() : all.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return sorted.slice(0, size);
}

/** Twitter's epoch (2010-11-04T01:42:54.657Z) and this server's worker number. */
const EPOCH_MS = 1288834974657;
const WORKER = 1n;

/** Variant ids=snowflake: 41 bits of ms since the epoch, 10 of worker, 12 of sequence (the next ms when they run out). */
export function snowflakeId(st: HeldOut39): bigint {
  const now = Math.max(st.now(), st.snowflake.ms);
  if (now === st.snowflake.ms) st.snowflake.seq++;
  else st.snowflake = { ms: now, seq: 0 };
  if (st.snowflake.seq > 4095) st.snowflake = { ms: now + 1, seq: 0 };
  return (BigInt(st.snowflake.ms - EPOCH_MS) << 22n) | (WORKER << 12n) | BigInt(st.snowflake.seq);
}
