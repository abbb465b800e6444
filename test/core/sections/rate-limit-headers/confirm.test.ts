/**
 * The Remaining burst of conformance/rate-limit-headers/remaining-decrements.spec.ts with another client on the same
 * key (simulated: the spec allows one, and two runs of the suite may share a key): that client's requests land between
 * the burst's at random points, uniformly and independently for each burst sent (the spec's random pause between bursts
 * makes them so; a client landing the same way on every burst would look like a server miscounting), and the burst's rules never fail the correct server; each fault they were written for still fails, alone on
 * the key. The rules themselves: scope.test.ts, spec-rules.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { burstRules, confirmBursts, needsAnother, type BurstRules } from '../../../../src/core/sections/rate-limit-headers/confirm.ts';
import type { ScopedStep } from '../../../../src/core/sections/rate-limit-headers/scope.ts';

type Fault = 'none' | 'create-counted-twice' | 'limit-per-route' | 'remaining-falls-by-two' | 'remaining-not-falling';

/** The spec's bursts, with writes on and off. */
const WITH_WRITES = ['listPets', 'listPets', 'getPet', 'getPet', 'createPet', 'listPets', 'createPet', 'getPet'];
const PLAN = ['listPets', 'listPets', 'getPet', 'getPet', 'listPets', 'getPet'];
const LIMIT = 1_000;
const RESET = 1_900_000_000;

/** A fixed window on one key (per route with limit-per-route) that counts each request as the fault says. */
function server(fault: Fault) {
  const used = new Map<string, number>();
  return (operation: string): number => {
    const bucket = fault === 'limit-per-route' ? operation : 'key';
    const cost = fault === 'remaining-falls-by-two' || (fault === 'create-counted-twice' && operation === 'createPet') ? 2 : 1;
    used.set(bucket, (used.get(bucket) ?? 0) + cost);
    return fault === 'remaining-not-falling' ? LIMIT : LIMIT - (used.get(bucket) ?? 0);
  };
}

/** Another client's request, sent just before the burst's request `before`. */
interface Foreign {
  before: number;
  operation: string;
}

/** One burst on `take`, the other client's requests interleaved. */
function burst(take: (op: string) => number, plan: readonly string[], foreign: readonly Foreign[]): BurstRules {
  const steps: ScopedStep[] = plan.map((operation, i) => {
    for (const f of foreign) if (f.before === i) take(f.operation);
    return { operation, remaining: take(operation), reset: RESET };
  });
  return burstRules(steps, true);
}

/** The spec's protocol: bursts while a failure is unconfirmed, each with its own share of the other client's requests. */
function run(fault: Fault, plan: readonly string[], foreign: readonly (readonly Foreign[])[] = []) {
  const take = server(fault);
  const sent: BurstRules[] = [];
  do sent.push(burst(take, plan, foreign[sent.length] ?? []));
  while (needsAnother(sent));
  const v = confirmBursts(sent);
  return { bursts: sent.length, verdicts: [v.judged, v.counted, v.scope].filter((j) => j !== undefined) };
}

const OPS = ['listPets', 'getPet', 'createPet'];

/** mulberry32: the other client's points drawn uniformly from a seed (fast-check's own values lean on repeats). */
function uniform(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per burst: how many requests the other client sends during it (up to two per step), at uniformly random points. */
const foreignOf = (plan: readonly string[]) =>
  fc.tuple(fc.integer({ min: 0, max: 2 * plan.length }), fc.nat()).map(([k, seed]) => {
    const r = uniform(seed);
    return Array.from({ length: k }, () => ({ before: Math.floor(r() * plan.length), operation: OPS[Math.floor(r() * 3)] }));
  });

describe('Another client on the key', () => {
  it.each([
    ['writes on', WITH_WRITES],
    ['writes off', PLAN],
  ])('interleaved at random points never makes a rule fail the correct server (%s).', (_what, plan) => {
    fc.assert(
      fc.property(fc.array(foreignOf(plan), { minLength: 4, maxLength: 4 }), (foreign) => {
        const { verdicts } = run('none', plan, foreign);
        expect(verdicts.filter((j) => j.outcome === 'fail').map((j) => j.message)).toEqual([]);
      }),
      { seed: 37, numRuns: 2_000 },
    );
  });

  it.each<[string, Foreign[]]>([
    [
      'lands on both creates of the first burst (it looked like create-counted-twice)',
      [
        { before: 4, operation: 'listPets' },
        { before: 6, operation: 'getPet' },
      ],
    ],
    [
      'spends one request between each two of the first burst (it looked like a count of two per request)',
      [1, 2, 3, 4, 5, 6, 7].map((before) => ({ before, operation: 'listPets' })),
    ],
  ])('that %s does not fail the correct server once the burst is sent again.', (_what, first) => {
    const { bursts, verdicts } = run('none', WITH_WRITES, [first]);
    expect(bursts).toBe(2);
    expect(verdicts.map((j) => j.outcome)).not.toContain('fail');
  });

  it('whose requests land the same way in three bursts and otherwise in the fourth leaves the rule not judged, the reason said.', () => {
    const onCreates = [
      { before: 4, operation: 'listPets' },
      { before: 6, operation: 'listPets' },
    ];
    const twiceOnOne = [...onCreates, { before: 4, operation: 'getPet' }];
    const { verdicts } = run('none', WITH_WRITES, [onCreates, onCreates, onCreates, twiceOnOne]);
    const counted = verdicts.find((j) => j.outcome === 'skip');
    expect(verdicts.map((j) => j.outcome)).not.toContain('fail');
    expect(counted?.message).toContain('another client on the key may have spent it meanwhile');
  });
});

describe('Each fault the rules were written for', () => {
  it.each<[Fault, readonly string[], string]>([
    ['create-counted-twice', WITH_WRITES, 'Requests of one operation counted more than once'],
    ['limit-per-route', WITH_WRITES, 'Remaining counted per operation, not per key'],
    ['limit-per-route', PLAN, 'Remaining counted per operation, not per key'],
    ['remaining-falls-by-two', WITH_WRITES, 'Remaining does not fall by one per request'],
    ['remaining-not-falling', PLAN, 'Remaining does not fall by one per request'],
  ])('%s still fails, in each of four bursts (case %#).', (fault, plan, title) => {
    const { bursts, verdicts } = run(fault, plan);
    expect(bursts).toBe(4);
    const failed = verdicts.filter((j) => j.outcome === 'fail');
    expect(failed.map((j) => j.title)).toContain(title);
    expect(failed[0].message).toContain('the same in each of 4 bursts');
  });

  it('the correct server alone on the key passes every rule with one burst.', () => {
    const { bursts, verdicts } = run('none', WITH_WRITES);
    expect([bursts, verdicts.map((j) => j.outcome)]).toEqual([1, ['pass', 'pass', 'pass']]);
  });
});
