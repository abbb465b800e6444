/** Probes of the faults of the whole request (issue 39): methods, the credential's form and channel, the path's id. */
import type { Srv } from '../helpers.ts';
import type { Proof } from './types.ts';

const status = async (p: Promise<{ status: number }>) => (await p).status;
const refused = (code: number) => code < 200 || code >= 300;
/** The id of the first listed pet, exact. */
const firstId = async (s: Srv) => /"id":\s*(-?\d+)/.exec((await s.send('/pets?limit=1')).text)![1];
/** A getPet of `id` answered 200 carries `id` (or is not 200). */
const sameOrNone = async (s: Srv, id: string) => {
  const r = await s.send(`/pets/${id}`);
  return r.status !== 200 || new RegExp(`"id":\\s*${id}\\b`).test(r.text);
};

export const WHOLE_REQUEST_PROOFS: Proof[] = [
  { fault: 'head-skips-auth', holds: async (s) => refused(await status(s.send('/pets', { method: 'HEAD', plan: null }))) },
  {
    fault: 'undocumented-delete-no-auth',
    holds: async (s) => refused(await status(s.send('/pets/9223372036854770001', { method: 'DELETE', plan: null }))),
  },
  {
    fault: 'head-always-200',
    holds: async (s) => (await status(s.send('/pets/9223372036854770001', { method: 'HEAD' }))) !== 200,
  },
  { fault: 'head-ignores-query', holds: async (s) => (await status(s.send('/pets?limit=0', { method: 'HEAD' }))) === 400 },
  { fault: 'method-405-bare', holds: async (s) => (await s.send('/pets', { method: 'PUT' })).headers.allow !== undefined },
  {
    fault: 'method-405-allow-partial',
    holds: async (s) => /POST/.test((await s.send('/pets', { method: 'PUT' })).headers.allow ?? ''),
  },
  {
    fault: 'key-case-insensitive',
    holds: async (s) => (await status(s.send('/pets', { authorization: `Bearer ${s.key().toUpperCase()}` }))) === 401,
  },
  {
    fault: 'token-unanchored',
    holds: async (s) => (await status(s.send('/pets', { authorization: `Bearer ${s.key()} more words` }))) === 401,
  },
  { fault: 'key-from-query', holds: async (s) => (await status(s.send(`/pets?api_key=${s.key()}`, { plan: null }))) === 401 },
  {
    fault: 'key-from-header',
    holds: async (s) => (await status(s.send('/pets', { plan: null, headers: { 'x-api-key': s.key() } }))) === 401,
  },
  {
    fault: 'basic-password-key',
    holds: async (s) =>
      (await status(s.send('/pets', { authorization: `Basic ${Buffer.from(`user:${s.key()}`).toString('base64')}` }))) === 401,
  },
  {
    fault: 'access-token-query-accepted',
    holds: async (s) => (await status(s.send(`/pets?access_token=${s.key()}`, { plan: null }))) === 401,
  },
  { fault: 'petid-uint64-wrap', holds: async (s) => sameOrNone(s, (BigInt(await firstId(s)) + 2n ** 64n).toString()) },
  { fault: 'petid-low-32-bits', holds: async (s) => sameOrNone(s, (BigInt(await firstId(s)) + 2n ** 32n).toString()) },
];
