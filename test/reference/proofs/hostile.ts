/** Probes of the hostile-server fault modes: each affects every request. */
import { isCrossOrigin } from '../../../src/http/transport.ts';
import type { Srv } from '../helpers.ts';
import type { Proof } from './types.ts';

const CAP = 1024 * 1024;
const complete = async (s: Srv) => {
  const r = await s.send('/pets', { timeoutMs: 1500, maxBytes: CAP });
  return r.error === undefined && !r.truncated && r.status === 200;
};

export const HOSTILE_PROOFS: Proof[] = [
  { fault: 'body-not-json', holds: async (s) => (await s.send('/pets')).json !== undefined },
  { fault: 'json-truncated', holds: async (s) => (await s.send('/pets')).json !== undefined },
  { fault: 'huge-body', holds: complete },
  { fault: 'hang', holds: complete },
  { fault: 'reset-connection', holds: complete },
  {
    fault: 'redirect-cross-origin',
    holds: async (s) => {
      const r = await s.send('/pets');
      return r.headers.location === undefined || !isCrossOrigin(s.url, r.headers.location);
    },
  },
  {
    fault: 'echo-key',
    holds: async (s) => {
      const r = await s.send('/pets/1');
      return !`${JSON.stringify(r.headers)}${r.text}`.includes(s.key());
    },
  },
  { fault: 'html-error', holds: async (s) => (await s.send('/pets')).status === 200 },
  { fault: 'always-500', holds: async (s) => (await s.send('/pets')).status === 200 },
];
