/**
 * A request served with the key, sent again at once without it, is answered 401 (issue 39: Schemathesis's
 * `ignored_auth` check). A cache in front of authentication (a CDN or gateway keyed by the URL alone, a
 * memoised handler) serves the second from the first's answer; the spec's 401 tables never see it, since they
 * send no request the server answered just before. The reads only: the first page, a page with a query, and
 * one pet by id (from that page), each once with the key and once without.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import type { ApiRequest } from '../../src/http/client.ts';
import { answered, getPet, listPets, pageIds } from '../../src/harness/ops.ts';
import { judgeBadCredential } from '../../src/core/sections/auth/rules.ts';

async function again(t: TestContext, req: ApiRequest, what: string) {
  const served = await t.request(req);
  const ex = await t.request({ ...req, auth: 'none' });
  t.judge(ex, [
    judgeBadCredential(answered(ex), { requirement: 'AUTH-MISSING-401', what: `no key, right after ${what} was served with it` }),
  ]);
  return served;
}

export default defineSpec({
  operation: 'auth',
  behaviour: 'repeated-without-key',
  tests: [
    {
      title: 'A read served with the key and sent again at once without it is answered 401.',
      requirements: ['AUTH-MISSING-401'],
      async run(t) {
        const page = await again(t, listPets(), 'the same request');
        await again(t, listPets({ limit: '3' }), 'the same request');
        const id = t.conclusive(page) ? pageIds(page)[0] : undefined;
        if (id !== undefined) await again(t, getPet(id), 'the same request');
      },
    },
  ],
});
