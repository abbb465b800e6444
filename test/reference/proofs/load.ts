/** Probes of the load fault modes, on an enterprise key with small limits and the fake clock. */
import { validateSchema } from '../../../src/schemas/ajv.ts';
import { arr, newPet, repeat, type Res, type Srv } from '../helpers.ts';
import type { Proof } from './types.ts';

const LIMIT = 12;
const options = { enterprise: { perMinute: LIMIT, perDay: 1000 } };
const burst = (s: Srv, n = LIMIT + 1) => repeat(s, n, '/pets?limit=1');
/** The first 429 of a burst one beyond the limit. */
const first429 = async (s: Srv): Promise<Res | undefined> => (await burst(s)).find((r) => r.status === 429);
const successes = (rs: Res[]) => rs.filter((r) => r.status === 200).length;

export const LOAD_PROOFS: Proof[] = [
  { fault: 'never-429', options, holds: async (s) => (await burst(s)).at(-1)!.status === 429 },
  { fault: 'throttle-503', options, holds: async (s) => (await burst(s)).at(-1)!.status === 429 },
  {
    // a createPet refused with 429 stores nothing: once the window has passed, the page of its status does not list it
    fault: 'create-429-stored',
    options,
    holds: async (s) => {
      await burst(s, LIMIT);
      const refused = await s.send('/pets', { body: newPet({ name: 'refused at the limit', status: 'sold' }) });
      s.clock.advance(60_000);
      const page = await s.send('/pets?status=sold&limit=100');
      return refused.status === 429 && page.status === 200 && !arr(page).some((p) => p.name === 'refused at the limit');
    },
  },
  {
    fault: 'reset-is-now',
    options,
    holds: async (s) => {
      s.clock.advance(1_000);
      return Number((await first429(s))!.headers['x-ratelimit-reset']) > Math.floor(s.clock.now() / 1000);
    },
  },
  {
    // the first 429's Retry-After asks no longer than its X-RateLimit-Reset announces (a second of rounding)
    fault: 'unearned-ban',
    options,
    holds: async (s) => {
      const r = (await first429(s))!;
      return Number(r.headers['retry-after']) <= Number(r.headers['x-ratelimit-reset']) - Math.floor(s.clock.now() / 1000) + 1;
    },
  },
  { fault: 'no-retry-after', options, holds: async (s) => (await first429(s))?.headers['retry-after'] !== undefined },
  { fault: 'retry-after-negative', options, holds: async (s) => /^\d+$/.test((await first429(s))?.headers['retry-after'] ?? '') },
  {
    fault: 'remaining-negative-on-429',
    options,
    holds: async (s) => /^\d+$/.test((await first429(s))?.headers['x-ratelimit-remaining'] ?? ''),
  },
  {
    fault: 'throttle-after-idle',
    options,
    holds: async (s) => {
      const fresh = (await s.send('/pets?limit=1')).status;
      s.clock.advance(60_000);
      return fresh === 200 && (await s.send('/pets?limit=1')).status === 200;
    },
  },
  {
    fault: 'retry-after-too-short',
    options,
    holds: async (s) => {
      s.clock.advance(1_000);
      s.clock.advance(Number((await first429(s))!.headers['retry-after']) * 1000);
      return (await s.send('/pets')).status === 200;
    },
  },
  {
    fault: 'sustained-throttle',
    options,
    holds: async (s) => {
      const steady: Res[] = []; // LIMIT - 1 requests, one every 5 s: below the ceiling within one window
      for (let i = 0; i < LIMIT - 1; i++, s.clock.advance(5_000)) steady.push(await s.send('/pets?limit=1'));
      return successes(steady) === LIMIT - 1 && successes(await burst(s, 1)) === 1;
    },
  },
  { fault: 'throttle-early', options, holds: async (s) => successes(await burst(s)) === LIMIT },
  { fault: 'window-10s', options, holds: async (s) => successes(await burst(s, LIMIT)) === LIMIT },
  { fault: 'remaining-on-429', options, holds: async (s) => (await first429(s))?.headers['x-ratelimit-remaining'] === '0' },
  {
    fault: 'daily-ignored',
    options: { enterprise: { perMinute: 5, perDay: 8 } },
    holds: async (s) => {
      const first = await burst(s, 5);
      s.clock.advance(60_000);
      return successes([...first, ...(await burst(s, 5))]) === 8;
    },
  },
  {
    fault: 'daily-quota-low',
    options: { enterprise: { perMinute: 5, perDay: 8 } },
    holds: async (s) => {
      const first = await burst(s, 5);
      s.clock.advance(60_000);
      return successes([...first, ...(await burst(s, 5))]) === 8;
    },
  },
  { fault: '429-body-not-error', options, holds: async (s) => validateSchema('Error', (await first429(s))?.json).valid },
  {
    // held out for issue 39: the balancer's 502 after 5 s of silence, without the app's headers
    fault: 'idle-keepalive-502',
    holds: async (s) => {
      await s.send('/pets?limit=1');
      s.clock.advance(6_000);
      return (await s.send('/pets?limit=1')).headers['x-ratelimit-remaining'] !== undefined;
    },
  },
  {
    fault: 'plans-share-bucket',
    holds: async (s) => {
      await s.send('/pets?limit=1', { plan: 'pro' });
      return (await s.send('/pets?limit=1', { plan: 'free' })).headers['x-ratelimit-remaining'] === '59';
    },
  },
];
