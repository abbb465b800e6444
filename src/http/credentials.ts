/**
 * The wire of a wrong credential (src/core/credentials.ts: the edits and places of the key, as data): made from the
 * configured key as the request leaves, so what a request, a report or a saved counterexample keeps is the edit, never
 * the key.
 */
import { CHANNELS, editKey, editLabel, nearMissEdits, type Channel, type KeyEdit, type KeyPlacement } from '../core/credentials.ts';

export * from '../core/credentials.ts';

/** One near-miss: what it is (for people; never the value) and the Authorization header it is sent as. */
export interface NearMiss {
  what: string;
  authorization: string;
  edit: KeyEdit;
}

export function nearMissesOf(key: string, seed: number): NearMiss[] {
  return nearMissEdits(key, seed).map((edit) => ({ what: editLabel(edit), authorization: `Bearer ${editKey(key, edit)}`, edit }));
}

/** What a request carries for a placement of `key`: its Authorization (null: none), query parameters and header fields. */
export interface KeyWire {
  authorization: string | null;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export function keyWire(key: string, p: KeyPlacement): KeyWire {
  if ('near' in p) return { authorization: `Bearer ${editKey(key, p.near)}` };
  if ('query' in p) return { authorization: null, query: Object.fromEntries(p.query.map((q) => [q, key])) };
  if ('headers' in p)
    return { authorization: null, headers: Object.fromEntries(p.headers.map((h) => [h, h === 'cookie' ? `api_key=${key}` : key])) };
  const pair = p.basic === 'user' ? `${key}:` : `user:${key}`;
  return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** The channels with the key in them (what the spec file's requests carry; the client makes the same from the placement). */
export function channelsOf(key: string): (Channel & Omit<KeyWire, 'authorization'>)[] {
  return CHANNELS.map((c) => {
    const { authorization: _none, ...wire } = keyWire(key, c.placement);
    return { ...c, ...wire };
  });
}
