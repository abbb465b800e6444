/** Wrong credentials derived from the key: every near-miss differs from the key, each class is there, the seed decides. */
import { fc, test } from '@fast-check/vitest';
import { expect, test as plain } from 'vitest';
import { channelsOf, keyWire, nearMissesOf } from '../../src/http/credentials.ts';
import { placementArb } from '../../src/explore/request-forms.ts';
import { makeRedactor, REDACTED } from '../../src/core/redact.ts';

const KEY = 'as_demo_pro_8b2d4a61c97e3f05';
const tokenOf = (authorization: string) => authorization.slice('Bearer '.length);

test.prop([fc.string({ minLength: 4, maxLength: 64 }).filter((k) => !/\s/.test(k)), fc.nat()])(
  'No near-miss of a key is the key itself, whatever the key and the seed.',
  (key, seed) => {
    for (const n of nearMissesOf(key, seed)) expect(tokenOf(n.authorization)).not.toBe(key);
  },
);

plain('A key with letters gets every class of near-miss: case, prefix, suffix, truncation, more words, another of its shape.', () => {
  const whats = nearMissesOf(KEY, 1).map((n) => n.what);
  for (const w of [/case of letter/, /case of every letter/, /first \d+ characters/, /suffix/, /cut by 1 character/, /more words/, /shape/])
    expect(
      whats.some((x) => w.test(x)),
      String(w),
    ).toBe(true);
});

plain('The same seed gives the same near-misses; another seed may choose others.', () => {
  expect(nearMissesOf(KEY, 7)).toEqual(nearMissesOf(KEY, 7));
  const seeds = Array.from({ length: 8 }, (_, i) => JSON.stringify(nearMissesOf(KEY, i)));
  expect(new Set(seeds).size).toBeGreaterThan(1);
});

plain('Every channel carries the key, and only access_token is the RFC 6750 latitude.', () => {
  const channels = channelsOf(KEY);
  for (const c of channels) expect(JSON.stringify(c)).toContain(KEY);
  expect(channels.filter((c) => c.latitude).map((c) => Object.keys(c.query ?? {}))).toEqual([['access_token']]);
});

plain('The redactor hides every near-miss the suite sends (a prefix, another case, more words after the key).', () => {
  const redact = makeRedactor([KEY]);
  for (const n of nearMissesOf(KEY, 3).filter((m) => !/shape/.test(m.what))) expect(redact(n.authorization)).toContain(REDACTED);
});

test.prop([placementArb])(
  'Whatever the exploration generates, what it sends is redacted (bar another key of its shape, which is not the key).',
  (p) => {
    const redact = makeRedactor([KEY]);
    const w = keyWire(KEY, p);
    const values = [w.authorization ?? '', ...Object.values(w.query ?? {}), ...Object.values(w.headers ?? {})].filter(Boolean);
    const shape = 'near' in p && p.near.edit === 'shape';
    for (const v of values) expect(redact(v).includes(REDACTED)).toBe(!shape);
  },
);
