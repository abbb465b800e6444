/**
 * Every create adds an animal (issue 39: requests that depend on each other). POST is not idempotent (RFC 9110
 * §9.3.3): the same NewPet sent twice is two animals, and creates in flight together are as many animals — a
 * store that deduplicates identical bodies, or computes the next id without a lock, answers one id twice.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { createPetRaw, exactInteger, newPetBody, uniqueName } from '../../src/harness/ops.ts';
import { judgeCreatedIdsDistinct } from '../../src/core/sections/create-pet/rules.ts';
import type { ApiExchange } from '../../src/http/client.ts';

const idsOf = (t: TestContext, exs: readonly ApiExchange[]) =>
  exs.filter((ex) => t.conclusive(ex) && ex.response?.status === 201).flatMap((ex) => exactInteger(ex, '/id') ?? []);

export default defineSpec({
  operation: 'createPet',
  behaviour: 'distinct-creates',
  tests: [
    {
      title: 'The same NewPet sent twice creates two animals with different ids.',
      requirements: ['CREATE-ID-UNIQUE'],
      writes: true,
      async run(t) {
        const body = newPetBody(uniqueName('twice'), '4');
        const exs = [await t.request(createPetRaw(body)), await t.request(createPetRaw(body))];
        t.judge(exs[1], [judgeCreatedIdsDistinct(idsOf(t, exs))]);
      },
    },
    {
      title: 'Three creates in flight together get three different ids.',
      requirements: ['CREATE-ID-UNIQUE'],
      writes: true,
      async run(t) {
        const exs = await Promise.all(
          [1, 2, 3].map((i) => t.request(createPetRaw(newPetBody(uniqueName(`together-${i}`), '4'), { together: 3 }))),
        );
        t.judge(exs[2], [judgeCreatedIdsDistinct(idsOf(t, exs))]);
      },
    },
  ],
});
