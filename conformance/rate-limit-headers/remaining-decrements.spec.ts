/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one window, whatever the operation, and
 * X-RateLimit-Limit stays constant (judged by the rate-limit-headers check). The burst interleaves the operations —
 * listPets, getPet of a listed (or created) pet, createPet where writes are allowed — since the limit is the key's,
 * not each route's (src/core/sections/rate-limit-headers/scope.ts); its last request follows one without credentials,
 * to observe whether that one counted against the key. The decrement rule (decrements.ts) tolerates rollovers,
 * sliding windows and other clients on the key; a burst with no step of exactly one fails. Each operation comes at
 * least twice after another request, so that one counted more than once per request (every step into it falling by
 * two) is told from another client's request, which falls where it may (scope.ts, judgeCountPerOperation).
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { createPet, getPet, listPets, pageIds, exactInteger, uniqueName, UNKNOWN_ID } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange, ApiRequest } from '../../src/http/client.ts';
import { judgeSequentialDecrements } from '../../src/core/sections/rate-limit-headers/decrements.ts';
import {
  judgeCountPerOperation,
  judgeKeyScope,
  observeUnauthenticated,
  type ScopedStep,
} from '../../src/core/sections/rate-limit-headers/scope.ts';
import type { TestContext } from '../../src/harness/context.ts';

type Step = 'list' | 'get' | 'create';

/**
 * The burst's operations on the key: two of one, two of another, then alternating (each change of operation a step to
 * judge); every operation follows another request at least twice (steps into it: counted once each, or more).
 */
const PLAN: readonly Step[] = ['list', 'list', 'get', 'get', 'list', 'get'];
const WITH_WRITES: readonly Step[] = ['list', 'list', 'get', 'get', 'create', 'list', 'create', 'get'];

interface Seen {
  ex: ApiExchange;
  step: ScopedStep;
}

async function burst(t: TestContext) {
  const seen: Seen[] = [];
  let id: string | undefined;
  const requestOf = (s: Step): ApiRequest =>
    s === 'list'
      ? listPets({ limit: '1' })
      : s === 'get'
        ? getPet(id ?? UNKNOWN_ID)
        : createPet({ name: uniqueName('scope'), categoryId: 1 });
  const send = async (s: Step) => {
    const ex = await t.request(requestOf(s));
    id ??= s === 'create' && ex.response?.status === 201 ? exactInteger(ex, '/id') : pageIds(ex)[0];
    const rl = ex.response && ex.response.status !== 429 ? readRateLimit(ex.response.headers) : undefined;
    if (rl?.remaining !== undefined)
      seen.push({ ex, step: { operation: requestOf(s).operation, remaining: rl.remaining, reset: rl.reset } });
    return ex;
  };
  for (const s of t.config.allowWrites ? WITH_WRITES : PLAN) await send(s);
  const all2xx =
    seen.length === (t.config.allowWrites ? WITH_WRITES : PLAN).length && seen.every((x) => (x.ex.response?.status ?? 0) < 300);
  return {
    seen,
    judged: judgeSequentialDecrements(seen.map((s) => s.step.remaining)),
    counted: judgeCountPerOperation(seen.map((s) => s.step)),
    scope: all2xx ? judgeKeyScope(seen.map((s) => s.step)) : undefined,
  };
}

/** One request without credentials, then one with the key: did the first count against the key? (observed) */
async function unauthenticated(t: TestContext, before: Seen | undefined) {
  if (!before) return undefined;
  const anon = await t.request(listPets({ limit: '1' }, { auth: 'none' }));
  const next = await t.request(listPets({ limit: '1' }));
  const after = next.response?.status === 200 ? readRateLimit(next.response.headers).remaining : undefined;
  if (after === undefined) return undefined;
  const own = anon.response ? readRateLimit(anon.response.headers) : undefined;
  return {
    ex: anon,
    judged: observeUnauthenticated({
      before: before.step.remaining,
      after,
      status: anon.response?.status,
      limit: own?.limit,
      remaining: own?.remaining,
    }),
  };
}

const failed = (r: Awaited<ReturnType<typeof burst>>) =>
  r.judged.outcome === 'fail' || r.counted.outcome === 'fail' || r.scope?.outcome === 'fail';

export default defineSpec({
  operation: 'rate-limit-headers',
  behaviour: 'remaining-decrements',
  tests: [
    {
      title:
        'X-RateLimit-Remaining falls by exactly one for each of several sequential requests, whatever their operation, and X-RateLimit-Limit stays the same.',
      requirements: ['RL-REMAINING-DECREMENTS', 'RL-LIMIT-CONSTANT', 'RL-SCOPE'],
      // Counts Remaining one request at a time: no request of another test may be counted between two of its own.
      alone: true,
      async run(t) {
        // A failed burst is repeated once: traffic from another client on the same key is intermittent, a miscounting server is not.
        let last = await burst(t);
        if (failed(last)) last = await burst(t);
        const { seen, judged, counted, scope } = last;
        const end = seen[seen.length - 1];
        // Not judged (fewer than two values): by no exchange; else by the burst's last.
        t.judge(judged.outcome === 'skip' ? undefined : end.ex, [judged]);
        t.judge(counted.outcome === 'skip' ? undefined : end.ex, [counted]);
        if (scope) t.judge(end.ex, [scope]);
        const anon = await unauthenticated(t, end);
        if (anon) t.judge(anon.ex, [anon.judged]);
      },
    },
  ],
});
