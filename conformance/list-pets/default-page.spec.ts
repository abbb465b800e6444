/**
 * listPets without parameters: 200 with a page (Pets) of at most 20 animals.
 * When writes are allowed the suite's own pets exist, so the page cannot be
 * empty; with writes off the store may be empty and nothing is concluded.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { createdPets, describeStatus, listPets } from '../../src/harness/ops.ts';

export default defineSpec({
  operation: 'listPets',
  behaviour: 'default-page',
  tests: [
    {
      title: 'GET /pets with a valid key answers 200 with a page of at most 20 animals, not empty once the suite has created pets.',
      requirements: ['LIST-200-PETS', 'LIST-DEFAULT-LIMIT', 'LIST-PAGINATION-CONTROLS'],
      async run(t) {
        const created = t.config.allowWrites ? (await createdPets(t)).filter((p) => p.id !== undefined).length : 0;
        const ex = await t.request(listPets());
        t.check(ex, {
          requirement: 'LIST-200-PETS',
          ok: ex.response?.status === 200,
          pass: 'listPets answered 200',
          fail: 'listPets did not answer 200',
          message: describeStatus(ex),
          evidence: { expected: '200', actual: describeStatus(ex) },
        });
        if (ex.response?.status !== 200 || !Array.isArray(ex.json)) return;
        const n = ex.json.length;
        if (created > 0)
          t.check(ex, {
            requirement: 'LIST-200-PETS',
            ok: n > 0,
            pass: 'The page lists animals',
            fail: 'Empty page although animals exist',
            message: n > 0 ? `the default page holds ${n} animals` : `the default page is empty although the suite created ${created} pets`,
            evidence: { expected: 'at least 1 animal', actual: String(n) },
          });
        t.check(ex, {
          requirement: 'LIST-DEFAULT-LIMIT',
          ok: n <= 20,
          pass: 'Default page within 20',
          fail: 'Default page larger than 20',
          message: `the default page holds ${n} animals`,
          evidence: { expected: '≤ 20', actual: String(n) },
        });
        const link = ex.response.headers.link;
        const other = Object.keys(ex.response.headers).filter((h) => /^x-(total|next|page|cursor)/i.test(h));
        t.report(ex, {
          requirement: 'LIST-PAGINATION-CONTROLS',
          outcome: 'observe',
          title: 'Pagination controls observed',
          message:
            link || other.length ? `Link: ${link ?? '-'}; headers: ${other.join(', ') || '-'}` : 'no Link or paging headers on the page',
        });
      },
    },
  ],
});
