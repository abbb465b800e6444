/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one
 * window, and X-RateLimit-Limit stays constant. A rise is a window rollover (or
 * a sliding window releasing requests) and is not judged; a drop of two or more,
 * or no drop at all across the burst, is a failure.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { listPets } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import { judgeDecrements } from '../../src/checks/remaining.ts';

const BURST = 6;

export default defineSpec({
  operation: 'rate-limit-headers',
  behaviour: 'remaining-decrements',
  tests: [
    {
      title: 'X-RateLimit-Remaining falls by exactly one for each of several sequential requests, and X-RateLimit-Limit stays the same.',
      requirements: ['RL-REMAINING-DECREMENTS', 'RL-LIMIT-CONSTANT'],
      async run(t) {
        const seen: { ex: ApiExchange; remaining: number }[] = [];
        for (let i = 0; i < BURST; i++) {
          const ex = await t.request(listPets({ limit: '1' }));
          const r = ex.response && ex.response.status !== 429 ? readRateLimit(ex.response.headers).remaining : undefined;
          if (r !== undefined) seen.push({ ex, remaining: r });
        }
        if (seen.length < 2) return t.record('RL-REMAINING-DECREMENTS', 'skip', 'Could not be judged', 'fewer than two responses carried X-RateLimit-Remaining');
        const steps = seen.slice(1).map((s, i) => ({ from: seen[i].remaining, to: s.remaining }));
        const v = judgeDecrements(steps);
        t.check('RL-REMAINING-DECREMENTS', v.ok, seen[seen.length - 1].ex, {
          pass: 'Remaining falls by one per request',
          fail: 'Remaining does not fall by one per request',
          message: `${v.message}; sequence ${seen.map((s) => s.remaining).join(' → ')}`,
          expected: 'a drop of exactly one per request',
          actual: seen.map((s) => s.remaining).join(' → '),
        });
      },
    },
  ],
});
