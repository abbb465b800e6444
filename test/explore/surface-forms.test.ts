/**
 * The surface generators follow their grammars: a media range list accepts JSON when its most specific matching range
 * has a weight above 0 (RFC 9110 §12.5.1), an Accept-Encoding refuses identity only when it says so (§12.5.3), every
 * spelling of a query decodes to the query it spells (RFC 3986), every near miss is derived from a valid value's
 * grammar and classed by the schema, and a fitted name has exactly the length asked in the unit asked.
 */
import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { nearMissArb } from '../../src/explore/arbitraries.ts';
import { classifyParam } from '../../src/explore/classify.ts';
import { acceptsJson, CLIENTS, clientForms, headerFormsArb, refusesIdentity } from '../../src/explore/header-forms.ts';
import { operation } from '../../src/explore/model.ts';
import { materialize, type Naming } from '../../src/explore/probe.ts';
import { queryShapeArb, spellQuery } from '../../src/explore/query-forms.ts';
import { fitted, lengthIn, LIMITS, SCRIPTS, UNITS } from '../../src/explore/strings.ts';
import { MUTATIONS, nearMisses } from '../../src/explore/values.ts';
import { BODY_EXAMPLES, OTHER_MEDIA_TYPES } from '../../src/explore/body-forms.ts';
import { OPEN_QUERY_FORMS } from '../../src/explore/query-forms.ts';
import { LEGACY_EXAMPLES } from '../../src/explore/legacy-forms.ts';
import { recordOf } from '../../src/explore/surface.ts';

const schemaOf = (name: string) => [...operation('listPets').params, ...operation('getPet').params].find((p) => p.name === name)!.schema;
const naming = (): Naming => {
  let n = 0;
  return { prefix: 'animal-store-conformance-', token: () => `t.${n++}`, plainLength: 49 };
};

describe('header fields from RFC 9110', () => {
  test.each([
    ['application/json', true],
    ['text/html;q=0.9, application/json', true],
    ['*/*', true],
    ['application/*;q=0.5', true],
    ['text/html', false],
    ['application/json;q=0, */*', false],
    ['*/*;q=0', false],
    ['application/json;q=0.001, text/html', true],
  ])('Accept: %s accepts application/json: %s.', (value, ok) => {
    const items = value.split(',').map((part) => {
      const [v, q] = part.trim().split(/;q=/);
      return { value: v, ...(q !== undefined ? { q } : {}) };
    });
    expect(acceptsJson(items)).toBe(ok);
  });

  test.each([
    [[{ value: 'gzip' }], false],
    [[{ value: 'identity', q: '0' }], true],
    [[{ value: '*', q: '0' }], true],
    [[{ value: '*', q: '0' }, { value: 'identity' }], false],
  ])('Accept-Encoding %j refuses identity: %s.', (items, refuses) => {
    expect(refusesIdentity(items)).toBe(refuses);
  });

  prop.prop([headerFormsArb(true)], { numRuns: 200 })(
    'Several fields at once, each its own form (named by its field), each HTTP-equivalent or refusable: none changes the request otherwise.',
    (forms) => {
      expect(new Set(forms.map((f) => f.id)).size).toBe(forms.length);
      for (const f of forms) expect(['equivalent-http', 'refusable']).toContain(f.cls);
      const p = materialize(
        {
          op: 'createPet',
          body: {
            k: 'obj',
            props: [
              ['name', { k: 'str', value: 'a', named: 'prefixed' }],
              ['categoryId', { k: 'num', text: '1' }],
            ],
          },
          forms,
          label: 'x',
        },
        naming(),
      );
      expect(p.cls).toBe('valid');
      expect(p.surface.map((r) => r.id).sort()).toEqual(forms.map((f) => f.id).sort());
    },
  );

  test("Every real client's defaults are forms the request is served alike with.", () => {
    for (const c of CLIENTS) for (const f of clientForms(c, true)) expect(f.cls, `${c.name} ${f.label}`).toBe('equivalent-http');
  });
});

