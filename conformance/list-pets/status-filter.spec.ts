/**
 * listPets with the status filter returns only animals with that status; an
 * unknown status value is not a server error. When writes are allowed, one pet
 * of each status is created first so every filter has something to return.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { createdPets, describeStatus, isObject, listPets, STATUSES } from '../../src/harness/ops.ts';

export default defineSpec({
  operation: 'listPets',
  behaviour: 'status-filter',
  tests: [
    ...STATUSES.map((status) => ({
      title: `The filter status=${status} returns only animals whose status is ${status}.`,
      requirements: ['LIST-STATUS-FILTER'],
      async run(t: TestContext) {
        if (t.config.allowWrites) await createdPets(t);
        const ex = await t.request(listPets({ status, limit: '100' }));
        if (ex.response?.status !== 200 || !Array.isArray(ex.json)) {
          t.check('LIST-STATUS-FILTER', false, ex, { pass: '-', fail: 'Filtered list not answered with a page', message: `status=${status}: ${describeStatus(ex)}`, expected: '200 with Pets', actual: describeStatus(ex) });
          return;
        }
        const wrong = ex.json.filter((p) => !isObject(p) || p.status !== status).map((p) => (isObject(p) ? String(p.status) : typeof p));
        t.check('LIST-STATUS-FILTER', wrong.length === 0, ex, {
          pass: `status=${status} filter holds (${ex.json.length} animals)`,
          fail: 'Filter returns animals of another status',
          message: `status=${status} returned ${wrong.length} of ${ex.json.length} animals with another status (${[...new Set(wrong)].join(', ')})`,
          expected: `only status ${status}`,
          actual: [...new Set(wrong)].join(', '),
        });
      },
    })),
    {
      title: 'An unknown status value is answered without a server error.',
      requirements: ['LIST-STATUS-UNKNOWN-NO-5XX'],
      async run(t) {
        const ex = await t.request(listPets({ status: 'adopted-by-aliens' }, { alsoAcceptable: [400, 422] }));
        const status = ex.response?.status ?? 0;
        t.check('LIST-STATUS-UNKNOWN-NO-5XX', status < 500, ex, { pass: `unknown status answered ${status}`, fail: 'Unknown status causes a server error', message: `status=adopted-by-aliens: ${describeStatus(ex)}`, expected: '2xx or 4xx', actual: describeStatus(ex) });
      },
    },
  ],
});
