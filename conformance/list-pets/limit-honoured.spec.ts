/**
 * listPets with limit 100, 20 and 1: the page never exceeds the limit, when the store holds more animals the page is
 * full, and no id appears twice on a page. The page size is judged by the core's rule (src/core/sections/list-pets/rules.ts).
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, listPets, pageIds, repeatedIds } from '../../src/harness/ops.ts';
import { judgeFillsPage, judgePage, judgePageSize, pageOf } from '../../src/core/sections/list-pets/rules.ts';
import { judgeDistinctOnPage } from '../../src/core/sections/create-pet/rules.ts';

const LIMITS = [100, 20, 1];

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-honoured',
  tests: [
    {
      title: 'A limit of 100, 20 or 1 is never exceeded, the page is full when enough animals exist, and no id appears twice on a page.',
      requirements: ['LIST-200-PETS', 'LIST-LIMIT-HONOURED', 'LIST-LIMIT-FILLS-PAGE', 'CREATE-ID-UNIQUE'],
      async run(t) {
        let known = 0; // animals known to exist (largest page seen)
        for (const limit of LIMITS) {
          const ex = await t.request(listPets({ limit: String(limit) }));
          const a = answerOf(ex);
          const page = a && pageOf(a);
          if (!a || !page) {
            t.judge(ex, a ? [judgePage(a, `limit=${limit}`)] : []);
            continue;
          }
          t.judge(ex, [judgePageSize(page, limit, `limit=${limit}`)]);
          const fills = judgeFillsPage(page, { limit, known });
          if (fills) t.judge(ex, [fills]);
          known = Math.max(known, page.length);
          t.judge(ex, [judgeDistinctOnPage(repeatedIds(pageIds(ex)), { limit, size: page.length })]);
        }
      },
    },
  ],
});
