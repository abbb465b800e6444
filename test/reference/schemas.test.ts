import { describe, expect, test } from 'vitest';
import { parseJson } from '../../src/core/json.ts';
import { RAW_SCHEMAS, validateSchema } from '../../src/schemas/ajv.ts';
import { withInt64Keyword } from '../../src/schemas/project-ajv.ts';

const pet = (id: string, categoryId = '1') => parseJson(`{"id":${id},"name":"x","categoryId":${categoryId}}`).value;

describe('The suite’s Ajv instance', () => {
  test.each(['9007199254740993', '9223372036854775807', '-9223372036854775808', '0', '1.0', '1e3'])(
    'The int64 id %s of a parsed body is valid, judged on its literal digits.',
    (id) => {
      expect(validateSchema('Pet', pet(id)).errors).toEqual([]);
    },
  );

  test.each([
    { id: '9223372036854775808', why: '2^63' },
    { id: '-9223372036854775809', why: 'below -2^63' },
    { id: '18446744073709551616', why: '2^64' },
    { id: '1.0000000000000001', why: 'a literal that JS rounds to an integer' },
  ])('The id $id ($why) is rejected by the x-int64 keyword.', ({ id }) => {
    const r = validateSchema('Pet', pet(id));
    expect(r.valid).toBe(false);
    expect(r.issues).toEqual([expect.objectContaining({ keyword: 'x-int64', path: '/id' })]);
  });

  test('Ids inside a Pets array are checked at their own pointer.', () => {
    const r = validateSchema(
      'Pets',
      parseJson('[{"id":1,"name":"a","categoryId":1},{"id":9223372036854775808,"name":"b","categoryId":1}]').value,
    );
    expect(r.errors).toEqual([expect.stringMatching(/^\/1\/id must be an integer within the int64 range/)]);
  });

  test('Values that did not come from parseJson fall back to Number.isInteger and |x| < 2^63.', () => {
    expect(validateSchema('Pet', { id: 2 ** 60, name: 'x', categoryId: 1 }).valid).toBe(true);
    expect(validateSchema('Pet', { id: 2 ** 63, name: 'x', categoryId: 1 }).valid).toBe(false);
  });

  test('Type, required and enum problems are reported with their path.', () => {
    const r = validateSchema('NewPet', parseJson('{"categoryId":"1","status":"lost"}').value);
    expect(r.errors).toEqual([
      "(root) must have required property 'name'",
      '/categoryId must be integer',
      '/status must be equal to one of the allowed values: available, pending, sold',
    ]);
  });

  test('The keyword is added to an in-memory copy; the exported schema files are untouched.', () => {
    expect(JSON.stringify(RAW_SCHEMAS.Pet)).not.toContain('x-int64');
    expect((withInt64Keyword(RAW_SCHEMAS.Pet) as { properties: { id: Record<string, unknown> } }).properties.id['x-int64']).toBe(true);
  });

  test.each([
    { name: 'PetStatus' as const, value: 'sold', valid: true },
    { name: 'PetStatus' as const, value: 'lost', valid: false },
    { name: 'Error' as const, value: { code: 'x', message: 'y', status: 400 }, valid: true },
    { name: 'Error' as const, value: { code: 'x', status: 400 }, valid: false },
  ])('$name validates $value as $valid.', ({ name, value, valid }) => {
    expect(validateSchema(name, value).valid).toBe(valid);
  });
});
