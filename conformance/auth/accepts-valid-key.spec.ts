/**
 * The configured key is accepted on every operation: none of them answers 401.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answered, everyOperation } from '../../src/harness/ops.ts';
import { judgeValidKey } from '../../src/core/sections/auth/rules.ts';

export default defineSpec({
  operation: 'auth',
  behaviour: 'accepts-valid-key',
  tests: [
    {
      title: 'A request carrying the configured key as a Bearer token is not answered 401 on any operation.',
      requirements: ['AUTH-VALID-KEY-ACCEPTED'],
      async run(t) {
        for (const req of everyOperation(t, 'valid')) {
          const ex = await t.request(req);
          t.judge(ex, [judgeValidKey(answered(ex))]);
        }
      },
    },
  ],
});
