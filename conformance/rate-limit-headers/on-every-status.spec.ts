/**
 * The rate-limit headers are on every response: a 2xx, a 400, a 401 and a 404
 * are produced on purpose (none of them can create a pet) and the
 * rate-limit-headers check judges each.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { createPetRaw, describeStatus, getPet, listPets, UNKNOWN_ID } from '../../src/harness/ops.ts';
import type { ApiRequest } from '../../src/http/client.ts';
import { judgeHeadersByStatus, judgeNoStatusToInspect } from '../../src/core/sections/rate-limit-headers/rules.ts';

/** The 400 needs a POST (the only documented 400), so it is skipped when writes are off. */
const CASES: { status: number; request: ApiRequest; writes?: boolean }[] = [
  { status: 200, request: listPets({ limit: '1' }) },
  { status: 400, request: createPetRaw('{"name":'), writes: true },
  { status: 401, request: listPets({ limit: '1' }, { auth: 'none' }) },
  { status: 404, request: getPet(UNKNOWN_ID) },
];

export default defineSpec({
  operation: 'rate-limit-headers',
  behaviour: 'on-every-status',
  tests: CASES.map((c) => ({
    title: `A ${c.status} response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.`,
    requirements: ['RL-HEADERS-PRESENT', 'RL-HEADERS-INTEGER', 'RL-RESET-UNIX-SECONDS', 'RL-REMAINING-LE-LIMIT'],
    writes: c.writes,
    async run(t) {
      const ex = await t.request(c.request);
      if (ex.response?.status !== c.status) return void t.judge(ex, [judgeNoStatusToInspect(c.status, describeStatus(ex))]);
      t.judge(ex, [judgeHeadersByStatus(c.status, ex.response.headers)]);
    },
  })),
});
