/** Probes of the faults only generated inputs reach: the input that triggers each, one request or three. */
import { Readable } from 'node:stream';
import { request } from 'undici';
import { rawNumber } from '../../../src/core/json.ts';
import { arr, newPet, obj, type Srv } from '../helpers.ts';
import type { Proof } from './types.ts';

const post = (s: Srv, body: string) => s.send('/pets', { body });
const status = async (p: Promise<{ status: number }>) => (await p).status;
/** Create a pet with `body`, then read it back by id: the categoryId's digits as stored. */
async function storedCategory(s: Srv, body: string): Promise<string | undefined> {
  const id = rawNumber((await post(s, body)).json, '/id');
  return rawNumber((await s.send(`/pets/${id}`)).json, '/categoryId');
}

/** Create a pet with `name`, then read it back by id: its name as getPet shows it. */
async function nameReadBack(s: Srv, name: string): Promise<unknown> {
  const id = rawNumber((await post(s, newPet({ name }))).json, '/id');
  return obj(await s.send(`/pets/${id}`)).name;
}

/** POST a NewPet with Transfer-Encoding: chunked (a streamed body, no Content-Length): the status. */
async function postChunked(s: Srv, body: string): Promise<number> {
  const r = await request(`${s.url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.key()}`, 'content-type': 'application/json' },
    body: Readable.from([Buffer.from(body)]),
  });
  await r.body.dump();
  return r.statusCode;
}

