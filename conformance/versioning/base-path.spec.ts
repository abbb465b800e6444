/**
 * The base address ends with the version segment /v1 (a configuration check:
 * no request is sent).
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { judgeBasePath } from '../../src/core/sections/versioning/rules.ts';

export default defineSpec({
  operation: 'versioning',
  behaviour: 'base-path',
  tests: [
    {
      title: 'The configured base address ends with the /v1 version segment.',
      requirements: ['VERSION-BASE-PATH'],
      run(t) {
        t.judge(undefined, [judgeBasePath(new URL(t.session.opts.baseUrl).pathname.replace(/\/+$/, ''))]);
      },
    },
  ],
});
