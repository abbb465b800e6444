/**
 * listPets with an out-of-range or non-integer limit: never more than 100
 * animals, never a 5xx. Rejecting with 400 + Error is preferred, clamping is
 * accepted (the spec documents no 400 for listPets): which one is observed.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, listPets } from '../../src/harness/ops.ts';
import { judgeOutOfRange, judgeOutOfRangeHandling } from '../../src/core/sections/list-pets/rules.ts';

const VALUES = ['0', '-1', '101', '1000', 'abc', '1.5', ''];

export default defineSpec({
  operation: 'listPets',
  behaviour: 'limit-out-of-range',
  tests: VALUES.map((value) => ({
    title: `A limit of ${JSON.stringify(value)} yields neither more than 100 animals nor a 5xx.`,
    requirements: ['LIST-LIMIT-OUT-OF-RANGE', 'LIST-LIMIT-OUT-OF-RANGE-HANDLING'],
    async run(t) {
      const ex = await t.request(listPets({ limit: value }, { alsoAcceptable: [400, 422] }));
      const a = answerOf(ex);
      const what = `limit=${JSON.stringify(value)}`;
      t.judge(ex, a ? [judgeOutOfRange(a, what)] : []);
      if (a && t.conclusive(ex)) t.judge(ex, [judgeOutOfRangeHandling(a, what)]);
    },
  })),
});
