/**
 * Wrong credentials derived from the configured key (issue 39): near-misses of the key — each a different string, so
 * a server that compares keys exactly refuses them all — and the key in channels the spec does not name. Pure; the
 * choices (which character, how long a prefix) come from the run's seed, so a run's requests are replayable.
 */

/** One near-miss: what it is (for people; never the value) and the Authorization header it is sent as. */
export interface NearMiss {
  what: string;
  authorization: string;
}

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

/**
 * Near-misses of `key`, each differing from it: the case of one letter (and of all), a prefix, the key with a suffix,
 * the key cut by one, the key followed by whitespace and more words in the token, another key of its shape.
 */
export function nearMissesOf(key: string, seed: number): NearMiss[] {
  const random = seeded(seed);
  const bearer = (token: string) => `Bearer ${token}`;
  const letters = [...key].map((c, i) => (flipCase(c) !== c ? i : -1)).filter((i) => i >= 0);
  const out: NearMiss[] = [];
  if (letters.length) {
    const i = letters[pick(random, letters.length)];
    out.push({
      what: `the key with the case of character ${i + 1} changed`,
      authorization: bearer(key.slice(0, i) + flipCase(key[i]) + key.slice(i + 1)),
    });
    const all = [...key].map(flipCase).join('');
    if (all !== key) out.push({ what: 'the key with the case of every letter changed', authorization: bearer(all) });
  }
  if (key.length >= 4) {
    const n = Math.ceil(key.length / 2) + pick(random, Math.max(1, key.length - 1 - Math.ceil(key.length / 2)));
    out.push({ what: `the key's first ${n} of ${key.length} characters`, authorization: bearer(key.slice(0, n)) });
  }
  out.push({ what: 'the key plus a suffix', authorization: bearer(`${key}${ALNUM[pick(random, ALNUM.length)]}`) });
  if (key.length >= 2) out.push({ what: 'the key truncated by one character', authorization: bearer(key.slice(0, -1)) });
  out.push({ what: 'the key followed by a space and more words', authorization: bearer(`${key} ${sameShape(key, random)} extra`) });
  out.push({ what: "another key of the key's shape", authorization: bearer(sameShape(key, random)) });
  return out;
}

/** The key in another channel than the Authorization header: query parameters, headers and cookies frameworks read. */
export interface Channel {
  what: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** RFC 6750 §2.3's own form: a warning, not a failure, when accepted. */
  latitude?: true;
}

export function channelsOf(key: string): Channel[] {
  return [
    { what: 'the query parameters api_key, apikey, key and token', query: { api_key: key, apikey: key, key, token: key } },
    {
      what: 'the headers X-API-Key, Api-Key and ApiKey, and an api_key cookie',
      headers: { 'x-api-key': key, 'api-key': key, apikey: key, cookie: `api_key=${key}` },
    },
    { what: 'the access_token query parameter (RFC 6750 §2.3)', query: { access_token: key }, latitude: true },
  ];
}
