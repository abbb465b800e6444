/**
 * createPet with a valid NewPet: 201 with a Pet carrying a server-assigned id
 * and exactly the sent name, categoryId (int64, digits compared exactly) and status.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { createdPets, createdWithoutStatus, describeStatus, exactInteger, isObject, type CreatedPet } from '../../src/harness/ops.ts';
import type { TestContext } from '../../src/harness/context.ts';

function echoes(p: CreatedPet): string[] {
  const body = p.ex.json;
  if (!isObject(body)) return ['body is not an object'];
  const diffs: string[] = [];
  if (body.name !== p.sent.name) diffs.push(`name ${JSON.stringify(body.name)} ≠ ${JSON.stringify(p.sent.name)}`);
  const cat = exactInteger(p.ex, '/categoryId');
  if (cat !== p.sent.categoryId) diffs.push(`categoryId ${cat ?? JSON.stringify(body.categoryId)} ≠ ${p.sent.categoryId}`);
  if (p.sent.status !== undefined && body.status !== p.sent.status)
    diffs.push(`status ${JSON.stringify(body.status)} ≠ ${JSON.stringify(p.sent.status)}`);
  if (p.id === undefined) diffs.push('no integer id');
  return diffs;
}

function judgeCreated(t: TestContext, requirement: string, p: CreatedPet) {
  const created = p.ex.response?.status === 201;
  const diffs = created ? echoes(p) : [];
  t.check(p.ex, {
    requirement: requirement,
    ok: created && diffs.length === 0,
    pass: `201 with the sent fields${p.sent.status ? ` (status ${p.sent.status})` : ''}`,
    fail: created ? 'Created Pet differs from the request' : 'Valid NewPet not answered 201',
    message: created ? diffs.join('; ') || 'all fields echoed' : describeStatus(p.ex),
    evidence: { expected: created ? JSON.stringify(p.sent) : '201', actual: created ? diffs.join('; ') : describeStatus(p.ex) },
  });
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
        for (const p of await createdPets(t)) judgeCreated(t, 'CREATE-201-PET', p);
      },
    },
    {
      title: 'A NewPet without status is accepted, and the status the service gives it is observed.',
      requirements: ['CREATE-STATUS-OPTIONAL', 'CREATE-DEFAULT-STATUS'],
      writes: true,
      async run(t) {
        const p = await createdWithoutStatus(t);
        judgeCreated(t, 'CREATE-STATUS-OPTIONAL', p);
        if (p.ex.response?.status === 201 && isObject(p.ex.json))
          t.report(p.ex, {
            requirement: 'CREATE-DEFAULT-STATUS',
            outcome: 'observe',
            title: 'Default status observed',
            message: `a pet created without status has ${'status' in p.ex.json ? `status ${JSON.stringify(p.ex.json.status)}` : 'no status field'}`,
          });
      },
    },
  ],
});
