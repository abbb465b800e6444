/** The valid variants held out with the faults of issue 39 (reference/held-out-variants-39.ts) serve as they say. */
import { expect, test } from 'vitest';
import { Client, request } from 'undici';
import { rawNumber } from '../../src/core/json.ts';
import { arr, newPet, obj, variantServers, type Srv } from './helpers.ts';

const server = variantServers();
const idOf = async (s: Srv, body: string) => rawNumber((await s.send('/pets', { body })).json, '/id')!;

test('listOrder=newest: a page starts with the pet created last.', async () => {
  const s = await server('listOrder=newest');
  await idOf(s, newPet({ name: 'older', status: 'pending' }));
  const id = await idOf(s, newPet({ name: 'newest', status: 'pending' }));
  const page = await s.send('/pets?status=pending&limit=3');
  expect(arr(page).map((p) => p.name)).toEqual(['newest', 'older', 'Ziggy 118']);
  expect(rawNumber(page.json, '/0/id')).toBe(id);
  expect(arr(await s.send('/pets?limit=100'))).toHaveLength(100);
});

test('listOrder=name: a page is ordered by name, byte order, within its status and limit.', async () => {
  const s = await server('listOrder=name');
  await idOf(s, newPet({ name: 'Aardvark', status: 'sold' }));
  const names = arr(await s.send('/pets?status=sold&limit=100')).map((p) => p.name as string);
  expect(names[0]).toBe('Aardvark');
  expect(names).toEqual([...names].sort());
  expect(names).toHaveLength(31);
  expect(arr(await s.send('/pets?limit=5'))).toHaveLength(5);
});

test('ids=snowflake: created ids are unique, far apart, made of the clock, and read back.', async () => {
  const s = await server('ids=snowflake');
  const a = BigInt(await idOf(s, newPet({ name: 'a' })));
  const b = BigInt(await idOf(s, newPet({ name: 'b' })));
  s.clock.advance(1000);
  const c = BigInt(await idOf(s, newPet({ name: 'c' })));
  expect(b).toBe(a + 1n); // the same millisecond: the sequence
  expect(c - a).toBe(1000n << 22n); // a second later, at sequence 0 again
  expect(c < 2n ** 63n && a > 2n ** 60n).toBe(true);
  expect((a >> 22n) + 1288834974657n).toBe(BigInt(s.clock.now() - 1000));
  expect(obj(await s.send(`/pets/${c}`)).name).toBe('c');
});

test('maxRequestsPerConnection=3: the third response of a connection says Connection: close, the next opens another.', async () => {
  const s = await server('maxRequestsPerConnection=3');
  const client = new Client(new URL(s.url).origin, { pipelining: 1 });
  try {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await request(`${s.url}/pets?limit=1`, { dispatcher: client, headers: { authorization: `Bearer ${s.key()}` } });
      await r.body.dump();
      seen.push(`${r.statusCode} ${String(r.headers.connection)}`);
    }
    expect(seen).toEqual(['200 keep-alive', '200 keep-alive', '200 close', '200 keep-alive']);
  } finally {
    await client.close();
  }
});
