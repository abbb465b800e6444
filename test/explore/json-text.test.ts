/**
 * RFC 8259's grammar, generated: every spelling of a NewPet — whitespace between any tokens, any character of any
 * string escaped, hex digits in either case, \/ — is the same JSON value, digit for digit; a spelling with an
 * extension §9 allows is no JSON text, and a parser taking the extension reads the same NewPet in it; what no
 * extension reads has no reading. The classification follows: equivalent, latitude, invalid.
 */
import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { canonicalExact, parseJson } from '../../src/core/json.ts';
import { valueArb } from '../../src/explore/arbitraries.ts';
import { extensionArb, jsonSpellingArb, usesExtension } from '../../src/explore/body-forms.ts';
import { classifyBody } from '../../src/explore/classify.ts';
import { render } from '../../src/explore/json-text.ts';
import { readLeniently } from '../../src/explore/lenient-json.ts';
import { operation } from '../../src/explore/model.ts';

const newPet = operation('createPet').body!;
const exact = (text: string) => {
  const v = parseJson(text).value;
  return canonicalExact(v, v);
};

describe('equivalent spellings', () => {
  prop.prop([valueArb(newPet), jsonSpellingArb], { numRuns: 300 })(
    'Any spelling of a NewPet is the same JSON value, digit for digit.',
    (node, sp) => {
      expect(exact(render(node, sp))).toBe(exact(render(node)));
    },
  );

  test.each([
    [
      { escape: [true], upper: [true], long: true },
      '{"\\u006E\\u0061\\u006D\\u0065":"\\u0052\\u0065\\u0078\\u002F","\\u0063\\u0061\\u0074\\u0065\\u0067\\u006F\\u0072\\u0079\\u0049\\u0064":7}',
    ],
    [{ solidus: true }, '{"name":"Rex\\/","categoryId":7}'],
    [{ ws: ['\t', '\r\n'] }, '\t{\r\n"name"\t:\r\n"Rex/"\t,\r\n"categoryId"\t:\r\n7\t}\r\n'],
  ])('The spelling %j writes %s.', (sp, text) => {
    expect(
      render(
        {
          k: 'obj',
          props: [
            ['name', { k: 'str', value: 'Rex/' }],
            ['categoryId', { k: 'num', text: '7' }],
          ],
        },
        sp,
      ),
    ).toBe(text);
  });

  test('With no spelling a tree is written as JSON.stringify writes its value.', () => {
    const value = { name: 'a"b\\c\u0001\n\u2028é🐶/', categoryId: 7 };
    const node = valueArb(newPet); // (the arbitrary is exercised above; here one hand-made tree)
    expect(node).toBeDefined();
    expect(
      render({
        k: 'obj',
        props: [
          ['name', { k: 'str', value: value.name }],
          ['categoryId', { k: 'num', text: '7' }],
        ],
      }),
    ).toBe(JSON.stringify(value));
  });
});

describe('extensions RFC 8259 §9 allows', () => {
  prop.prop([valueArb(newPet), extensionArb], { numRuns: 200 })(
    'A spelling with an extension is no JSON text, or the same value; where it is none, a parser taking the extension reads the same NewPet.',
    (node, { sp, change }) => {
      const tree = change ? change(node) : node;
      const text = render(tree, sp);
      expect(usesExtension(sp)).toBe(true);
      let json = true;
      try {
        parseJson(text);
      } catch {
        json = false;
      }
      if (json) return; // the character the extension leaves raw was not there to leave
      const read = readLeniently(text);
      expect(read, text).toBeDefined();
      expect(exact(render(read!.node))).toBe(exact(render(tree)));
    },
  );

  test.each([
    ['{"name":"a","categoryId":1} x', ['data after the value']],
    ['{"name":"a","categoryId":1}\n{"name":"b","categoryId":2}', ['data after the value']],
    ['{"name":"a", /* c */ "categoryId":1,}', ['comments', 'trailing comma']],
    ["{'name':'a',categoryId:+1}", ['single quotes', 'unquoted member names', 'a plus sign']],
    ['{"name":"a","categoryId":007}', ['leading zeros']],
    ['{"name":"a\u0001","categoryId":0x10}', ['unescaped control characters', 'a hexadecimal number']],
  ])('%j is read through %j.', (text, extensions) => {
    expect(readLeniently(text)?.extensions.sort()).toEqual([...extensions].sort());
  });

  test('The reading is JSON again: the first value, numbers as JSON numbers (0x10 is 16, 007 is 7).', () => {
    expect(render(readLeniently('{"categoryId":0x10,"n":007,"m":.5}x')!.node)).toBe('{"categoryId":16,"n":7,"m":0.5}');
  });

  test.each(['{"name":"a",', '{name}', '', 'x', '{"a":1 "b":2}'])('%j has no reading.', (text) => {
    expect(readLeniently(text)).toBeUndefined();
  });

  test.each([
    ['{"name":"animal-store-conformance-a","categoryId":1} x', 'latitude'],
    ["{'name':'animal-store-conformance-a','categoryId':1}", 'latitude'],
    ['{"name":"animal-store-conformance-a","categoryId":+7}', 'latitude'],
    // A reading that is no NewPet, or none at all: invalid.
    ['{"categoryId":1} x', 'invalid'],
    ['{"name":"a","categoryId":NaN}', 'invalid'],
    ['{"name":"a","categoryId":１}', 'invalid'],
    ['{"name":"a",', 'invalid'],
  ] as const)('The createPet body %j is %s.', (text, cls) => {
    expect(classifyBody(text, newPet, 49).cls).toBe(cls);
  });

  test('A latitude body says which extension it needs, and gives its reading.', () => {
    const c = classifyBody('{"name":"animal-store-conformance-a","categoryId":1,}', newPet, 49);
    expect(c).toMatchObject({
      cls: 'latitude',
      extensions: ['trailing comma'],
      reading: '{"name":"animal-store-conformance-a","categoryId":1}',
    });
  });
});

test('fast-check is the one the suite ships (the property tests above run its arbitraries).', () => {
  expect(typeof fc.sample).toBe('function');
});
