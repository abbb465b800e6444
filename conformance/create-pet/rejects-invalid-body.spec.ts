/**
 * createPet with an invalid body: 400 with an Error, for missing fields, wrong
 * types (a name that is an array or object included), a status outside the
 * enumeration (null and "" included), malformed JSON, an empty body and a
 * non-object body. These tests are "writes": a broken server could store the pet.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answerOf, createPetRaw, uniqueName } from '../../src/harness/ops.ts';
import { judgeRefused, type RefusedRequirement } from '../../src/core/sections/create-pet/rules.ts';

const n = () => JSON.stringify(uniqueName('invalid'));

const CASES: { requirement: RefusedRequirement; what: string; body: () => string }[] = [
  { requirement: 'CREATE-400-MISSING-FIELD', what: 'a body without name', body: () => '{"categoryId":1,"status":"available"}' },
  { requirement: 'CREATE-400-MISSING-FIELD', what: 'a body without categoryId', body: () => `{"name":${n()},"status":"available"}` },
  { requirement: 'CREATE-400-MISSING-FIELD', what: 'an empty object', body: () => '{}' },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a numeric name', body: () => '{"name":42,"categoryId":1}' },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a null name', body: () => '{"name":null,"categoryId":1}' },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a name given as an array', body: () => `{"name":[${n()}],"categoryId":1}` },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a name given as an object', body: () => `{"name":{"first":${n()}},"categoryId":1}` },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a categoryId given as a string', body: () => `{"name":${n()},"categoryId":"1"}` },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a fractional categoryId', body: () => `{"name":${n()},"categoryId":1.5}` },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a boolean categoryId', body: () => `{"name":${n()},"categoryId":true}` },
  { requirement: 'CREATE-400-WRONG-TYPE', what: 'a null categoryId', body: () => `{"name":${n()},"categoryId":null}` },
  {
    requirement: 'CREATE-400-WRONG-TYPE',
    what: 'a categoryId of 2^63, just above int64',
    body: () => `{"name":${n()},"categoryId":9223372036854775808}`,
  },
  {
    requirement: 'CREATE-400-WRONG-TYPE',
    what: 'a categoryId just below the int64 minimum',
    body: () => `{"name":${n()},"categoryId":-9223372036854775809}`,
  },
  {
    requirement: 'CREATE-400-BAD-STATUS',
    what: 'a status outside the enumeration',
    body: () => `{"name":${n()},"categoryId":1,"status":"adopted"}`,
  },
  { requirement: 'CREATE-400-BAD-STATUS', what: 'an upper-case status', body: () => `{"name":${n()},"categoryId":1,"status":"AVAILABLE"}` },
  { requirement: 'CREATE-400-BAD-STATUS', what: 'a null status', body: () => `{"name":${n()},"categoryId":1,"status":null}` },
  { requirement: 'CREATE-400-BAD-STATUS', what: 'an empty-string status', body: () => `{"name":${n()},"categoryId":1,"status":""}` },
  { requirement: 'CREATE-400-BAD-BODY', what: 'malformed JSON', body: () => `{"name":${n()},"categoryId":` },
  { requirement: 'CREATE-400-BAD-BODY', what: 'an empty body', body: () => '' },
  { requirement: 'CREATE-400-BAD-BODY', what: 'a JSON array', body: () => `[{"name":${n()},"categoryId":1}]` },
  { requirement: 'CREATE-400-BAD-BODY', what: 'a JSON string', body: () => '"a pet"' },
  { requirement: 'CREATE-400-BAD-BODY', what: 'JSON null', body: () => 'null' },
];

export default defineSpec({
  operation: 'createPet',
  behaviour: 'rejects-invalid-body',
  tests: CASES.map((c) => ({
    title: `A createPet request with ${c.what} is answered 400 with an Error.`,
    requirements: [c.requirement],
    writes: true,
    async run(t) {
      const ex = await t.request(createPetRaw(c.body()));
      const a = answerOf(ex);
      t.judge(ex, a ? [judgeRefused(c.requirement, a, `createPet with ${c.what}`)] : []);
    },
  })),
});
