/**
 * Ids are assigned by the service: an id sent by the client does not become
 * the pet's id (the server may reject it with 400 or ignore it), and every
 * created pet gets a distinct id, also distinct from the ids of the pets that
 * were listed (limit=100) before the suite created any.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import {
  createdPets,
  createdWithoutStatus,
  createPetRaw,
  describeStatus,
  exactInteger,
  isObject,
  listedBeforeCreation,
  pageIds,
  uniqueName,
} from '../../src/harness/ops.ts';
import { CREATE_PET } from '../../src/core/sections/create-pet/requirements.ts';

const CLIENT_ID = '4242424242424242';

export default defineSpec({
  operation: 'createPet',
  behaviour: 'server-assigns-id',
  tests: [
    {
      title: 'An id sent by the client on creation does not become the id of the created pet.',
      requirements: ['CREATE-ID-SERVER-ASSIGNED'],
      writes: true,
      async run(t) {
        const ex = await t.request(
          createPetRaw(`{"id":${CLIENT_ID},"name":${JSON.stringify(uniqueName('client-id'))},"categoryId":1}`, { alsoAcceptable: [400] }),
        );
        const id = ex.response?.status === 201 ? exactInteger(ex, '/id') : undefined;
        const ok = ex.response?.status === 400 || (ex.response?.status === 201 && id !== undefined && id !== CLIENT_ID);
        t.judge(ex, [
          CREATE_PET.judge('CREATE-ID-SERVER-ASSIGNED', {
            ok,
            pass: ex.response?.status === 400 ? 'rejected' : 'ignored',
            args: { id: id ?? '-' },
            message: `createPet with id ${CLIENT_ID}: ${describeStatus(ex)}, id ${id ?? '-'}`,
            evidence: ok
              ? undefined
              : { expected: `400, or 201 with an id other than ${CLIENT_ID}`, actual: `${describeStatus(ex)}, id ${id ?? '-'}` },
          }),
        ]);
      },
    },
    {
      title: 'Every created pet gets an id distinct from the other created pets and from every pet listed before they were created.',
      requirements: ['CREATE-ID-UNIQUE'],
      writes: true,
      async run(t) {
        const pets = [...(await createdPets(t)), await createdWithoutStatus(t)].filter((p) => p.id !== undefined);
        const ids = pets.map((p) => p.id!);
        const id = 'CREATE-ID-UNIQUE';
        if (ids.length < 2)
          return void t.judge(undefined, [
            CREATE_PET.judge(id, { outcome: 'skip', title: 'not-judged', message: 'fewer than two pets were created' }),
          ]);
        const distinct = new Set(ids).size === ids.length;
        t.judge(pets[pets.length - 1]?.ex, [
          CREATE_PET.judge(id, {
            ok: distinct,
            pass: 'created-distinct',
            fail: 'created-shared',
            args: { count: ids.length },
            message: `ids assigned: ${ids.join(', ')}`,
            evidence: distinct ? undefined : { expected: 'distinct ids', actual: ids.join(', ') },
          }),
        ]);
        const before = await listedBeforeCreation(t);
        if (before.response?.status !== 200 || !Array.isArray(before.json))
          return void t.judge(undefined, [
            CREATE_PET.judge(id, {
              outcome: 'skip',
              title: 'not-judged',
              message: `the list of existing pets was not available (${describeStatus(before)})`,
            }),
          ]);
        // Name of each listed pet by exact id; a pet of our own listed early is the same pet, not a reuse.
        const page = before.json;
        const listed = new Map(pageIds(before).map((id, i) => [id, isObject(page[i]) ? page[i].name : undefined]));
        const reused = pets.filter((p) => listed.has(p.id) && listed.get(p.id) !== p.sent.name);
        t.judge(reused[0]?.ex ?? before, [
          CREATE_PET.judge(id, {
            ok: reused.length === 0,
            pass: 'not-reused',
            fail: 'reused',
            args: { listed: page.length },
            message: reused.length
              ? `created ids already held by other pets: ${reused.map((p) => `${p.id} (listed as ${JSON.stringify(listed.get(p.id))})`).join(', ')}`
              : `${ids.length} created ids, none among the ${page.length} listed before`,
            evidence: reused.length
              ? { expected: 'ids not held by any existing pet', actual: reused.map((p) => p.id).join(', ') }
              : undefined,
          }),
        ]);
      },
    },
    {
      title:
        'A name longer than usual is either accepted or rejected cleanly (which one is observed); once accepted with 201, the Pet carries it whole.',
      requirements: ['CREATE-NAME-MAX-LENGTH', 'CREATE-201-PET'],
      writes: true,
      async run(t) {
        const name = uniqueName('long-') + 'x'.repeat(1000);
        // The maximum is not shown, so the spec names no status for exceeding it: 413 and 422 are clean rejections too.
        const ex = await t.request(createPetRaw(`{"name":${JSON.stringify(name)},"categoryId":1}`, { alsoAcceptable: [413, 422] }));
        if (!t.conclusive(ex)) return;
        t.judge(ex, [
          CREATE_PET.judge('CREATE-NAME-MAX-LENGTH', {
            outcome: 'observe',
            title: 'observed',
            message: `a ${name.length}-character name: ${describeStatus(ex)}`,
          }),
        ]);
        // The maximum length is "not shown": rejecting is allowed, silently changing the name is not.
        if (ex.response?.status !== 201 || !isObject(ex.json) || !('name' in ex.json)) return; // no name at all: the schema check's finding
        const got = ex.json.name;
        const cut =
          typeof got === 'string'
            ? `a ${got.length}-character name${got.length < name.length && name.startsWith(got) ? ' (truncated)' : ''}`
            : JSON.stringify(got);
        const whole = got === name;
        t.judge(ex, [
          CREATE_PET.judge('CREATE-201-PET', {
            ok: whole,
            pass: 'long-name-whole',
            fail: 'long-name-altered',
            args: { length: name.length },
            message: whole
              ? 'name echoed whole'
              : `a ${name.length}-character name was answered 201 with ${cut}; a name the service cannot keep must be rejected with 400, not altered`,
            evidence: whole ? undefined : { expected: `the ${name.length}-character name sent`, actual: cut },
          }),
        ]);
      },
    },
  ],
});
