/**
 * The reference server's own JSON and NewPet check against the suite's: two
 * implementations of the spec written apart, which must agree on every body
 * (a disagreement is a bug in one of them, not something both would hide).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { integerDigits, isInt64Digits, parseJson, rawNumber } from '../../src/core/json.ts';
import { validateSchema } from '../../src/schemas/ajv.ts';
import { Int64, integerOf, isInt64, numberText, readJson, writeJson } from '../../reference/lossless-json.ts';
import { newPetIssues } from '../../reference/schema.ts';

/** Accepted or refused, and when accepted the value and each number's literal text. */
function suiteReads(text: string): unknown {
  try {
    const { value, numbers } = parseJson(text);
    return { value, numbers: Object.fromEntries(numbers) };
  } catch {
    return 'refused';
  }
}
function referenceReads(text: string): unknown {
  try {
    const value = readJson(text);
    return { value, numbers: numbersOf(value, {}) };
  } catch {
    return 'refused';
  }
}
/** Every number's literal text of a document readJson returned, by pointer. */
function numbersOf(root: unknown, out: Record<string, string>, value: unknown = root, pointer = ''): Record<string, string> {
  if (typeof value === 'number') out[pointer] = numberText(root, pointer) ?? '(none)';
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) numbersOf(root, out, v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  return out;
}

const TEXTS = [
  '{"name":"Big","categoryId":9223372036854775807}',
  '{"categoryId":9223372036854775808,"name":"over"}',
  '{"a":[1,2.5,-0,1e400,1E-3,{"b":-9223372036854775809}]}',
  '{"name":"a\\"b\\u0000","x":null,"y":true,"z":false}',
  '{"__proto__":{"a":1},"dup":1,"dup":2}',
  '{"a/b~c":3}',
  '  [ ]  ',
  '{bad',
  '{"a":00}',
  '{"a":+1}',
  '{"a":1}x',
  '{"a":"\\x"}',
  '{"a":"tab\tin string"}',
  '[1,]',
  '{"a":1,}',
  '"\\ud800"',
];

describe('The reference server’s JSON and NewPet check agree with the suite’s', () => {
  test.each(TEXTS)('The text %s is read alike: refused by both, or the same values and number literals.', (text) => {
    expect(referenceReads(text)).toEqual(suiteReads(text));
  });

  test('Any JSON text is read alike, numbers by their literal text.', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const suite = parseJson(text);
        const value = readJson(text);
        expect(value).toEqual(suite.value);
        for (const [pointer, literal] of suite.numbers) expect(numberText(value, pointer) ?? literal).toBe(literal);
      }),
      { numRuns: 300 },
    );
  });

  const LITERALS = [
    '0',
    '-0',
    '1.0',
    '1e3',
    '1E+2',
    '10.000e-1',
    '1.5',
    '1e-1',
    '1e400',
    '0e500',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '1.0000000000000001',
    '123456789012345678901234567890',
  ];
  test.each(LITERALS)('The literal %s denotes the same exact integer (or none), in the int64 range alike.', (literal) => {
    const digits = integerOf(literal);
    expect(digits).toBe(integerDigits(literal));
    if (digits !== undefined) expect(isInt64(digits)).toBe(isInt64Digits(digits));
  });

  const BODIES = [
    '{"name":"Rex","categoryId":1,"status":"available"}',
    '{"name":"Big","categoryId":9223372036854775807}',
    '{"name":"Over","categoryId":9223372036854775808}',
    '{"name":"Under","categoryId":-9223372036854775809}',
    '{"name":"Round","categoryId":1.0000000000000001}',
    '{"name":1,"categoryId":"1","status":"bogus"}',
    '{"status":null}',
    '{"name":"x","categoryId":1.5,"status":""}',
  ];
  test.each(BODIES)('The body %s has the same NewPet problems for both.', (text) => {
    const suite = validateSchema('NewPet', parseJson(text).value).issues;
    expect(newPetIssues(readJson(text) as Record<string, unknown>)).toEqual(suite);
  });

  test('A reply writes Int64 values by their digits, every digit kept.', () => {
    expect(writeJson({ id: new Int64('9223372036854775807'), n: 1.5, skip: undefined, list: [new Int64('-1'), null] })).toBe(
      '{"id":9223372036854775807,"n":1.5,"list":[-1,null]}',
    );
    expect(rawNumber(parseJson(writeJson({ id: new Int64('9007199254740993') })).value, '/id')).toBe('9007199254740993');
  });
});
