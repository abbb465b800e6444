/**
 * X-RateLimit-Remaining falls by exactly one between sequential requests in one window, whatever the operation, and
 * X-RateLimit-Limit stays constant (judged by the rate-limit-headers check). The burst interleaves the operations —
 * listPets, getPet of a listed (or created) pet, createPet where writes are allowed — since the limit is the key's,
 * not each route's (src/core/sections/rate-limit-headers/scope.ts); its last request follows one without credentials,
 * to observe whether that one counted against the key. The decrement rule (decrements.ts) tolerates rollovers,
 * sliding windows and other clients on the key; a burst with no step of exactly one fails. Each operation comes at
 * least twice after another request, so that one counted more than once per request (every step into it falling by
 * two) is told from another client's request, which falls where it may (scope.ts, judgeCountPerOperation). A rule
 * failed by the burst stands only when the burst, sent again three times after random pauses, fails it the same way each
 * time (confirm.ts): another client on the key — two runs of this suite at once — turns it into "not judged", never
 * into a failure.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { createPet, getPet, listPets, pageIds, exactInteger, uniqueName, UNKNOWN_ID } from '../../src/harness/ops.ts';
import { readRateLimit } from '../../src/core/ratelimit.ts';
import type { ApiExchange, ApiRequest } from '../../src/http/client.ts';
import { observeUnauthenticated, type ScopedStep } from '../../src/core/sections/rate-limit-headers/scope.ts';
import { burstRules, confirmBursts, needsAnother } from '../../src/core/sections/rate-limit-headers/confirm.ts';
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
    rules: burstRules(
      seen.map((s) => s.step),
      all2xx,
    ),
  };
}

/**
 * The burst, sent again while a rule's failure is not confirmed (./confirm.ts): each time after a random pause of up to
 * a tenth of a second plus eight times the burst's own length (5 s at most), so that another client sending the same
 * burst at the same pace — a second run of this suite on the key — falls out of step.
 */
async function bursts(t: TestContext) {
  const now = t.session.opts.now ?? Date.now;
  const sleep = t.session.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const sent: Awaited<ReturnType<typeof burst>>[] = [];
  for (;;) {
    const started = now();
    sent.push(await burst(t));
    if (!needsAnother(sent.map((b) => b.rules))) break;
    await sleep(Math.min(5_000, Math.random() * (100 + 8 * (now() - started))));
  }
  return { seen: sent[sent.length - 1].seen, ...confirmBursts(sent.map((b) => b.rules)) };
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
        // A failed burst is sent again, apart: another client on the same key lands where it may, a miscounting server
        // miscounts every burst the same way.
        const { seen, judged, counted, scope } = await bursts(t);
        const end = seen[seen.length - 1];
        // Not judged: by no exchange; else by the last burst's last.
        if (judged) t.judge(judged.outcome === 'skip' ? undefined : end?.ex, [judged]);
        if (counted) t.judge(counted.outcome === 'skip' ? undefined : end?.ex, [counted]);
        if (scope) t.judge(scope.outcome === 'skip' ? undefined : end?.ex, [scope]);
        const anon = await unauthenticated(t, end);
        if (anon) t.judge(anon.ex, [anon.judged]);
      },
    },
  ],
});
