/**
 * listPets with limit 100, 20 and 1: the page never exceeds the limit, when the store holds more animals the page is
 * full, and no id appears twice on a page. The page size is judged by the core's rule (src/core/spec/list-pets/rules.ts).
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { answerOf, listPets, pageIds, repeatedIds } from '../../src/harness/ops.ts';
import { judgePage, judgePageSize, pageOf } from '../../src/core/spec/list-pets/rules.ts';
import { LIST_PETS } from '../../src/core/spec/list-pets/requirements.ts';
import { CREATE_PET } from '../../src/core/spec/create-pet/requirements.ts';

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
          const full = n >= want;
          if (known > 0)
            t.judge(ex, [
              LIST_PETS.judge('LIST-LIMIT-FILLS-PAGE', {
                ok: full,
                args: { limit },
                message: full
                  ? `limit=${limit} returned ${n} animals: a full page, as at least ${known} exist`
                  : `limit=${limit} returned only ${n} animals although at least ${known} exist`,
                evidence: full ? undefined : { expected: `${want}`, actual: String(n) },
              }),
            ]);
          known = Math.max(known, n);
          const twice = repeatedIds(pageIds(ex));
          t.judge(ex, [
            CREATE_PET.judge('CREATE-ID-UNIQUE', {
              ok: twice.length === 0,
              pass: 'page-distinct',
              fail: 'page-repeats',
              args: { limit },
              message: twice.length
                ? `limit=${limit}: id ${twice.join(', ')} appears more than once on the page`
                : `limit=${limit}: no id repeated among ${n} animals`,
              evidence: twice.length ? { expected: 'distinct ids', actual: twice.join(', ') } : undefined,
            }),
          ]);
        }
      },
    },
  ],
});
