/**
 * The base address ends with the version segment /v1 (a configuration check:
 * no request is sent).
 */
import { defineSpec } from '../../src/harness/spec.ts';

export default defineSpec({
  operation: 'versioning',
  behaviour: 'base-path',
  tests: [
    {
      title: 'The configured base address ends with the /v1 version segment.',
      requirements: ['VERSION-BASE-PATH'],
      async run(t) {
        const path = new URL(t.session.opts.baseUrl).pathname.replace(/\/+$/, '');
        t.check(undefined, {
          requirement: 'VERSION-BASE-PATH',
          ok: path.endsWith('/v1'),
          pass: 'Base address ends with /v1',
          fail: 'Base address lacks /v1',
          message: `base path ${JSON.stringify(path || '/')}`,
          evidence: { expected: '…/v1', actual: path || '/' },
        });
      },
    },
  ],
});
