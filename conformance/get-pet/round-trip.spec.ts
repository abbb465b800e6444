/**
 * getPet returns exactly what was created (or listed): the same Pet fields (id, name, categoryId, status), the int64s
 * compared digit by digit — ids above 2^53 must survive the round trip. Fields the spec does not define are not
 * compared. Judged by the core's rule (src/core/sections/get-pet/rules.ts), the one the exploration phase calls too.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, createdPets, createdWithoutStatus, exactInteger, expectedPet, getPet, listPets } from '../../src/harness/ops.ts';
import { judgeNothingToReadBack, judgeReadBack, type ReadBack } from '../../src/core/sections/get-pet/rules.ts';
import { petAt } from '../../src/core/sections/pets.ts';
import type { TestContext } from '../../src/harness/context.ts';

async function readBack(t: TestContext, pet: ReadBack) {
  const ex = await t.request(getPet(pet.id));
  const a = answerOf(ex);
  t.judge(ex, a ? judgeReadBack(a, pet) : []);
}

export default defineSpec({
  operation: 'getPet',
  behaviour: 'round-trip',
  tests: [
    {
      title: 'Every pet created in this run is returned by getPet with exactly the Pet fields it was created with.',
      requirements: ['GET-ROUND-TRIP'],
      writes: true,
      async run(t) {
        const read = [...(await createdPets(t)), await createdWithoutStatus(t)].map(expectedPet).filter((e) => e !== undefined);
        await t.together(read, (e) =>
          readBack(t, { id: e.id, expected: e.expected, origin: 'created in this run', written: e.sent.written }),
        );
      },
    },
    {
      title: 'A pet taken from the list is returned by getPet with exactly the same Pet fields.',
      requirements: ['GET-ROUND-TRIP'],
      async run(t) {
        const list = await t.request(listPets({ limit: '1' }));
        const listed = list.response?.status === 200 ? petAt(list.json, '/0') : undefined;
        const id = listed ? exactInteger(list, '/0/id') : undefined;
        if (!listed || id === undefined) return void t.judge(list, [judgeNothingToReadBack(!!listed)]);
        await readBack(t, { id, expected: listed, origin: 'from the list' });
      },
    },
  ],
});