describe('the query from RFC 3986', () => {
  prop.prop([
    fc.record({ limit: fc.integer({ min: 1, max: 100 }).map(String), status: fc.constantFrom('available', 'pending', 'sold') }),
    queryShapeArb,
  ])('Every spelling of a query — order, percent-encoding in either case, empty pairs — decodes to the query it spells.', (q, shape) => {
    const raw = spellQuery(q, shape);
    expect(Object.fromEntries(new URLSearchParams(raw))).toEqual(q);
  });
});

describe('near misses from the grammar of a value', () => {
  test('Every mutation changes a valid value of its grammar (an enumeration word, an integer).', () => {
    for (const m of MUTATIONS) {
      const base = m.on === 'integer' ? '42' : 'sold';
      expect(m.apply(base, 1), m.label).not.toBe(base);
    }
  });

  test.each(['status', 'limit', 'petId'])(
    'The near misses of %s are derived alike, and none of a status or of a limit is valid.',
    (name) => {
      const schema = schemaOf(name);
      const near = nearMisses(schema);
      expect(near.length).toBeGreaterThan(10);
      if (name !== 'petId')
        for (const [label, text] of near) expect(classifyParam(schema, text).cls, `${label}: ${JSON.stringify(text)}`).not.toBe('valid');
    },
  );

  prop.prop([nearMissArb(schemaOf('status'))], { numRuns: 300 })('A generated near miss of a status is never a status.', (text) => {
    expect(classifyParam(schemaOf('status'), text).cls).toBe('invalid');
  });

  test('The boundaries of a bounded integer and their neighbours are among its near misses’ bases (limit: 0, 1, 2, 99, 100, 101).', () => {
    const texts = new Set(nearMisses(schemaOf('limit')).map(([l]) => JSON.parse(l.split(',')[0]) as string));
    expect([...texts].sort()).toEqual(['0', '1', '100', '101', '2', '99']);
  });
});

describe('lengths where the units disagree', () => {
  prop.prop([fc.nat(SCRIPTS.length - 1), fc.nat(UNITS.length - 1), fc.nat(LIMITS.length - 1), fc.integer({ min: -1, max: 1 })])(
    'A fitted name has exactly the length asked, in the unit asked, in any script.',
    (s, u, l, d) => {
      const head = 'animal-store-conformance-t.0-';
      const n = LIMITS[l] + d;
      expect(lengthIn(fitted(head, SCRIPTS[s][1], UNITS[u], n), UNITS[u])).toBe(n);
    },
  );

  test('The units disagree: 256 UTF-8 bytes of CJK are far fewer UTF-16 units; 256 UTF-16 units of emoji are 128 code points.', () => {
    const cjk = fitted('', '猫', 'utf8', 256);
    expect([lengthIn(cjk, 'utf8'), lengthIn(cjk, 'utf16')]).toEqual([256, 86]);
    const emoji = fitted('', '🐶', 'utf16', 256);
    expect([lengthIn(emoji, 'utf16'), lengthIn(emoji, 'codepoints')]).toEqual([256, 128]);
  });

  test('A fitted name is materialized with the prefix inside its length.', () => {
    const p = materialize(
      {
        op: 'createPet',
        body: {
          k: 'obj',
          props: [
            ['name', { k: 'str', value: 'é', named: 'prefixed', fit: { unit: 'utf8', n: 256 } }],
            ['categoryId', { k: 'num', text: '1' }],
          ],
        },
        label: 'x',
      },
      naming(),
    );
    expect(p.name!.startsWith('animal-store-conformance-t.0-')).toBe(true);
    expect(lengthIn(p.name!, 'utf8')).toBe(256);
  });
});

test("An older store's surface variants that are still examples are read as those examples are (legacy-forms.ts is data, kept equal).", () => {
  const examples = [...BODY_EXAMPLES, ...OTHER_MEDIA_TYPES, ...OPEN_QUERY_FORMS];
  for (const [id, record] of Object.entries(LEGACY_EXAMPLES)) expect(record, id).toEqual(recordOf(examples.find((f) => f.id === id)!));
});
