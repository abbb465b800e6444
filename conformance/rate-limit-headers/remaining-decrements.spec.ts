/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one
 * window, and X-RateLimit-Limit stays constant (judged by the rate-limit-headers
 * check). The rule (src/core/sections/rate-limit-headers/decrements.ts) tolerates rollovers, sliding
 * windows and other clients on the key; a burst with no step of exactly one fails.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { listPets } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import { judgeSequentialDecrements } from '../../src/core/sections/rate-limit-headers/decrements.ts';
import type { TestContext } from '../../src/harness/context.ts';

const BURST = 6;

async function burst(t: TestContext) {
  const seen: { ex: ApiExchange; remaining: number }[] = [];
  for (let i = 0; i < BURST; i++) {
    const ex = await t.request(listPets({ limit: '1' }));
    const r = ex.response && ex.response.status !== 429 ? readRateLimit(ex.response.headers).remaining : undefined;
    if (r !== undefined) seen.push({ ex, remaining: r });
  }
  return { seen, judged: judgeSequentialDecrements(seen.map((s) => s.remaining)) };
}

export default defineSpec({
  operation: 'rate-limit-headers',
  behaviour: 'remaining-decrements',
  tests: [
    {
      title: 'X-RateLimit-Remaining falls by exactly one for each of several sequential requests, and X-RateLimit-Limit stays the same.',
      requirements: ['RL-REMAINING-DECREMENTS', 'RL-LIMIT-CONSTANT'],
      // Counts Remaining one request at a time: no request of another test may be counted between two of its own.
      alone: true,
      async run(t) {
        // A failed burst is repeated once: traffic from another client on the same key is intermittent, a miscounting server is not.
        let last = await burst(t);
        if (last.judged.outcome === 'fail') last = await burst(t);
        const { seen, judged } = last;
        // Not judged (fewer than two values): by no exchange; else by the burst's last.
        t.judge(judged.outcome === 'skip' ? undefined : seen[seen.length - 1].ex, [judged]);
      },
    },
  ],
});
