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
        t.check('VERSION-BASE-PATH', path.endsWith('/v1'), undefined, {
          pass: 'Base address ends with /v1',
          fail: 'Base address lacks /v1',
          message: `base path ${JSON.stringify(path || '/')}`,
          expected: '…/v1',
          actual: path || '/',
        });
      },
    },
  ],
});