export const GENERATED_PROOFS: Proof[] = [
  { fault: 'name-astral-500', holds: async (s) => (await status(post(s, newPet({ name: 'Rex 🐶' })))) === 201 },
  { fault: 'extra-property-500', holds: async (s) => (await status(post(s, newPet({ nickname: 'Rex' })))) === 201 },
  { fault: 'name-non-latin1-415', holds: async (s) => (await status(post(s, newPet({ name: 'Кот' })))) === 201 },
  { fault: 'name-unescaped', holds: async (s) => obj(await post(s, newPet({ name: 'a"b\\c' }))).name === 'a"b\\c' },
  { fault: 'name-apostrophe-400', holds: async (s) => (await status(post(s, newPet({ name: "O'Brien" })))) === 201 },
  { fault: 'name-normalized', holds: async (s) => obj(await post(s, newPet({ name: 'e\u0301' }))).name === 'e\u0301' },
  { fault: 'trailing-data-accepted', holds: async (s) => (await status(post(s, `${newPet({})} x`))) === 400 },
  { fault: 'duplicate-member-500', holds: async (s) => (await status(post(s, '{"name":"a","name":"b","categoryId":1}'))) < 500 },
  { fault: 'member-names-case-insensitive', holds: async (s) => (await status(post(s, '{"Name":"a","categoryId":1}'))) === 400 },
  { fault: 'bom-500', holds: async (s) => (await status(post(s, `\uFEFF${newPet({})}`))) < 500 },
  {
    fault: 'deep-nesting-500',
    holds: async (s) => (await status(post(s, `{"name":"a","categoryId":1,"x":${'['.repeat(300)}${']'.repeat(300)}}`))) < 500,
  },
  {
    fault: 'charset-415',
    holds: async (s) =>
      (await s.send('/pets', { body: newPet({}), headers: { 'content-type': 'application/json; charset=utf-8' } })).status === 201,
  },
  { fault: 'bearer-case-sensitive', holds: async (s) => (await s.send('/pets', { authorization: `bearer ${s.key()}` })).status === 200 },
  {
    fault: 'query-encoded-name-ignored',
    holds: async (s) => arr(await s.send('/pets?%6C%69%6D%69%74=1')).length === 1,
  },
  {
    fault: 'next-after-large-body-500',
    holds: async (s) => {
      await post(s, `{"name":"a","categoryId":1,"x":"${'x'.repeat(1_100_000)}"}`);
      return (await status(s.send('/pets?limit=1'))) === 200;
    },
  },
  {
    fault: 'default-status-unlisted',
    holds: async (s) => {
      const id = rawNumber((await post(s, '{"name":"no-status","categoryId":1}')).json, '/id');
      const page = await s.send('/pets?status=available&limit=100');
      return arr(page).some((_, i) => rawNumber(page.json, `/${i}/id`) === id);
    },
  },
  {
    fault: 'get-truncates-long-names',
    holds: async (s) => {
      const id = rawNumber((await post(s, newPet({ name: 'ж'.repeat(150) }))).json, '/id');
      return obj(await s.send(`/pets/${id}`)).name === 'ж'.repeat(150);
    },
  },
  {
    fault: 'accept-charset-406',
    holds: async (s) => (await s.send('/pets?limit=1', { headers: { accept: 'application/json; charset=utf-8' } })).status === 200,
  },
  {
    fault: 'duplicate-status-echo-first',
    holds: async (s) => obj(await post(s, '{"name":"d","categoryId":1,"status":"sold","status":"pending"}')).status === 'pending',
  },
  {
    fault: 'get-tab-as-space',
    holds: async (s) => obj(await s.send(`/pets/${rawNumber((await post(s, newPet({ name: 'a\tb' }))).json, '/id')}`)).name === 'a\tb',
  },
  { fault: 'name-newline-500', holds: async (s) => (await status(post(s, newPet({ name: 'a\nb' })))) === 201 },
  {
    fault: 'list-nbsp-as-space',
    holds: async (s) => {
      await post(s, newPet({ name: 'a\u00A0b', status: 'pending' }));
      return arr(await s.send('/pets?status=pending&limit=100')).some((p) => p.name === 'a\u00A0b');
    },
  },
  { fault: 'status-astral-500', holds: async (s) => (await status(s.send('/pets?status=%F0%9F%90%B6'))) < 500 },
  {
    fault: 'list-cuts-names-200',
    holds: async (s) => {
      await post(s, newPet({ name: 'n'.repeat(250), status: 'sold' }));
      return arr(await s.send('/pets?status=sold&limit=100')).some((p) => p.name === 'n'.repeat(250));
    },
  },
  // written after the generators from the grammars (issue 30 §4)
  { fault: 'chunked-body-empty', holds: async (s) => (await postChunked(s, newPet({}))) === 201 },
  {
    fault: 'surrogate-escapes-garbled',
    holds: async (s) => obj(await post(s, '{"name":"Rex \\ud83d\\udc36","categoryId":1}')).name === 'Rex 🐶',
  },
  { fault: 'category-before-name-400', holds: async (s) => (await status(post(s, '{"categoryId":1,"name":"Rex"}'))) === 201 },
  {
    fault: 'errors-text-plain',
    holds: async (s) =>
      (await s.send('/pets', { plan: null, headers: { accept: 'application/json, text/plain, */*' } })).headers['content-type'] ===
      'application/json',
  },
  { fault: 'query-trailing-amp-500', holds: async (s) => (await status(s.send('/pets?limit=1&'))) === 200 },
  { fault: 'limit-int32-overflow-500', holds: async (s) => (await status(s.send('/pets?limit=9999999999'))) < 500 },
  {
    fault: 'petid-leading-digits',
    holds: async (s) => {
      const id = rawNumber((await post(s, newPet({}))).json, '/id');
      return (await status(s.send(`/pets/${id}.0`))) >= 400;
    },
  },
  { fault: 'name-html-escaped', holds: async (s) => obj(await post(s, newPet({ name: 'Tom & Jerry' }))).name === 'Tom & Jerry' },
  { fault: 'name-numeric-json', holds: async (s) => obj(await post(s, newPet({ name: '1984' }))).name === '1984' },
  { fault: 'name-nfkc', holds: async (s) => (await nameReadBack(s, 'Rex…')) === 'Rex…' },
  { fault: 'repeated-param-500', holds: async (s) => (await status(s.send('/pets?limit=1&limit=2'))) === 200 },
  {
    fault: 'category-id-double',
    holds: async (s) => (await storedCategory(s, '{"name":"x","categoryId":18014398509481983.0}')) === '18014398509481983',
  },
  {
    fault: 'list-500-after-astral',
    holds: async (s) => {
      await post(s, newPet({ name: 'Rex 🐶', status: 'sold' }));
      return (await status(s.send('/pets?status=sold&limit=100'))) === 200;
    },
  },
  { fault: 'category-id-unsigned', holds: async (s) => (await storedCategory(s, '{"name":"x","categoryId":-1}')) === '-1' },
  {
    fault: 'list-strips-controls',
    holds: async (s) => {
      await post(s, newPet({ name: 'a\u0001b', status: 'pending' }));
      return arr(await s.send('/pets?status=pending&limit=100')).some((p) => p.name === 'a\u0001b');
    },
  },
  { fault: 'status-index-accepted', holds: async (s) => (await status(post(s, newPet({ status: 0 })))) === 400 },
  { fault: 'status-whitespace-accepted', holds: async (s) => (await status(post(s, newPet({ status: ' sold' })))) === 400 },
  {
    fault: 'invalid-stored',
    holds: async (s) => {
      await post(s, '{"name":"refused-42","categoryId":"42","status":"pending"}');
      return !arr(await s.send('/pets?status=pending&limit=100')).some((p) => p.name === 'refused-42');
    },
  },
  {
    // a createPet answered 401 (no key) stores nothing
    fault: 'create-401-stored',
    holds: async (s) => {
      const refused = await s.send('/pets', { body: '{"name":"no-key-42","categoryId":42,"status":"pending"}', plan: null });
      return refused.status === 401 && !arr(await s.send('/pets?status=pending&limit=100')).some((p) => p.name === 'no-key-42');
    },
  },
  { fault: 'limit-sign-500', holds: async (s) => (await status(s.send('/pets?limit=%2B5'))) < 500 },
  { fault: 'status-near-miss-500', holds: async (s) => (await status(s.send('/pets?status=Sold'))) < 500 },
  { fault: 'get-mid-id-500', holds: async (s) => (await status(s.send('/pets/4294967296'))) === 404 },
  { fault: 'get-unicode-digits-500', holds: async (s) => (await status(s.send('/pets/%D9%A7'))) < 500 },
  // the generators from the grammars (issue 30)
  { fault: 'json5-accepted', holds: async (s) => (await status(post(s, '{"name":"a",/* c */"categoryId":1,}'))) === 400 },
  {
    fault: 'trailing-data-last-value',
    holds: async (s) => obj(await post(s, '{"name":"first","categoryId":1}\n{"name":"second","categoryId":2}')).name !== 'second',
  },
  { fault: 'escape-upper-hex-400', holds: async (s) => (await status(post(s, '{"name":"\\u00E9x","categoryId":1}'))) === 201 },
  { fault: 'escaped-solidus-400', holds: async (s) => (await status(post(s, '{"name":"a\\/b","categoryId":1}'))) === 201 },
  {
    fault: 'charset-latin1',
    holds: async (s) =>
      obj(await s.send('/pets', { body: newPet({ name: 'Ñandú' }), headers: { 'content-type': 'application/json; charset=UTF-8' } }))
        .name === 'Ñandú',
  },
  {
    fault: 'gzip-unasked',
    holds: async (s) =>
      (await s.send('/pets?limit=1', { headers: { 'accept-encoding': 'identity' } })).headers['content-encoding'] === undefined,
  },
  {
    fault: 'accept-language-500',
    holds: async (s) => (await status(s.send('/pets?limit=1', { headers: { 'accept-language': 'en-US,en;q=0.9' } }))) === 200,
  },
  {
    fault: 'user-agent-403',
    holds: async (s) => (await status(s.send('/pets?limit=1', { headers: { 'user-agent': 'python-requests/2.31.0' } }))) === 200,
  },
  { fault: 'query-lowercase-hex-ignored', holds: async (s) => arr(await s.send('/pets?%6cimit=1')).length === 1 },
  { fault: 'query-empty-pair-400', holds: async (s) => (await status(s.send('/pets?limit=1&&status=sold'))) === 200 },
  { fault: 'status-one-typo-accepted', holds: async (s) => (await status(post(s, newPet({ status: 'sald' })))) === 400 },
  { fault: 'limit-float-parse', holds: async (s) => (await status(s.send('/pets?limit=1e3'))) === 400 },
  { fault: 'petid-sign-500', holds: async (s) => (await status(s.send('/pets/%2B7'))) < 500 },
  {
    fault: 'name-cut-utf8-255',
    holds: async (s) => {
      const name = '猫'.repeat(100);
      const id = rawNumber((await post(s, newPet({ name }))).json, '/id');
      return obj(await s.send(`/pets/${id}`)).name === name;
    },
  },
];
