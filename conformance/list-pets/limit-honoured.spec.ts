/**
 * listPets with limit 1, 20 and 100: the page never exceeds the limit, and when
 * the store holds more animals the page is full.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { listPets } from '../../src/harness/ops.ts';

const LIMITS = [100, 20, 1];

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-honoured',
  tests: [
    {
      title: 'A limit of 100, 20 or 1 is never exceeded, and the page is full when enough animals exist.',
      requirements: ['LIST-LIMIT-HONOURED', 'LIST-LIMIT-FILLS-PAGE'],
      async run(t) {
        let known = 0; // animals known to exist (largest page seen)
        for (const limit of LIMITS) {
          const ex = await t.request(listPets({ limit: String(limit) }));
          if (!t.conclusive(ex) || ex.response!.status !== 200 || !Array.isArray(ex.json)) {
            t.check('LIST-LIMIT-HONOURED', false, ex, { pass: '-', fail: 'limit request not answered with a page', message: `limit=${limit}: HTTP ${ex.response?.status}`, expected: '200 with Pets', actual: String(ex.response?.status) });
            continue;
          }
          const n = ex.json.length;
          t.check('LIST-LIMIT-HONOURED', n <= limit, ex, { pass: `limit=${limit} honoured`, fail: 'Page larger than limit', message: `limit=${limit} returned ${n} animals`, expected: `≤ ${limit}`, actual: String(n) });
          const want = Math.min(limit, known);
          if (known > 0) t.check('LIST-LIMIT-FILLS-PAGE', n >= want, ex, { pass: `limit=${limit} page is full`, fail: 'Page shorter than limit though more animals exist', message: `limit=${limit} returned ${n} animals although at least ${known} exist`, expected: `${want}`, actual: String(n) });
          known = Math.max(known, n);
        }
      },
    },
  ],
});
