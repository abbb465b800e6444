/**
 * listPets with limit 100, then without a query, then with limit 20 and 1, one after another on one connection: the
 * page never exceeds the limit (the default, 20, when none is sent), when the store holds more animals the page is
 * full, and no id appears twice on a page. The request without a query follows one with a query on the same
 * connection: a server that keeps anything of a connection's previous request (its parsed query) shows it there. The
 * page size is judged by the core's rule (src/core/sections/list-pets/rules.ts).
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, listPets, pageIds, repeatedIds } from '../../src/harness/ops.ts';
import { judgeFillsPage, judgePage, judgePageSize, pageOf } from '../../src/core/sections/list-pets/rules.ts';
import { judgeDistinctOnPage } from '../../src/core/sections/create-pet/rules.ts';

/** The limits sent, in order (undefined: no query, right after the largest). */
const LIMITS = [100, undefined, 20, 1];
const CONNECTION = 'listPets/limit-honoured';

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-honoured',
  tests: [
    {
      title:
        'A limit of 100, 20 or 1 is never exceeded, nor the default 20 by a page asked without a query right after one with limit 100 on the same connection; the page is full when enough animals exist, and no id appears twice on a page.',
      requirements: ['LIST-200-PETS', 'LIST-LIMIT-HONOURED', 'LIST-DEFAULT-LIMIT', 'LIST-LIMIT-FILLS-PAGE', 'CREATE-ID-UNIQUE'],
      async run(t) {
        let known = 0; // animals known to exist (largest page seen)
        for (const limit of LIMITS) {
          const what = limit === undefined ? '(no query, after limit=100 on the same connection)' : `limit=${limit}`;
          const ex = await t.request({ ...listPets(limit === undefined ? {} : { limit: String(limit) }), connection: CONNECTION });
          const a = answerOf(ex);
          const page = a && pageOf(a);
          if (!a || !page) {
            t.judge(ex, a ? [judgePage(a, what)] : []);
            continue;
          }
          t.judge(ex, [judgePageSize(page, limit, what)]);
          if (limit === undefined) continue;
          const fills = judgeFillsPage(page, { limit, known });
          if (fills) t.judge(ex, [fills]);
          known = Math.max(known, page.length);
          t.judge(ex, [judgeDistinctOnPage(repeatedIds(pageIds(ex)), { limit, size: page.length })]);
        }
      },
    },
  ],
});
