/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one
 * window, and X-RateLimit-Limit stays constant (judged by the rate-limit-headers
 * check). The verdict (src/core/spec/rate-limit-headers/decrements.ts) tolerates rollovers, sliding
 * windows and other clients on the key; a burst with no step of exactly one fails.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { listPets } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import { judgeDecrements } from '../../src/core/spec/rate-limit-headers/decrements.ts';
import type { TestContext } from '../../src/harness/context.ts';

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
        if (!verdict)
          return t.report(undefined, {
            requirement: 'RL-REMAINING-DECREMENTS',
            outcome: 'skip',
            title: 'Could not be judged',
            message: 'fewer than two responses carried X-RateLimit-Remaining',
          });
        t.check(seen[seen.length - 1].ex, {
          requirement: 'RL-REMAINING-DECREMENTS',
          ok: verdict.ok,
          pass: 'Remaining falls by one per request',
          fail: 'Remaining does not fall by one per request',
          message: `${verdict.message}; sequence ${seen.map((s) => s.remaining).join(' → ')}`,
          evidence: { expected: 'a drop of exactly one per request', actual: seen.map((s) => s.remaining).join(' → ') },
        });
      },
    },
  ],
});
