import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateSchema } from '../../src/schemas/ajv.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import { newPet, obj, start, type SendOptions, type Srv } from './helpers.ts';

const KEY = DEMO_KEYS.enterprise;

/** One request per operation. */
const OPERATIONS: { name: string; path: string; o: SendOptions }[] = [
  { name: 'listPets', path: '/pets', o: {} },
  { name: 'createPet', path: '/pets', o: { body: newPet() } },
  { name: 'getPet', path: '/pets/9007199254740993', o: {} },
];

const REJECTED: { name: string; o: SendOptions }[] = [
  { name: 'no Authorization header', o: { plan: null } },
  { name: 'an empty Authorization header', o: { authorization: '' } },
  { name: 'the Basic scheme', o: { authorization: `Basic ${KEY}` } },
  { name: 'the Token scheme', o: { authorization: `Token ${KEY}` } },
  { name: 'the key without a scheme', o: { authorization: KEY } },
  { name: 'Bearer with no token', o: { authorization: 'Bearer' } },
  { name: 'Bearer with a blank token', o: { authorization: 'Bearer    ' } },
  { name: 'an unknown key', o: { authorization: 'Bearer as_demo_nobody_0000000000000000' } },
  { name: 'a key in the wrong case', o: { authorization: `Bearer ${KEY.toUpperCase()}` } },
];

const ACCEPTED: { name: string; o: SendOptions }[] = [
  { name: 'Bearer', o: { authorization: `Bearer ${KEY}` } },
  { name: 'bearer in lower case', o: { authorization: `bearer ${KEY}` } },
  { name: 'BEARER in upper case', o: { authorization: `BEARER ${KEY}` } },
];

let s: Srv;
beforeAll(async () => {
  s = await start({ anonymousPerMinute: 1000 });
});
afterAll(() => s.close());

describe('Authentication of the reference server', () => {
  for (const op of OPERATIONS) {
    test.each(REJECTED)(`${op.name} with $name is answered 401 with an Error body`, async ({ o }) => {
      const r = await s.send(op.path, { ...op.o, ...o });
      expect(r.status).toBe(401);
      expect(validateSchema('Error', r.json).valid).toBe(true);
      expect(obj(r)).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(r.headers['x-ratelimit-limit']).toBe('1000');
    });
    test.each(ACCEPTED)(`${op.name} with the scheme written as $name is accepted`, async ({ o }) => {
      const r = await s.send(op.path, { ...op.o, ...o });
      expect([200, 201]).toContain(r.status);
    });
  }

  test.each([
    { name: 'an invalid POST body', path: '/pets', o: { body: '{"name": 5}' } },
    { name: 'malformed JSON', path: '/pets', o: { body: '{' } },
    { name: 'an unknown pet id', path: '/pets/1', o: {} },
    { name: 'a non-integer pet id', path: '/pets/abc', o: {} },
    { name: 'an out-of-range limit', path: '/pets?limit=0', o: {} },
    { name: 'an unknown path', path: '/elsewhere', o: {} },
  ])('An unauthenticated request with $name is answered 401, not 400 or 404', async ({ path, o }) => {
    const r = await s.send(path, { ...o, plan: null });
    expect(r.status).toBe(401);
  });

  test('An unauthenticated invalid POST does not create an animal.', async () => {
    const before = s.app.store.size;
    await s.send('/pets', { plan: null, body: newPet() });
    expect(s.app.store.size).toBe(before);
  });
});

describe('The per-address bucket of unauthenticated requests', () => {
  let a: Srv;
  beforeAll(async () => {
    a = await start();
  });
  afterAll(() => a.close());

  test('401s count against a per-address bucket of 60 per minute, then the address gets 429 with Retry-After.', async () => {
    for (let i = 0; i < 60; i++) {
      const r = await a.send('/pets', { plan: null });
      expect(r.status).toBe(401);
      expect(r.headers['x-ratelimit-remaining']).toBe(String(59 - i));
    }
    const r = await a.send('/pets', { authorization: 'Bearer wrong-key-wrong-key' });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('60');
    expect(obj(r)).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  test('Requests with a valid key are counted in their own bucket, not the address bucket.', async () => {
    const r = await a.send('/pets', { plan: 'free' });
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('60');
    expect(r.headers['x-ratelimit-remaining']).toBe('59');
  });
});
