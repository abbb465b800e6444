/**
 * getPet of an id that does not exist is answered 404 with an Error; a petId
 * that is not an int64 is answered with a 4xx, never a 5xx.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { describeStatus, getPet, OTHER_UNKNOWN_ID, UNKNOWN_ID } from '../../src/harness/ops.ts';

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
        t.check(ex, {
          requirement: 'GET-404-UNKNOWN',
          ok: ex.response?.status === 404,
          pass: `unknown id answered 404${note}`,
          fail: 'Unknown id not answered 404',
          message: `GET /pets/${id}: ${describeStatus(ex)}${note}`,
          evidence: { expected: '404', actual: describeStatus(ex) },
        });
      },
    },
    ...NON_INTEGER.map((id) => ({
      title: `A petId of ${JSON.stringify(decodeURIComponent(id))} is answered with a 4xx, never a 5xx.`,
      requirements: ['GET-NON-INTEGER-ID-4XX'],
      async run(t: TestContext) {
        const ex = await t.request({ ...getPet('x', { alsoAcceptable: [400, 422] }), path: `/pets/${id}` });
        const s = ex.response?.status ?? 0;
        t.check(ex, {
          requirement: 'GET-NON-INTEGER-ID-4XX',
          ok: s >= 400 && s < 500,
          pass: `answered ${s}`,
          fail: s >= 500 ? 'Non-integer id causes a server error' : 'Non-integer id not rejected',
          message: `GET /pets/${id}: ${describeStatus(ex)}`,
          evidence: { expected: '4xx', actual: describeStatus(ex) },
        });
      },
    })),
  ],
});
