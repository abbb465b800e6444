/**
 * getPet is deprecated (removal 5 December 2030). The deprecation-headers check
 * judges every getPet response; this spec makes sure at least one 200 is seen.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { exactInteger, getPet, listPets } from '../../src/harness/ops.ts';
import { judgeSignalledUnseen } from '../../src/core/sections/deprecation/rules.ts';

export default defineSpec({
  operation: 'getPet',
  behaviour: 'deprecation',
  tests: [
    {
      title: 'A getPet response signals the deprecation, with a Sunset on 5 December 2030 and an RFC 9745 Deprecation date if sent.',
      requirements: [
        'DEPRECATION-SIGNALLED',
        'DEPRECATION-SUNSET-DATE',
        'DEPRECATION-HEADER-VALID',
        'DEPRECATION-BEFORE-SUNSET',
        'DEPRECATION-SUCCESSOR-LINK',
      ],
      async run(t) {
        const list = await t.request(listPets({ limit: '1' }));
        const id = list.response?.status === 200 ? exactInteger(list, '/0/id') : undefined;
        if (id === undefined) return void t.judge(list, [judgeSignalledUnseen()]);
        await t.request(getPet(id));
      },
    },
  ],
});
