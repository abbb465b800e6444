/**
 * listPets with limit 100, 20 and 1: the page never exceeds the limit, when the store holds more animals the page is
 * full, and no id appears twice on a page. The page size is judged by the core's rule (src/core/spec/list-pets/rules.ts).
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { answerOf, listPets, pageIds, repeatedIds } from '../../src/harness/ops.ts';
import { judgePage, judgePageSize, pageOf } from '../../src/core/spec/list-pets/rules.ts';

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
          const n = page.length;
          t.judge(ex, [judgePageSize(page, limit, `limit=${limit}`)]);
          const want = Math.min(limit, known);
          if (known > 0)
            t.check(ex, {
              requirement: 'LIST-LIMIT-FILLS-PAGE',
              ok: n >= want,
              pass: `limit=${limit} page is full`,
              fail: 'Page shorter than limit though more animals exist',
              message:
                n >= want
                  ? `limit=${limit} returned ${n} animals: a full page, as at least ${known} exist`
                  : `limit=${limit} returned only ${n} animals although at least ${known} exist`,
              evidence: { expected: `${want}`, actual: String(n) },
            });
          known = Math.max(known, n);
          const twice = repeatedIds(pageIds(ex));
          t.check(ex, {
            requirement: 'CREATE-ID-UNIQUE',
            ok: twice.length === 0,
            pass: `the ids on the limit=${limit} page are distinct`,
            fail: 'Two animals on one page share an id',
            message: twice.length
              ? `limit=${limit}: id ${twice.join(', ')} appears more than once on the page`
              : `limit=${limit}: no id repeated among ${n} animals`,
            evidence: { expected: 'distinct ids', actual: twice.join(', ') },
          });
        }
      },
    },
  ],
});
