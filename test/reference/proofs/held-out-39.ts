/**
 * Proofs of the held-out faults of issue 39 (reference/held-out-faults-39.ts): the situation that shows each — a
 * sequence of requests, a connection kept alive, two requests in flight together, a count of creates.
 */
import { Client, request } from 'undici';
import { parseJson, rawNumber } from '../../../src/core/json.ts';
import { arr, newPet, obj, type Srv } from '../helpers.ts';
import type { Proof } from './types.ts';

const post = (s: Srv, body: string) => s.send('/pets', { body });
const idOf = async (p: ReturnType<typeof post>) => rawNumber((await p).json, '/id');
/** The sizes of the pages of `paths`, asked one after the other on one kept-alive connection. */
async function pagesOnOneConnection(s: Srv, paths: string[]): Promise<number[]> {
  const client = new Client(new URL(s.url).origin, { pipelining: 1 });
  try {
    const sizes: number[] = [];
    for (const path of paths) {
      const r = await request(`${s.url}${path}`, { dispatcher: client, headers: { authorization: `Bearer ${s.key()}` } });
      const page = await r.body.json();
      sizes.push(Array.isArray(page) ? page.length : -1);
    }
    return sizes;
  } finally {
    await client.close();
  }
}
/**
 * Two creates in flight together, for certain: each on a connection of its own opened (and used) beforehand, both
 * written in one turn of this process's event loop, so the server (in this process) reads both in one turn too, before
 * any timer of its own runs — whatever the machine's load. Their ids, as JSON text.
 */
async function twoCreatesAtOnce(s: Srv): Promise<(string | undefined)[]> {
  const origin = new URL(s.url).origin;
  const clients = [new Client(origin, { pipelining: 1 }), new Client(origin, { pipelining: 1 })];
  const headers = { authorization: `Bearer ${s.key()}`, 'content-type': 'application/json' };
  try {
    for (const c of clients) await (await request(`${s.url}/pets`, { dispatcher: c, headers })).body.text();
    const created = await Promise.all(
      ['a', 'b'].map((name, i) => request(`${s.url}/pets`, { dispatcher: clients[i], method: 'POST', headers, body: newPet({ name }) })),
    );
    return Promise.all(created.map(async (r) => parseJson(await r.body.text()).numbers.get('/id')));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
const remaining = async (p: ReturnType<Srv['send']>) => Number((await p).headers['x-ratelimit-remaining']);

export const HELD_OUT_39_PROOFS: Proof[] = [
  {
    fault: 'cache-serves-anonymous',
    holds: async (s) => {
      const id = await idOf(post(s, newPet({})));
      await s.send(`/pets/${id}`);
      return (await s.send(`/pets/${id}`, { plan: null })).status === 401;
    },
  },
  {
    fault: 'null-cached-lookup',
    holds: async (s) => {
      const next = String(s.app.store.peekNextId());
      await s.send(`/pets/${next}`); // 404: no pet has it yet
      const id = await idOf(post(s, newPet({})));
      return id === next && (await s.send(`/pets/${id}`)).status === 200;
    },
  },
  {
    fault: 'list-cache-key-status',
    holds: async (s) => {
      await s.send('/pets?status=sold&limit=5');
      return arr(await s.send('/pets?status=sold&limit=2')).length === 2;
    },
  },
  {
    fault: 'query-kept-per-connection',
    holds: async (s) => (await pagesOnOneConnection(s, ['/pets?limit=50', '/pets']))[1] === 20,
  },
  {
    fault: 'create-id-race',
    holds: async (s) => {
      const [a, b] = await twoCreatesAtOnce(s);
      return a !== undefined && b !== undefined && a !== b;
    },
  },
  {
    fault: 'limit-before-filter',
    holds: async (s) => {
      const id = await idOf(post(s, newPet({ status: 'sold' })));
      const page = await s.send('/pets?status=sold&limit=100');
      return arr(page).some((_, i) => rawNumber(page.json, `/${i}/id`) === id);
    },
  },
  {
    fault: 'zero-values-omitted',
    holds: async (s) => rawNumber((await post(s, newPet({ categoryId: 0 }))).json, '/categoryId') === '0',
  },
  {
    fault: 'id-blocks-overlap-500',
    holds: async (s) => {
      const statuses: number[] = [];
      for (let i = 0; i < 51; i++) statuses.push((await post(s, newPet({ name: `pet ${i}` }))).status);
      return statuses.every((x) => x === 201);
    },
  },
  {
    fault: 'create-counted-twice',
    holds: async (s) => {
      const before = await remaining(s.send('/pets?limit=1'));
      return (await remaining(post(s, newPet({})))) === before - 1;
    },
  },
  {
    fault: 'dedupe-identical-create',
    holds: async (s) => {
      const body = newPet({ name: 'Twin' });
      const [a, b] = [await idOf(post(s, body)), await idOf(post(s, body))];
      return obj(await s.send(`/pets/${a}`)).name === 'Twin' && a !== b;
    },
  },
];
