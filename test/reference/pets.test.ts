import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawNumber } from '../../src/core/json.ts';
import { parseHttpDate } from '../../src/core/ratelimit.ts';
import { validateSchema } from '../../src/schemas/ajv.ts';
import { SUNSET } from '../../reference/headers.ts';
import { arr, newPet, obj, start, type Res, type SendOptions, type Srv } from './helpers.ts';

let s: Srv;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.close());

const idDigits = (r: Res, pointer = '/id') => rawNumber(r.json, pointer);

describe('listPets on the reference server', () => {
  test.each([
    { query: '', count: 20 },
    { query: '?limit=1', count: 1 },
    { query: '?limit=20', count: 20 },
    { query: '?limit=100', count: 100 },
    { query: '?limit=%2B7', count: 7 },
  ])('GET /pets$query answers 200 with $count valid Pets', async ({ query, count }) => {
    const r = await s.send(`/pets${query}`);
    expect(r.status).toBe(200);
    expect(validateSchema('Pets', r.json).errors).toEqual([]);
    expect(arr(r)).toHaveLength(count);
  });

  test.each(['available', 'pending', 'sold'])('The status filter %s returns only animals with that status.', async (status) => {
    const r = await s.send(`/pets?status=${status}&limit=100`);
    expect(arr(r).length).toBeGreaterThan(20);
    expect(new Set(arr(r).map((p) => p.status))).toEqual(new Set([status]));
  });

  test.each(['0', '101', '-1', '1000', 'abc', '1.5', '', '1e2'])(
    'The limit %j is answered 400 with an invalid_parameter Error.',
    async (limit) => {
      const r = await s.send(`/pets?limit=${encodeURIComponent(limit)}`);
      expect(r.status).toBe(400);
      expect(obj(r)).toMatchObject({ code: 'invalid_parameter', status: 400 });
    },
  );

  test.each(['lost', '', 'AVAILABLE'])('The unknown status %j is answered 400.', async (status) => {
    const r = await s.send(`/pets?status=${status}`);
    expect(r.status).toBe(400);
    expect(validateSchema('Error', r.json).valid).toBe(true);
  });

  test('The clamp variant clamps an out-of-range limit into 1..100 instead of rejecting it.', async () => {
    const c = await start({ variants: { outOfRangeLimit: 'clamp' } });
    try {
      expect(arr(await c.send('/pets?limit=1000'))).toHaveLength(100);
      expect(arr(await c.send('/pets?limit=0'))).toHaveLength(1);
      expect((await c.send('/pets?limit=abc')).status).toBe(400);
    } finally {
      await c.close();
    }
  });
});

