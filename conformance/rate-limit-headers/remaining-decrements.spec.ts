/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one
 * window, and X-RateLimit-Limit stays constant (judged by the rate-limit-headers
 * check). The verdict (src/core/sections/rate-limit-headers/decrements.ts) tolerates rollovers, sliding
 * windows and other clients on the key; a burst with no step of exactly one fails.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { listPets } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import { judgeDecrements } from '../../src/core/sections/rate-limit-headers/decrements.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { RATE_LIMIT_HEADERS } from '../../src/core/sections/rate-limit-headers/requirements.ts';

const BURST = 6;

async function burst(t: TestContext) {
  const seen: { ex: ApiExchange; remaining: number }[] = [];
  for (let i = 0; i < BURST; i++) {
    const ex = await t.request(listPets({ limit: '1' }));
    const r = ex.response && ex.response.status !== 429 ? readRateLimit(ex.response.headers).remaining : undefined;
    if (r !== undefined) seen.push({ ex, remaining: r });
  }
  const verdict =
    seen.length < 2 ? undefined : judgeDecrements(seen.slice(1).map((s, i) => ({ from: seen[i].remaining, to: s.remaining })));
  return { seen, verdict };
}

export default defineSpec({
  operation: 'rate-limit-headers',
  behaviour: 'remaining-decrements',
  tests: [
    {
      title: 'X-RateLimit-Remaining falls by exactly one for each of several sequential requests, and X-RateLimit-Limit stays the same.',
      requirements: ['RL-REMAINING-DECREMENTS', 'RL-LIMIT-CONSTANT'],
      async run(t) {
        // A failed burst is repeated once: traffic from another client on the same key is intermittent, a miscounting server is not.
        let last = await burst(t);
        if (last.verdict && !last.verdict.ok) last = await burst(t);
        const { seen, verdict } = last;
        const id = 'RL-REMAINING-DECREMENTS';
        if (!verdict)
          return void t.judge(undefined, [
            RATE_LIMIT_HEADERS.judge(id, {
              outcome: 'skip',
              title: 'not-judged',
              message: 'fewer than two responses carried X-RateLimit-Remaining',
            }),
          ]);
        const sequence = seen.map((s) => s.remaining).join(' → ');
        const judged = RATE_LIMIT_HEADERS.judge(id, {
          ok: verdict.ok,
          fail: 'sequential',
          message: `${verdict.message}; sequence ${sequence}`,
          ...(verdict.ok ? {} : { evidence: { expected: 'a drop of exactly one per request', actual: sequence } }),
        });
        t.judge(seen[seen.length - 1].ex, [judged]);
      },
    },
  ],
});
