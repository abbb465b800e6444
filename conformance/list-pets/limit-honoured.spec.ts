/**
 * listPets with limit 100, 20 and 1: the page never exceeds the limit, when the
 * store holds more animals the page is full, and no id appears twice on a page.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { listPets, pageIds, repeatedIds } from '../../src/harness/ops.ts';

const LIMITS = [100, 20, 1];

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-honoured',
  tests: [
    {
      title: 'A limit of 100, 20 or 1 is never exceeded, the page is full when enough animals exist, and no id appears twice on a page.',
      requirements: ['LIST-LIMIT-HONOURED', 'LIST-LIMIT-FILLS-PAGE', 'CREATE-ID-UNIQUE'],
      async run(t) {
        let known = 0; // animals known to exist (largest page seen)
        for (const limit of LIMITS) {
          const ex = await t.request(listPets({ limit: String(limit) }));
          if (!t.conclusive(ex) || ex.response!.status !== 200 || !Array.isArray(ex.json)) {
            t.check(ex, {
              requirement: 'LIST-LIMIT-HONOURED',
              ok: false,
              pass: '-',
              fail: 'limit request not answered with a page',
              message: `limit=${limit}: HTTP ${ex.response?.status}`,
              evidence: { expected: '200 with Pets', actual: String(ex.response?.status) },
            });
            continue;
          }
          const n = ex.json.length;
          t.check(ex, {
            requirement: 'LIST-LIMIT-HONOURED',
            ok: n <= limit,
            pass: `limit=${limit} honoured`,
            fail: 'Page larger than limit',
            message:
              n <= limit
                ? `limit=${limit} returned ${n} animals, within the limit`
                : `limit=${limit} returned ${n} animals, more than the limit`,
            evidence: { expected: `≤ ${limit}`, actual: String(n) },
          });
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