describe('createPet and getPet on the reference server', () => {
  test('A created pet gets an id above 2^53 that round-trips through getPet with every digit.', async () => {
    const created = await s.send('/pets', { body: '{"name":"Big","categoryId":9223372036854775807,"status":"sold"}' });
    expect(created.status).toBe(201);
    expect(validateSchema('Pet', created.json).errors).toEqual([]);
    const id = idDigits(created)!;
    expect(BigInt(id) > 2n ** 53n).toBe(true);
    expect(created.text).toBe(`{"id":${id},"name":"Big","categoryId":9223372036854775807,"status":"sold"}`);
    expect(created.headers.location).toBe(`/v1/pets/${id}`);
    const got = await s.send(`/pets/${id}`);
    expect(got.status).toBe(200);
    expect(got.text).toBe(created.text);
  });

  test('Ids are assigned by the server, unique, and a client-sent id is ignored.', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(idDigits(await s.send('/pets', { body: newPet({ id: 42 }) })));
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain('42');
  });

  test.each([
    { sent: '-9223372036854775808', echoed: '-9223372036854775808' },
    { sent: '9007199254740993', echoed: '9007199254740993' },
    { sent: '1.0', echoed: '1' },
    { sent: '2E1', echoed: '20' },
  ])('A categoryId of $sent is accepted and echoed as $echoed.', async ({ sent, echoed }) => {
    const r = await s.send('/pets', { body: `{"name":"x","categoryId":${sent}}` });
    expect(r.status).toBe(201);
    expect(rawNumber(r.json, '/categoryId')).toBe(echoed);
  });

  test('A pet created without status gets "available" by default.', async () => {
    expect(obj(await s.send('/pets', { body: newPet() })).status).toBe('available');
  });

  test('The defaultStatus variant "none" creates a pet without a status field.', async () => {
    const c = await start({ variants: { defaultStatus: 'none' } });
    try {
      const r = await c.send('/pets', { body: newPet() });
      expect(r.status).toBe(201);
      expect(obj(r)).not.toHaveProperty('status');
    } finally {
      await c.close();
    }
  });

  test.each([
    { name: 'an empty body', body: '', code: 'invalid_body' },
    { name: 'malformed JSON', body: '{"name":', code: 'invalid_body' },
    { name: 'trailing data', body: `${newPet()} x`, code: 'invalid_body' },
    { name: 'an array', body: '[]', code: 'invalid_body' },
    { name: 'a string', body: '"pet"', code: 'invalid_body' },
    { name: 'null', body: 'null', code: 'invalid_body' },
    { name: 'no name', body: '{"categoryId":1}', code: 'validation_failed' },
    { name: 'no categoryId', body: '{"name":"x"}', code: 'validation_failed' },
    { name: 'a numeric name', body: '{"name":5,"categoryId":1}', code: 'validation_failed' },
    { name: 'a string categoryId', body: '{"name":"x","categoryId":"1"}', code: 'validation_failed' },
    { name: 'a fractional categoryId', body: '{"name":"x","categoryId":1.5}', code: 'validation_failed' },
    { name: 'a boolean categoryId', body: '{"name":"x","categoryId":true}', code: 'validation_failed' },
    { name: 'a null categoryId', body: '{"name":"x","categoryId":null}', code: 'validation_failed' },
    { name: 'a categoryId of 2^63', body: '{"name":"x","categoryId":9223372036854775808}', code: 'validation_failed' },
    { name: 'a categoryId below -2^63', body: '{"name":"x","categoryId":-9223372036854775809}', code: 'validation_failed' },
    { name: 'an unknown status', body: '{"name":"x","categoryId":1,"status":"lost"}', code: 'validation_failed' },
  ])('A createPet body with $name is answered 400 ($code) and creates nothing.', async ({ body, code }) => {
    const before = s.app.store.size;
    const r = await s.send('/pets', { body, method: 'POST' });
    expect(r.status).toBe(400);
    expect(obj(r)).toMatchObject({ code, status: 400 });
    expect(validateSchema('Error', r.json).valid).toBe(true);
    expect(s.app.store.size).toBe(before);
  });

  test.each([
    { path: '/pets/abc', status: 400 },
    { path: '/pets/1.5', status: 400 },
    { path: '/pets/%20', status: 400 },
    { path: '/pets/1', status: 404 },
    { path: '/pets/99999999999999999999999', status: 404 },
    { path: '/pets/9007199254740993', status: 200 },
  ])('getPet $path answers $status with the deprecation headers.', async ({ path, status }) => {
    const r = await s.send(path);
    expect(r.status).toBe(status);
    expect(r.headers.deprecation).toBe('@1735689600');
    expect(r.headers.sunset).toBe(SUNSET);
    expect(parseHttpDate(r.headers.sunset)).toBe(Date.UTC(2030, 11, 5));
    expect(r.headers.link).toMatch(/\/v1\/pets\?status=available>; rel="successor-version", <https:\/\/[^>]+>; rel="deprecation"$/);
  });

  test('An unauthenticated getPet also carries the deprecation headers.', async () => {
    const r = await s.send('/pets/1', { plan: null });
    expect(r.status).toBe(401);
    expect(r.headers.deprecation).toBe('@1735689600');
  });
});

describe('Every response of the reference server', () => {
  const REQUESTS: { name: string; path: string; o: SendOptions; status: number }[] = [
    { name: 'a page of pets', path: '/pets', o: {}, status: 200 },
    { name: 'a created pet', path: '/pets', o: { body: newPet() }, status: 201 },
    { name: 'a pet', path: '/pets/9007199254740994', o: {}, status: 200 },
    { name: 'a bad body', path: '/pets', o: { body: '{' }, status: 400 },
    { name: 'a bad limit', path: '/pets?limit=0', o: {}, status: 400 },
    { name: 'a missing key', path: '/pets', o: { plan: null }, status: 401 },
    { name: 'an unknown pet', path: '/pets/1', o: {}, status: 404 },
    { name: 'an unknown path', path: '/pets/1/toys', o: {}, status: 404 },
    { name: 'another version', path: '/../v2/pets', o: {}, status: 404 },
    { name: 'an undocumented method', path: '/pets', o: { method: 'DELETE' }, status: 405 },
  ];

  test.each(REQUESTS)('Answering $name ($status) carries JSON, Date and integer X-RateLimit-* headers.', async ({ path, o, status }) => {
    const r = await s.send(path, o);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toBeDefined();
    expect(r.headers.date).toBe(new Date(s.clock.now()).toUTCString());
    expect(r.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    expect(Number(r.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(Number(r.headers['x-ratelimit-limit']));
    expect(r.headers['x-ratelimit-reset']).toBe(String(Math.ceil((Math.floor(s.clock.now() / 60000) + 1) * 60)));
    if (status >= 400) expect(obj(r).status).toBe(status);
  });
});
