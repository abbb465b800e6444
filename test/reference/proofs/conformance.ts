/** Probes of the conformance fault modes: one request or two each. */
import { parseJson, rawNumber } from '../../../src/core/json.ts';
import { judgeUniqueNames } from '../../../src/core/sections/responses/rules.ts';
import { judgeReset, parseHttpDate, readRateLimit } from '../../../src/core/ratelimit.ts';
import { validateSchema } from '../../../src/schemas/ajv.ts';
import { arr, newPet, obj, type Srv } from '../helpers.ts';
import type { Proof } from './types.ts';
import { GENERATED_PROOFS } from './generated.ts';
import { HELD_OUT_39_PROOFS } from './held-out-39.ts';
import { WHOLE_REQUEST_PROOFS } from './whole-request.ts';

const SEED_ID = '9007199254740993';
const get = (s: Srv, path: string) => s.send(path);
const post = (s: Srv, body: string) => s.send('/pets', { body });
const status = async (p: Promise<{ status: number }>) => (await p).status;
const deprecation = async (s: Srv) => (await get(s, `/pets/${SEED_ID}`)).headers;
const rl = async (s: Srv, path = '/pets?limit=1', plan: 'free' | 'enterprise' = 'enterprise') =>
  readRateLimit((await s.send(path, { plan })).headers);

