/**
 * Authentication is decided before validation or lookup: an unauthenticated
 * request that would also be invalid or unknown is answered 401, not 400 / 404.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answered, createPetRaw, getPet, UNKNOWN_ID } from '../../src/harness/ops.ts';
import type { ApiRequest } from '../../src/http/client.ts';
import { judgeAuthenticationFirst } from '../../src/core/sections/auth/rules.ts';

const CASES: { title: string; request: ApiRequest; writes?: boolean }[] = [
  {
    title: 'An unauthenticated createPet with an invalid body is answered 401, not 400.',
    request: createPetRaw('{"categoryId":"not-a-number"}', { auth: 'none' }),
    writes: true,
  },
  { title: 'An unauthenticated getPet of an unknown id is answered 401, not 404.', request: getPet(UNKNOWN_ID, { auth: 'none' }) },
  {
    title: 'A getPet of an unknown id with an unknown key is answered 401, not 404.',
    request: getPet(UNKNOWN_ID, { auth: { authorization: 'Bearer unknown-key-for-lookup-order' } }),
  },
];

export default defineSpec({
  operation: 'auth',
  behaviour: 'authentication-first',
  tests: CASES.map((c) => ({
    title: c.title,
    requirements: ['AUTH-BEFORE-VALIDATION'],
    writes: c.writes,
    async run(t) {
      const ex = await t.request(c.request);
      t.judge(ex, [judgeAuthenticationFirst(answered(ex))]);
    },
  })),
});
