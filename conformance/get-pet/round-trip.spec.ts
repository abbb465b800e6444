/**
 * getPet returns exactly what was created (or listed): the same Pet fields (id,
 * name, categoryId, status), the int64s compared digit by digit — ids above 2^53
 * must survive the round trip. Fields the spec does not define are not compared.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import {
  canonicalPet,
  createdPets,
  createdWithoutStatus,
  describeStatus,
  exactInteger,
  getPet,
  isObject,
  listPets,
} from '../../src/harness/ops.ts';
import type { TestContext } from '../../src/harness/context.ts';

const TWO_53 = 9007199254740992n;

async function roundTrip(t: TestContext, id: string, expected: string, origin: string) {
  const ex = await t.request(getPet(id));
  const got = ex.response?.status === 200 && ex.json !== undefined ? canonicalPet(ex.json) : undefined;
  const big = BigInt(id) > TWO_53 || BigInt(id) < -TWO_53;
  t.check(ex, {
    requirement: 'GET-ROUND-TRIP',
    ok: got === expected,
    pass: `pet ${id} returned identically${big ? ' (id above 2^53, exact)' : ''}`,
    fail: ex.response?.status === 200 ? 'Retrieved pet differs' : 'Pet not retrievable',
    message: `GET /pets/${id} (${origin}): ${describeStatus(ex)}`,
    evidence: { expected, actual: got ?? describeStatus(ex) },
  });
}

export default defineSpec({
  operation: 'getPet',
  behaviour: 'round-trip',
  tests: [
    {
      title: 'Every pet created in this run is returned by getPet with exactly the Pet fields of its 201 body.',
      requirements: ['GET-ROUND-TRIP'],
      writes: true,
      async run(t) {
        for (const p of [...(await createdPets(t)), await createdWithoutStatus(t)]) {
          if (p.id === undefined || p.canonical === undefined) continue;
          await roundTrip(t, p.id, p.canonical, 'created in this run');
        }
      },
    },
    {
      title: 'A pet taken from the list is returned by getPet with exactly the same Pet fields.',
      requirements: ['GET-ROUND-TRIP'],
      async run(t) {
        const list = await t.request(listPets({ limit: '1' }));
        if (list.response?.status !== 200 || !Array.isArray(list.json) || !isObject(list.json[0]))
          return t.report(list, {
            requirement: 'GET-ROUND-TRIP',
            outcome: 'skip',
            title: 'Could not be judged',
            message: 'the list returned no pet to fetch',
          });
        const id = exactInteger(list, '/0/id');
        if (id === undefined)
          return t.report(list, {
            requirement: 'GET-ROUND-TRIP',
            outcome: 'skip',
            title: 'Could not be judged',
            message: 'the listed pet has no integer id',
          });
        await roundTrip(t, id, canonicalPet(list.json[0], list.json, '/0'), 'from the list');
      },
    },
  ],
});
