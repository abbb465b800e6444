/**
 * An id asked for before it was issued is readable once it is (issue 39: what a refusal leaves behind, the reads'
 * side). A lookup cache that keeps "no such pet" too answers the new pet 404 until it expires. The id asked for is
 * the one after a pet created now — the next id where ids are a sequence; where they are not, the second create is
 * read back all the same.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, create, expectedPet, getPet } from '../../src/harness/ops.ts';
import { judgeReadBack } from '../../src/core/sections/get-pet/rules.ts';

export default defineSpec({
  operation: 'getPet',
  behaviour: 'read-before-create',
  tests: [
    {
      title: 'An id read (404) before a create issues it is then returned by getPet with the created fields.',
      requirements: ['GET-ROUND-TRIP'],
      writes: true,
      async run(t) {
        const first = expectedPet(await create(t, 'available', '5'));
        if (first) await t.request(getPet((BigInt(first.id) + 1n).toString()));
        const second = expectedPet(await create(t, 'pending', '6'));
        if (!second) return;
        const ex = await t.request(getPet(second.id));
        const a = answerOf(ex);
        const origin =
          second.id === (first && (BigInt(first.id) + 1n).toString()) ? 'created after its id was read (404)' : 'created in this run';
        t.judge(ex, a ? judgeReadBack(a, { id: second.id, expected: second.expected, origin, written: second.sent.written }) : []);
      },
    },
  ],
});
