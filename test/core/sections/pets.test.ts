/**
 * The one comparison of Pets every rule uses (src/core/sections/pets.ts): exact int64 digits, the difference named by
 * field and code point, and the latitudes an RFC leaves to the server marked as such.
 */
import { describe, expect, test } from 'vitest';
import { parseJson } from '../../../src/core/json.ts';
import { describeDifference, differences, expectedAfterCreate, petAt, readAsDouble, sentPet } from '../../../src/core/sections/pets.ts';

const pet = (text: string) => petAt(parseJson(text).value)!;

describe('A name that reads back changed says where, in code points', () => {
  test.each([
    ['Zoë', 'Zoe\u0308', ' (first difference at code point 2: read back U+00EB, expected U+0065 U+0308)'],
    ['ab', 'a\u0007b', ' (first difference at code point 1: read back U+0062, expected U+0007 U+0062)'],
    ['a', 'a😀', ' (first difference at code point 1: read back (end), expected U+1F600)'],
  ])('Read back %j for %j, the message names the first differing code points.', (got, sent, want) => {
    const [d] = differences({ name: JSON.stringify(sent) }, { name: JSON.stringify(got) }, ['name']);
    expect(describeDifference(d)).toBe(`name ${JSON.stringify(got)} ≠ ${JSON.stringify(sent)}${want}`);
  });

  test('A name that is not a string adds no code points to the message.', () => {
    const [d] = differences({ name: '"x"' }, { name: '7' }, ['name']);
    expect(describeDifference(d)).toBe('name 7 ≠ "x"');
  });
});

describe('Numbers an RFC lets a parser read through a double', () => {
  test.each([
    ['18014398509481983.0', '18014398509481984', true],
    ['9.007199254740993e15', '9007199254740992', true],
    ['-1.8014398509481983E16', '-18014398509481984', true],
    ['18014398509481983', '18014398509481984', false], // canonical: the int64 promise holds
    ['18014398509481983.0', '18014398509481982', false], // not the nearest double: a real change
    ['1.0', '1', false], // within ±(2^53 − 1): a double reads it exactly
    ['9007199254740991.0', '9007199254740991', false],
  ])('%s read back as %s is a latitude: %s.', (written, got, latitude) => {
    expect(readAsDouble(written, got)).toBe(latitude);
  });

  test('A categoryId sent as 18014398509481983.0 and read back as …984 differs with the latitude number-precision, named with how it was sent.', () => {
    const sent = sentPet('{"name":"a","categoryId":18014398509481983.0}')!;
    const [d] = differences(sent.fields, pet('{"id":1,"name":"a","categoryId":18014398509481984}'), ['name', 'categoryId'], sent.written);
    expect(d).toEqual({ field: 'categoryId', expected: '18014398509481983', got: '18014398509481984', latitude: 'number-precision' });
    expect(describeDifference(d, sent.written)).toBe('categoryId 18014398509481984 ≠ 18014398509481983 (sent as 18014398509481983.0)');
  });

  test('A canonical categoryId above 2^53 read back rounded is a difference with no latitude.', () => {
    const sent = sentPet('{"name":"a","categoryId":9223372036854775807}')!;
    const [d] = differences(sent.fields, pet('{"id":1,"name":"a","categoryId":9223372036854775808}'), ['categoryId'], sent.written);
    expect(d.latitude).toBeUndefined();
  });
});

describe('The pet a read must return after a create', () => {
  test('It is what was sent, with the 201 body’s id and default status; a field the 201 got wrong is expected as sent.', () => {
    const sent = sentPet('{"name":"Rex","categoryId":7}')!;
    const created = pet('{"id":9223372036854775807,"name":"Re","categoryId":7,"status":"available"}');
    expect(expectedAfterCreate(sent, created)).toEqual({
      id: '9223372036854775807',
      name: '"Rex"',
      categoryId: '7',
      status: '"available"',
    });
  });

  test('A value the 201 showed read through a double is expected so: the read is not blamed for the create’s latitude.', () => {
    const sent = sentPet('{"name":"Rex","categoryId":1.8014398509481983e16}')!;
    const created = pet('{"id":1,"name":"Rex","categoryId":18014398509481984}');
    expect(expectedAfterCreate(sent, created).categoryId).toBe('18014398509481984');
  });
});

test('A number read through a double and converted to an int64 as Java and C# cast it (clamped into the range) is a latitude too.', () => {
  expect(readAsDouble('9223372036854775806e0', '9223372036854775807')).toBe(true);
  expect(readAsDouble('-9.3e18', '-9223372036854775808')).toBe(true);
  expect(readAsDouble('9223372036854775806e0', '9223372036854775806')).toBe(false);
});