export const CONFORMANCE_PROOFS: Proof[] = [
  { fault: 'auth-missing-accepted', holds: async (s) => (await status(s.send('/pets', { plan: null }))) === 401 },
  { fault: 'auth-any-scheme', holds: async (s) => (await status(s.send('/pets', { authorization: `Basic ${s.key()}` }))) === 401 },
  { fault: 'auth-empty-token-accepted', holds: async (s) => (await status(s.send('/pets', { authorization: 'Bearer ' }))) === 401 },
  {
    fault: 'auth-unknown-key-accepted',
    holds: async (s) => (await status(s.send('/pets', { authorization: 'Bearer not-a-key-at-all' }))) === 401,
  },
  {
    fault: 'validate-before-auth',
    holds: async (s) =>
      (await status(s.send('/pets', { plan: null, body: '{}' }))) === 401 && (await status(s.send('/pets/1', { plan: null }))) === 401,
  },
  {
    fault: 'auth-prefix-match',
    holds: async (s) =>
      (await status(s.send('/pets', { authorization: `Bearer ${s.key()}0` }))) === 401 &&
      (await status(s.send('/pets', { authorization: `Bearer ${s.key().slice(0, -1)}` }))) === 401,
  },
  {
    fault: '429-instead-of-401',
    holds: async (s) => (await status(s.send('/pets', { authorization: 'Bearer not-a-key-at-all' }))) === 401,
  },
  { fault: 'auth-rejects-valid-key', holds: async (s) => (await status(get(s, '/pets'))) === 200 },
  { fault: 'create-returns-200', holds: async (s) => (await status(post(s, newPet()))) === 201 },
  { fault: 'content-type-text', holds: async (s) => (await get(s, '/pets')).headers['content-type'] === 'application/json' },
  { fault: 'list-body-not-json', holds: async (s) => (await get(s, '/pets')).json !== undefined },
  { fault: 'list-wrapped', holds: async (s) => validateSchema('Pets', (await get(s, '/pets')).json).valid },
  { fault: 'id-as-string', holds: async (s) => validateSchema('Pet', (await post(s, newPet())).json).valid },
  { fault: 'error-missing-message', holds: async (s) => validateSchema('Error', (await get(s, '/pets/1')).json).valid },
  {
    fault: 'error-422-not-error',
    holds: async (s) => {
      const r = await get(s, '/pets?limit=0');
      return r.status === 400 && validateSchema('Error', r.json).valid;
    },
  },
  { fault: 'error-status-mismatch', holds: async (s) => obj(await get(s, '/pets/1')).status === 404 },
  { fault: 'list-500', holds: async (s) => (await status(get(s, '/pets'))) === 200 },
  { fault: 'list-500-bare', holds: async (s) => (await status(get(s, '/pets'))) === 200 },
  { fault: 'default-limit-50', holds: async (s) => arr(await get(s, '/pets')).length === 20 },
  { fault: 'limit-ignored', holds: async (s) => arr(await get(s, '/pets?limit=1')).length === 1 },
  { fault: 'limit-short-page', holds: async (s) => arr(await get(s, '/pets?limit=5')).length === 5 },
  { fault: 'limit-unbounded', holds: async (s) => arr(await get(s, '/pets?limit=1000')).length <= 100 },
  { fault: 'filter-ignored', holds: async (s) => arr(await get(s, '/pets?status=sold&limit=100')).every((p) => p.status === 'sold') },
  { fault: 'list-always-empty', holds: async (s) => arr(await get(s, '/pets')).length > 0 },
  {
    fault: 'list-omits-created',
    holds: async (s) => {
      const id = rawNumber((await post(s, newPet({ status: 'sold' }))).json, '/id');
      const page = await get(s, '/pets?status=sold&limit=100');
      return arr(page).some((_, i) => rawNumber(page.json, `/${i}/id`) === id);
    },
  },
  { fault: 'filter-needs-limit', holds: async (s) => arr(await get(s, '/pets?status=sold')).every((p) => p.status === 'sold') },
  { fault: 'limit-ignored-with-status', holds: async (s) => arr(await get(s, '/pets?status=available&limit=1')).length === 1 },
  {
    fault: 'list-duplicate-id',
    holds: async (s) => {
      const page = await get(s, '/pets?limit=100');
      return new Set(arr(page).map((_, i) => rawNumber(page.json, `/${i}/id`))).size === arr(page).length;
    },
  },
  {
    // No object of a page holds a member name twice (RFC 8259 §4), as the response check's rule judges the page's text.
    fault: 'list-duplicate-member',
    holds: async (s) => {
      const page = await get(s, '/pets?limit=5');
      return arr(page).length > 0 && judgeUniqueNames(page.status, parseJson(page.text).duplicates).outcome === 'pass';
    },
  },
  { fault: 'unknown-status-500', holds: async (s) => (await status(get(s, '/pets?status=lost'))) < 500 },
  { fault: 'create-drops-status', holds: async (s) => obj(await post(s, newPet({ status: 'pending' }))).status === 'pending' },
  { fault: 'status-required', holds: async (s) => (await status(post(s, newPet()))) === 201 },
  { fault: 'missing-field-accepted', holds: async (s) => (await status(post(s, '{"name":"x"}'))) === 400 },
  { fault: 'wrong-type-accepted', holds: async (s) => (await status(post(s, '{"name":"x","categoryId":9223372036854775808}'))) === 400 },
  { fault: 'bad-status-accepted', holds: async (s) => (await status(post(s, newPet({ status: 'lost' })))) === 400 },
  {
    fault: 'status-null-accepted',
    holds: async (s) =>
      (await status(post(s, newPet({ status: null })))) === 400 && (await status(post(s, newPet({ status: '' })))) === 400,
  },
  {
    fault: 'name-container-accepted',
    holds: async (s) =>
      (await status(post(s, newPet({ name: ['x'] })))) === 400 && (await status(post(s, newPet({ name: { x: 1 } })))) === 400,
  },
  { fault: 'malformed-json-500', holds: async (s) => (await status(post(s, '{"name":'))) === 400 },
  { fault: 'client-id-honoured', holds: async (s) => rawNumber((await post(s, newPet({ id: 42 }))).json, '/id') !== '42' },
  {
    fault: 'duplicate-ids',
    holds: async (s) => rawNumber((await post(s, newPet())).json, '/id') !== rawNumber((await post(s, newPet())).json, '/id'),
  },
  {
    fault: 'ids-reuse-existing',
    holds: async (s) => {
      const before = await get(s, '/pets?limit=100');
      const listed = new Set(arr(before).map((_, i) => rawNumber(before.json, `/${i}/id`)));
      return !listed.has(rawNumber((await post(s, newPet())).json, '/id'));
    },
  },
  {
    fault: 'lossy-ids',
    holds: async (s) => {
      const created = await post(s, newPet({ name: 'round-trip' }));
      const got = await get(s, `/pets/${rawNumber(created.json, '/id')}`);
      return got.status === 200 && got.text === created.text;
    },
  },
  { fault: 'unknown-id-200', holds: async (s) => (await status(get(s, '/pets/1'))) === 404 },
  { fault: 'non-integer-id-500', holds: async (s) => (await status(get(s, '/pets/abc'))) < 500 },
  { fault: 'no-deprecation-headers', holds: async (s) => (await deprecation(s)).deprecation !== undefined },
  { fault: 'wrong-sunset', holds: async (s) => parseHttpDate((await deprecation(s)).sunset ?? '') === Date.UTC(2030, 11, 5) },
  { fault: 'deprecation-boolean', holds: async (s) => /^@\d+$/.test((await deprecation(s)).deprecation ?? '') },
  {
    fault: 'deprecation-after-sunset',
    holds: async (s) => {
      const h = await deprecation(s);
      return Number(h.deprecation.slice(1)) * 1000 <= parseHttpDate(h.sunset)!;
    },
  },
  // hygiene: a 401 and a 404 quote no credential, no response carries one encoded, listPets signals no deprecation
  {
    fault: 'reflect-credentials',
    holds: async (s) =>
      !(await s.send('/pets', { authorization: 'Bearer not-a-key-at-all' })).text.includes('not-a-key-at-all') &&
      !(await get(s, '/pets/1')).text.includes(s.key()),
  },
  {
    fault: 'reflect-credentials-header',
    holds: async (s) => !JSON.stringify((await get(s, '/pets?limit=1')).headers).includes(btoa('Bearer')),
  },
  { fault: 'deprecate-list', holds: async (s) => (await get(s, '/pets?limit=1')).headers.deprecation === undefined },
  { fault: 'ratelimit-headers-missing-on-errors', holds: async (s) => (await rl(s, '/pets/1')).limitRaw !== undefined },
  { fault: 'ratelimit-non-integer', holds: async (s) => (await rl(s)).limit !== undefined },
  {
    fault: 'remaining-above-limit',
    holds: async (s) => {
      const h = await rl(s);
      return h.remaining! <= h.limit!;
    },
  },
  { fault: 'wrong-plan-limit', holds: async (s) => (await rl(s, '/pets', 'free')).limit === 60 },
  { fault: 'limit-varies', holds: async (s) => (await rl(s)).limit === (await rl(s)).limit },
  { fault: 'reset-in-ms', holds: async (s) => judgeReset((await rl(s)).resetRaw, s.clock.now(), 60, 5).ok },
  { fault: 'reset-relative', holds: async (s) => judgeReset((await rl(s)).resetRaw, s.clock.now(), 60, 5).ok },
  { fault: 'remaining-not-falling', holds: async (s) => (await rl(s)).remaining! - (await rl(s)).remaining! === 1 },
  { fault: 'remaining-falls-by-two', holds: async (s) => (await rl(s)).remaining! - (await rl(s)).remaining! === 1 },
  {
    // one budget per key: a getPet after a listPets says one fewer
    fault: 'limit-per-route',
    holds: async (s) => (await rl(s)).remaining! - (await rl(s, `/pets/${SEED_ID}`)).remaining! === 1,
  },
  { fault: 'content-type-missing', holds: async (s) => (await get(s, '/pets')).headers['content-type'] !== undefined },
  { fault: 'created-empty-body', holds: async (s) => (await post(s, newPet())).text !== '' },
  { fault: 'unauthorized-empty-body', holds: async (s) => (await s.send('/pets', { plan: null })).text !== '' },
  { fault: 'list-status-unknown-value', holds: async (s) => validateSchema('Pets', (await get(s, '/pets?limit=100')).json).valid },
  { fault: 'get-other-pet', holds: async (s) => rawNumber((await get(s, `/pets/${SEED_ID}`)).json, '/id') === SEED_ID },
  { fault: 'name-truncated', holds: async (s) => obj(await post(s, newPet({ name: 'x'.repeat(300) }))).name === 'x'.repeat(300) },
  {
    fault: 'list-500-every-7th',
    holds: async (s) => {
      for (let i = 0; i < 7; i++) if ((await get(s, '/pets?limit=1')).status !== 200) return false;
      return true;
    },
  },
  {
    fault: 'list-lossy-category-id',
    holds: async (s) => {
      await post(s, '{"name":"x","categoryId":9223372036854775807,"status":"pending"}');
      const page = await get(s, '/pets?status=pending&limit=100');
      return arr(page).some((_, i) => rawNumber(page.json, `/${i}/categoryId`) === '9223372036854775807');
    },
  },
  {
    fault: 'lossy-category-id',
    holds: async (s) =>
      rawNumber((await post(s, '{"name":"x","categoryId":9223372036854775807}')).json, '/categoryId') === '9223372036854775807',
  },
  { fault: 'sunset-not-http-date', holds: async (s) => parseHttpDate((await deprecation(s)).sunset ?? '') !== undefined },
  { fault: 'ratelimit-limit-duplicated', holds: async (s) => (await rl(s)).limit !== undefined },
  {
    fault: 'reset-in-past',
    holds: async (s) => {
      await rl(s);
      s.clock.advance(30_000); // halfway through the window: its start is 30 s in the past
      return judgeReset((await rl(s)).resetRaw, s.clock.now(), 60, 5).ok;
    },
  },
  {
    // Reset within one 60 s window of the response: read twice 2 s apart, so that one reading is at least 2 s before its
    // window's end (a Reset one minute late then lies beyond it).
    fault: 'reset-one-window-late',
    holds: async (s) => {
      for (const step of [0, 2000]) {
        s.clock.advance(step);
        const r = await rl(s);
        if (r.reset === undefined || r.reset > Math.floor(s.clock.now() / 1000) + 61) return false;
      }
      return true;
    },
  },
  // the faults only generated inputs reach
  ...GENERATED_PROOFS,
  // held out for issue 39: what lies around the request
  ...HELD_OUT_39_PROOFS,
  ...WHOLE_REQUEST_PROOFS,
];
