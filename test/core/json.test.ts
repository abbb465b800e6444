/**
 * Lossless JSON and exact int64: ids above 2^53 keep every digit, int64 ranges
 * are decided on digits, never on a rounded JS number.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  canonicalExact,
  escapePointer,
  int64,
  integerDigits,
  isInt64Digits,
  isJsonText,
  JsonSyntaxError,
  parseJson,
  rawNumber,
  stringifyExact,
} from '../../src/core/json.ts';

describe('parseJson', () => {
  test('It keeps the raw digits of every number by JSON Pointer.', () => {
    const { value, numbers } = parseJson('[{"id":9007199254740993,"n":1.50},{"a/b":{"c~d":-0}}]');
    expect(numbers.get('/0/id')).toBe('9007199254740993');
    expect(rawNumber(value, '/0/n')).toBe('1.50');
    expect(rawNumber(value, '/1/a~1b/c~0d')).toBe('-0');
  });

  test.each(['', '{', '[1,]', '{"a":1,}', '01', '"\u0001"', 'tru', '{"a" 1}', '[1] x', 'NaN'])(
    'It rejects the malformed document %j with a JsonSyntaxError.',
    (text) => {
      expect(() => parseJson(text)).toThrow(JsonSyntaxError);
    },
  );

  /** Each number's pointer in `v`, as RFC 6901 spells it, in document order. */
  const numberPointers = (v: unknown, at = ''): string[] =>
    typeof v === 'number'
      ? [at]
      : Array.isArray(v)
        ? v.flatMap((x, i) => numberPointers(x, `${at}/${i}`))
        : v !== null && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => numberPointers(x, `${at}/${escapePointer(k)}`))
          : [];

  test('Any JSON text reads as JSON.parse reads it, every number kept by its pointer, keys with "/" and "~" and escapes included.', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('a/b', '~0', '~1/', '__proto__', 'constructor', 'é\\"', '\u2028'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'grapheme' }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(key, tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        const { value, numbers, duplicates } = parseJson(text);
        expect(duplicates).toEqual([]);
        // The same values in the same key order (an own "constructor" key defeats toStrictEqual's type check).
        expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
        expect(value).toEqual(JSON.parse(text));
        expect([...numbers.keys()]).toEqual(numberPointers(JSON.parse(text)));
        for (const [pointer, raw] of numbers) expect(Number(raw)).toBe(Number(JSON.stringify(pointerGet(JSON.parse(text), pointer))));
      }),
      { numRuns: 300 },
    );
  });

  test('It refuses absurd nesting instead of overflowing the stack.', () => {
    expect(() => parseJson('['.repeat(10_000) + ']'.repeat(10_000))).toThrow(/too deep/);
  });

  /** What isJsonText must answer: whether parseJson reads the text. */
  const reads = (text: string) => {
    try {
      parseJson(text);
      return true;
    } catch {
      return false;
    }
  };
  const nested = (n: number, inner = '') => '['.repeat(n) + inner + ']'.repeat(n);

  test.each([
    ['', '{', '[1,]', '01', '"\u0001"', '[1] x', 'NaN', '\ufeff{}', '{"a":1}', ' [1, 2.5e3] ', '"a\\u00e9"', 'null'],
    [nested(256), nested(257), nested(258), nested(300), nested(256, '1'), nested(257, '1'), nested(10_000)],
    [`{"a":${nested(256)}}`, `{"a":${nested(257)}}`, `"${'['.repeat(400)}"`, `["${'{'.repeat(400)}", ${nested(3)}]`],
  ])('isJsonText answers as parseJson reads: malformed texts, depths around the limit, brackets inside strings (%#).', (...texts) => {
    expect(texts.map(isJsonText)).toEqual(texts.map(reads));
  });

  test('isJsonText answers as parseJson reads, for any text and any JSON value.', () => {
    const texts = fc.oneof(
      fc.string(),
      fc.json().map((t) => t),
      fc.tuple(fc.json(), fc.constantFrom('', ' x', ',', ']', '\u0000')).map(([t, tail]) => t + tail),
    );
    fc.assert(
      fc.property(texts, (t) => isJsonText(t) === reads(t)),
      { numRuns: 500 },
    );
  });

  test('It treats __proto__ as an ordinary key.', () => {
    const v = parseJson('{"__proto__":{"polluted":true}}').value as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(v)).toEqual(['__proto__']);
  });
});

