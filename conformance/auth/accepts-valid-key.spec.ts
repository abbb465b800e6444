/**
 * The configured key is accepted on every operation: none of them answers 401.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { describeStatus, everyOperation } from '../../src/harness/ops.ts';
import { AUTH } from '../../src/core/spec/auth/requirements.ts';

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
          const ok = ex.response !== undefined && ex.response.status !== 401 && ex.response.status !== 403;
          t.judge(ex, [
            AUTH.judge('AUTH-VALID-KEY-ACCEPTED', {
              ok,
              pass: 'accepted',
              fail: 'rejected',
              args: { operation: req.operation },
              message: `${req.operation} with the configured key: ${describeStatus(ex)}`,
              evidence: ok ? undefined : { expected: 'not 401', actual: describeStatus(ex) },
            }),
          ]);
        }
      },
    },
  ],
});
