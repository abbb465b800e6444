/**
 * getPet of an id that does not exist is answered 404 with an Error; a petId
 * that is not an int64 is answered with a 4xx, never a 5xx.
 */
import { defineSpec, type SpecTest } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { answerOf, getPet, OTHER_UNKNOWN_ID, UNKNOWN_ID } from '../../src/harness/ops.ts';
import { judgeNonIntegerId, judgeUnknownId } from '../../src/core/sections/get-pet/rules.ts';

const NON_INTEGER = ['abc', '1.5', '9223372036854775808', '%20', '1e3'];

export default defineSpec({
  operation: 'getPet',
  behaviour: 'unknown-id',
  tests: [
    {
      title: 'An id no pet has is answered 404 with an Error.',
      requirements: ['GET-404-UNKNOWN'],
      async run(t) {
        let id = UNKNOWN_ID;
        let ex = await t.request(getPet(id));
        // A 200 may be a pet the server really issued with that id: try one far from it before judging.
        if (ex.response?.status === 200) ex = await t.request(getPet((id = OTHER_UNKNOWN_ID)));
        const note = id === UNKNOWN_ID ? '' : ` (GET /pets/${UNKNOWN_ID} answered 200 too)`;
        const a = answerOf(ex);
        t.judge(ex, a ? [judgeUnknownId(id, a, `GET /pets/${id}${note}`, id !== UNKNOWN_ID)] : []);
      },
    },
    ...NON_INTEGER.map((id): SpecTest => ({
      title: `A petId of ${JSON.stringify(decodeURIComponent(id))} is answered with a 4xx, never a 5xx.`,
      requirements: ['GET-NON-INTEGER-ID-4XX'],
      async run(t: TestContext) {
        const ex = await t.request({ ...getPet('x', { alsoAcceptable: [400, 422] }), path: `/pets/${id}` });
        const a = answerOf(ex);
        t.judge(ex, a ? [judgeNonIntegerId(a, `GET /pets/${id}`)] : []);
      },
    })),
  ],
});
