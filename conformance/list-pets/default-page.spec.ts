/**
 * listPets without parameters: 200 with a page (Pets) of at most 20 animals. When writes are allowed the suite's own
 * pets exist, so a page that lists every animal (shorter than its limit and than the largest page the server has
 * served) holds each of them, exactly as created; with writes off the store may be empty and nothing is concluded.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, createdPets, expectedPet, listPets } from '../../src/harness/ops.ts';
import { judgeListed, judgePage, judgePageSize, judgePaginationControls, pageOf } from '../../src/core/sections/list-pets/rules.ts';

export default defineSpec({
  operation: 'listPets',
  behaviour: 'default-page',
  tests: [
    {
      title:
        'GET /pets with a valid key answers 200 with a page of at most 20 animals, among them the pets the suite created when the page lists every animal.',
      requirements: ['LIST-200-PETS', 'LIST-DEFAULT-LIMIT', 'LIST-COMPLETE-PAGE', 'LIST-ROUND-TRIP', 'LIST-PAGINATION-CONTROLS'],
      async run(t) {
        const created = t.config.allowWrites ? (await createdPets(t)).map(expectedPet).filter((p) => p !== undefined) : [];
        const ex = await t.request(listPets());
        const a = answerOf(ex);
        const page = a && pageOf(a);
        if (!a || !page || ex.response?.status !== 200) return void t.judge(ex, a ? [judgePage(a, '(no query)')] : []);
        const listing = { page, limit: 20, largest: t.session.largestPage(20), what: '(no query)' };
        t.judge(ex, [
          judgePage(a, '(no query)'),
          judgePageSize(page, undefined, '(no query)'),
          ...created.flatMap((p) => judgeListed(p.expected, p.id, listing, p.sent.written)),
        ]);
        t.judge(ex, [judgePaginationControls(ex.response.headers)]);
      },
    },
  ],
});