describe('parseJson: member names an object holds twice (RFC 8259 §4)', () => {
  test.each([
    ['no duplicate', '{"id":1,"name":"a","tags":[{"id":2},{"id":3}]}', []],
    ['inherited names are no duplicates', '{"toString":1,"constructor":2,"hasOwnProperty":3}', []],
    ['one at the root', '{"id":1,"name":"a","id":2}', [{ pointer: '', name: 'id' }]],
    [
      'three times: two repeats',
      '{"a":1,"a":2,"a":3}',
      [
        { pointer: '', name: 'a' },
        { pointer: '', name: 'a' },
      ],
    ],
    ['the same name spelled with an escape', '{"a":1,"\\u0061":2}', [{ pointer: '', name: 'a' }]],
    ['nested', '{"pet":{"x/y":{"k":1,"k":[2]}},"k":3}', [{ pointer: '/pet/x~1y', name: 'k' }]],
    ['in an array item', '[{"id":1},{"id":2,"status":"a","status":"b"}]', [{ pointer: '/1', name: 'status' }]],
    ['"__proto__" twice', '{"__proto__":{"a":1},"__proto__":{"b":2}}', [{ pointer: '', name: '__proto__' }]],
    ['the same name in two objects is none', '[{"a":1},{"a":2}]', []],
  ])('%s: %s', (_, text, expected) => {
    const { value, duplicates } = parseJson(text);
    expect(duplicates).toEqual(expected);
    // The last value wins, as JSON.parse reads it; "__proto__" stays an own member.
    expect(value).toEqual(JSON.parse(text));
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  });

  test('"__proto__" twice keeps the last value as an own member and sets no prototype.', () => {
    const v = parseJson('{"__proto__":{"a":1},"__proto__":{"polluted":true}}').value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(v.__proto__).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('A text without a repeated name shares one empty list (nothing made per parse).', () => {
    expect(parseJson('{"a":1}').duplicates).toBe(parseJson('[1,{"b":2}]').duplicates);
  });

  test('isJsonText still answers true for a text with a repeated name.', () => {
    expect(isJsonText('{"a":1,"a":2}')).toBe(true);
  });
});

describe('exact integers', () => {
  test.each([
    ['9223372036854775807', '9223372036854775807'],
    ['1.0', '1'],
    ['1e3', '1000'],
    ['-0', '0'],
    ['12.5e1', '125'],
    ['1.5', undefined],
    ['1e-1', undefined],
  ])('integerDigits(%s) is %s.', (raw, digits) => {
    expect(integerDigits(raw)).toBe(digits);
  });

  test.each([
    ['9223372036854775807', true],
    ['9223372036854775808', false],
    ['-9223372036854775808', true],
    ['-9223372036854775809', false],
    ['99999999999999999999', false],
  ])('isInt64Digits(%s) is %s.', (digits, ok) => {
    expect(isInt64Digits(digits)).toBe(ok);
  });

  test('A parsed body is written back with the same digits, and Int64 values as bare digits.', () => {
    const parsed = parseJson('{"id":9007199254740993,"categoryId":12345678901234567890}').value;
    expect(stringifyExact(parsed)).toBe('{"id":9007199254740993,"categoryId":12345678901234567890}');
    expect(stringifyExact({ categoryId: int64('9223372036854775807') })).toBe('{"categoryId":9223372036854775807}');
  });

  test('Canonical forms compare exactly: key order does not matter, one digit does.', () => {
    const a = parseJson('{"name":"x","id":9007199254740993}').value;
    const b = parseJson('{"id":9007199254740993,"name":"x"}').value;
    const c = parseJson('{"id":9007199254740992,"name":"x"}').value;
    expect(canonicalExact(a)).toBe(canonicalExact(b));
    expect(canonicalExact(a)).not.toBe(canonicalExact(c));
  });
});

/** The value at an RFC 6901 pointer. */
function pointerGet(root: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((v: unknown, t) => (v as Record<string, unknown>)[t], root);
}
