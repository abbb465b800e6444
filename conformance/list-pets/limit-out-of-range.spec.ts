/**
 * listPets with an out-of-range or non-integer limit: never more than 100
 * animals, never a 5xx. Rejecting with 400 + Error is preferred, clamping is
 * accepted (the spec documents no 400 for listPets): which one is observed.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, listPets } from '../../src/harness/ops.ts';
import { judgeOutOfRange } from '../../src/core/sections/list-pets/rules.ts';
import { LIST_PETS } from '../../src/core/sections/list-pets/requirements.ts';

const VALUES = ['0', '-1', '101', '1000', 'abc', '1.5', ''];

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-out-of-range',
  tests: VALUES.map((value) => ({
    title: `A limit of ${JSON.stringify(value)} yields neither more than 100 animals nor a 5xx.`,
    requirements: ['LIST-LIMIT-OUT-OF-RANGE', 'LIST-LIMIT-OUT-OF-RANGE-HANDLING'],
    async run(t) {
      const ex = await t.request(listPets({ limit: value }, { alsoAcceptable: [400, 422] }));
      const status = ex.response?.status ?? 0;
      const n = Array.isArray(ex.json) ? ex.json.length : undefined;
      const a = answerOf(ex);
      t.judge(ex, a ? [judgeOutOfRange(a, `limit=${JSON.stringify(value)}`)] : []);
      if (t.conclusive(ex))
        t.judge(ex, [
          LIST_PETS.judge('LIST-LIMIT-OUT-OF-RANGE-HANDLING', {
            outcome: 'observe',
            title: 'observed',
            message: `limit=${JSON.stringify(value)} → ${status === 200 ? `200 (clamped/ignored, ${n} animals)` : `${status} (rejected)`}`,
          }),
        ]);
    },
  })),
});
