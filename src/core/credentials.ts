/**
 * Wrong credentials derived from the configured key (issue 39), as data: an edit of the key (`KeyEdit`: the case of
 * one letter or all, a prefix, a cut, a suffix, more words after the token, another key of its shape) or a place the
 * spec does not put it (`KeyPlacement`: query parameters, headers and a cookie frameworks read keys from, the Basic
 * scheme). A request, a saved counterexample and a report keep the edit, never the key: the wire is made from the
 * configured key when the request is sent (src/http/credentials.ts: keyWire), so a replay sends the exact request
 * again. Pure; the spec file's choices come from the run's seed, the exploration's from its generators.
 */

/** An edit of the key: each gives a string other than the key (a key of no letter gets a cut instead of a case edit). */
export type KeyEdit =
  | { edit: 'case'; at: number }
  | { edit: 'case-all' }
  | { edit: 'prefix'; n: number }
  | { edit: 'cut'; n: number }
  | { edit: 'suffix'; text: string }
  | { edit: 'words'; words: string[] }
  | { edit: 'shape'; seed: number };

/** The key edited, placed elsewhere than the Authorization header, or under the Basic scheme. */
export type KeyPlacement =
  | { near: KeyEdit }
  /** The key in these query parameters, and no Authorization header (`access_token` alone: RFC 6750 §2.3). */
  | { query: string[] }
  /** The key in these header fields (`cookie`: an api_key cookie), and no Authorization header. */
  | { headers: string[] }
  /** A Basic credential with the key as its user (`key:`) or its password (`user:key`). */
  | { basic: 'user' | 'password' };

/** A small seeded generator (mulberry32): the same seed, the same choices. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random: () => number, n: number) => Math.floor(random() * n);
const flipCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Another string of the key's shape: its letters, digits and punctuation where the key has them, each drawn anew. */
function sameShape(key: string, random: () => number): string {
  const out = [...key].map((c) =>
    /[a-z]/.test(c)
      ? ALNUM[pick(random, 26)]
      : /[A-Z]/.test(c)
        ? ALNUM[pick(random, 26)].toUpperCase()
        : /\d/.test(c)
          ? String(pick(random, 10))
          : c,
  );
  return out.join('') === key ? `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` : out.join('');
}

/** The positions of the key's characters that have another case. */
const lettersOf = (key: string) => [...key].map((c, i) => (flipCase(c) !== c ? i : -1)).filter((i) => i >= 0);

/** The key cut to `n` characters (at least one, at most one short of the key). */
const cutTo = (key: string, n: number) => key.slice(0, Math.max(1, Math.min(key.length - 1, n)));

const half = (key: string) => Math.ceil(key.length / 2);

/** The token an edit makes of `key`: never the key itself. */
export function editKey(key: string, e: KeyEdit): string {
  const letters = lettersOf(key);
  switch (e.edit) {
    case 'case': {
      if (!letters.length) return cutTo(key, key.length - 1);
      const i = letters[e.at % letters.length];
      return key.slice(0, i) + flipCase(key[i]) + key.slice(i + 1);
    }
    case 'case-all':
      return letters.length ? [...key].map(flipCase).join('') : cutTo(key, key.length - 1);
    // At least half of the key is kept: what the redactor hides (a shorter part would show in a report as it is).
    case 'prefix':
      return cutTo(key, Math.max(half(key), e.n));
    case 'cut':
      return cutTo(key, Math.max(half(key), key.length - Math.max(1, e.n)));
    case 'suffix':
      return `${key}${e.text || 'x'}`;
    case 'words':
      return `${key} ${e.words.length ? e.words.join(' ') : 'extra'}`;
    case 'shape':
      return sameShape(key, seeded(e.seed));
  }
}

/** What an edit is, for people (never the value). */
export function editLabel(e: KeyEdit): string {
  switch (e.edit) {
    case 'case':
      return `the key with the case of letter ${e.at + 1} changed`;
    case 'case-all':
      return 'the key with the case of every letter changed';
    case 'prefix':
      return `the key's first ${e.n} characters`;
    case 'cut':
      return `the key cut by ${e.n} character${e.n === 1 ? '' : 's'}`;
    case 'suffix':
      return `the key plus a suffix of ${e.text.length} character${e.text.length === 1 ? '' : 's'}`;
    case 'words':
      return `the key followed by ${e.words.length} more word${e.words.length === 1 ? '' : 's'}`;
    case 'shape':
      return "another key of the key's shape";
  }
}

/**
 * Near-misses of `key`, each differing from it: the case of one letter (and of all), a prefix of at least half, the key
 * with a suffix, the key cut by one, the key followed by whitespace and more words in the token, another key of its shape.
 */
export function nearMissEdits(key: string, seed: number): KeyEdit[] {
  const random = seeded(seed);
  const letters = lettersOf(key);
  const out: KeyEdit[] = [];
  if (letters.length) out.push({ edit: 'case', at: pick(random, letters.length) }, { edit: 'case-all' });
  if (key.length >= 4) {
    const half = Math.ceil(key.length / 2);
    out.push({ edit: 'prefix', n: half + pick(random, Math.max(1, key.length - 1 - half)) });
  }
  out.push({ edit: 'suffix', text: ALNUM[pick(random, ALNUM.length)] });
  if (key.length >= 2) out.push({ edit: 'cut', n: 1 });
  out.push({ edit: 'words', words: [sameShape(key, random), 'extra'] });
  out.push({ edit: 'shape', seed: Math.floor(random() * 2 ** 32) });
  return out;
}

/** Query parameters and header fields frameworks read API keys from (and RFC 6750 §2.3's own parameter). */
export const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'key', 'token'] as const;
export const ACCESS_TOKEN = 'access_token';
export const KEY_HEADERS = ['x-api-key', 'api-key', 'apikey', 'cookie'] as const;

/** The key in another channel than the Authorization header, grouped as the spec file sends them. */
export interface Channel {
  what: string;
  placement: KeyPlacement;
  /** RFC 6750 §2.3's own form: a warning, not a failure, when accepted. */
  latitude?: true;
}

export const CHANNELS: readonly Channel[] = [
  { what: 'the query parameters api_key, apikey, key and token', placement: { query: [...KEY_QUERY_PARAMS] } },
  { what: 'the headers X-API-Key, Api-Key and ApiKey, and an api_key cookie', placement: { headers: [...KEY_HEADERS] } },
  { what: 'the access_token query parameter (RFC 6750 §2.3)', placement: { query: [ACCESS_TOKEN] }, latitude: true },
];

/** Is this placement RFC 6750 §2.3's access_token alone (the latitude)? */
export const isAccessToken = (p: KeyPlacement): boolean => 'query' in p && p.query.length === 1 && p.query[0] === ACCESS_TOKEN;

/** Where a placement puts the key, for people (what AUTH-KEY-CHANNEL names): `the query parameters api_key, key`. */
export function channelLabel(p: KeyPlacement): string {
  if ('query' in p) return `the query parameter${p.query.length > 1 ? 's' : ''} ${p.query.join(', ')}`;
  if ('headers' in p) return p.headers.map((h) => (h === 'cookie' ? 'an api_key cookie' : h)).join(', ');
  if ('basic' in p) return `the ${p.basic} of a Basic credential`;
  return 'the Authorization header, edited';
}

/** What a placement is, for people (never the key). */
export function placementLabel(p: KeyPlacement): string {
  if ('near' in p) return editLabel(p.near);
  if ('basic' in p) return `the key as ${channelLabel(p)}`;
  return `the key in ${channelLabel(p)}, no Authorization`;
}
