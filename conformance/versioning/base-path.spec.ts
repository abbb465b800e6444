/**
 * The base address ends with the version segment /v1 (a configuration check:
 * no request is sent).
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { VERSIONING } from '../../src/core/spec/versioning/requirements.ts';

export default defineSpec({
  operation: 'versioning',
  behaviour: 'base-path',
  tests: [
    {
      title: 'The configured base address ends with the /v1 version segment.',
      requirements: ['VERSION-BASE-PATH'],
      run(t) {
        const path = new URL(t.session.opts.baseUrl).pathname.replace(/\/+$/, '');
        const ok = path.endsWith('/v1');
        t.judge(undefined, [
          VERSIONING.judge('VERSION-BASE-PATH', {
            ok,
            message: `base path ${JSON.stringify(path || '/')}`,
            evidence: ok ? undefined : { expected: '…/v1', actual: path || '/' },
          }),
        ]);
      },
    },
  ],
});
