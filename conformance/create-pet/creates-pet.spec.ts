/**
 * createPet with a valid NewPet: 201 with a Pet carrying a server-assigned id and exactly the sent name, categoryId
 * (int64, digits compared exactly) and status. Judged by the core's rule (src/core/sections/create-pet/rules.ts), the one the
 * exploration phase calls too.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, createdPets, createdWithoutStatus, isObject, type CreatedPet } from '../../src/harness/ops.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { judgeCreated, judgeDefaultStatus, type CreatedRequirement } from '../../src/core/sections/create-pet/rules.ts';
import { sentPet } from '../../src/core/sections/pets.ts';

function judgeCreate(t: TestContext, requirement: CreatedRequirement, p: CreatedPet) {
  const a = answerOf(p.ex);
  const what = `createPet ${p.body}`;
  t.judge(p.ex, a ? judgeCreated(sentPet(p.body)!, a, what, requirement) : []);
}

export default defineSpec({
  operation: 'createPet',
  behaviour: 'creates-pet',
  tests: [
    {
      title: 'A valid NewPet of each status is answered 201 with a Pet that has an id and the sent name, categoryId and status.',
      requirements: ['CREATE-201-PET'],
      writes: true,
      async run(t) {
        for (const p of await createdPets(t)) judgeCreate(t, 'CREATE-201-PET', p);
      },
    },
    {
      title: 'A NewPet without status is accepted, and the status the service gives it is observed.',
      requirements: ['CREATE-STATUS-OPTIONAL', 'CREATE-DEFAULT-STATUS'],
      writes: true,
      async run(t) {
        const p = await createdWithoutStatus(t);
        judgeCreate(t, 'CREATE-STATUS-OPTIONAL', p);
        if (p.ex.response?.status === 201 && isObject(p.ex.json)) t.judge(p.ex, [judgeDefaultStatus(p.ex.json)]);
      },
    },
  ],
});
