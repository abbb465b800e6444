/** The OPTIONS variants of reference/methods.ts serve as they say: without credentials, 204 with Allow or Express's 200. */
import { expect, test } from 'vitest';
import { variantServers } from './helpers.ts';

const server = variantServers();

test('By default OPTIONS asks for the key first: 401 without one, 204 with Allow with it.', async () => {
  const s = await server('');
  expect((await s.send('/pets', { method: 'OPTIONS', plan: null })).status).toBe(401);
  const withKey = await s.send('/pets', { method: 'OPTIONS' });
  expect([withKey.status, withKey.headers['allow']]).toEqual([204, 'GET, POST, HEAD, OPTIONS']);
});

test('options=open: OPTIONS without credentials is answered 204 with Allow, and other methods still need the key.', async () => {
  const s = await server('options=open');
  const r = await s.send('/pets/12', { method: 'OPTIONS', plan: null });
  expect([r.status, r.headers['allow'], r.text]).toEqual([204, 'GET, HEAD, OPTIONS', '']);
  expect((await s.send('/pets/12', { method: 'HEAD', plan: null })).status).toBe(401);
  expect((await s.send('/nowhere', { method: 'OPTIONS', plan: null })).status).toBe(401);
});

test("options=express: OPTIONS without credentials is answered as Express's router does: 200, Allow, the list as text.", async () => {
  const s = await server('options=express');
  const r = await s.send('/pets', { method: 'OPTIONS', plan: null });
  expect([r.status, r.headers['allow'], r.text]).toEqual([200, 'GET,POST,HEAD', 'GET,POST,HEAD']);
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
});
