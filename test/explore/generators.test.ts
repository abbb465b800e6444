/**
 * The generators agree with the schema they are derived from (property tests,
 * @fast-check/vitest): a valid value is never invalid by the schema, a wrong one
 * always is; int64 values are written digit for digit; parameters can travel in
 * a URL. The classification follows the schema's words, and a change to the
 * OpenAPI document changes what is explored.
 */
import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { paramArb, valueArb, wrongBodyArb } from '../../src/explore/arbitraries.ts';
import { draftArb } from '../../src/explore/drafts.ts';
import { classifyBody, classifyParam, hasLoneSurrogate } from '../../src/explore/classify.ts';
import { coverageDrafts } from '../../src/explore/coverage.ts';
import { render } from '../../src/explore/json-text.ts';
import { operation, operationsOf, resolveRefs } from '../../src/explore/model.ts';
import { materialize, type Naming } from '../../src/explore/probe.ts';
import openapi from '../../schemas/openapi.json' with { type: 'json' };

const newPet = operation('createPet').body!;
const naming = (): Naming => {
  let n = 0;
  return { prefix: 'animal-store-conformance-', token: () => `t.${n++}`, plainLength: 49 };
};

describe('generators derived from the schema', () => {
  prop.prop([valueArb(newPet)], { numRuns: 300 })('A generated valid NewPet is never invalid by the schema.', (body) => {
    const p = materialize({ op: 'createPet', body, label: 'generated' }, naming());
    expect(p.cls, `${p.body}: ${p.why}`).not.toBe('invalid');
  });

  prop.prop([wrongBodyArb(newPet)], { numRuns: 300 })(
    'A generated wrong NewPet is always invalid, and names the requirement its refusal proves.',
    (body) => {
      const p = materialize({ op: 'createPet', body, label: 'generated' }, naming());
      expect(p.cls, p.body).toBe('invalid');
      expect(p.parts.body.requirement).toMatch(/^CREATE-400-(MISSING-FIELD|WRONG-TYPE|BAD-STATUS|BAD-BODY)$/);
    },
  );

  prop.prop([fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n)])(
    'An int64 categoryId is written with exactly its digits, never through a JS number.',
    (v) => {
      const body = render({ k: 'obj', props: [['categoryId', { k: 'num', text: String(v) }]] });
      expect(body).toBe(`{"categoryId":${v}}`);
      const p = materialize(
        {
          op: 'createPet',
          body: {
            k: 'obj',
            props: [
              ['name', { k: 'str', value: 'a', named: 'prefixed' }],
              ['categoryId', { k: 'num', text: String(v) }],
            ],
          },
          label: 'x',
        },
        naming(),
      );
      expect(p.cls).not.toBe('invalid');
    },
  );

  prop.prop([paramArb(operation('getPet').params[0].schema, true, true)], { numRuns: 500 })(
    'A generated petId can travel as a path segment: never empty, never a dot segment, never a lone surrogate.',
    (id) => {
      expect(id).toBeDefined();
      expect(['', '.', '..']).not.toContain(id);
      expect(hasLoneSurrogate(id!)).toBe(false);
    },
  );

  prop.prop([draftArb(operation('createPet'))], { numRuns: 200 })("Every created pet carries the run's name prefix.", (d) => {
    const p = materialize(d, naming());
    if (p.name !== undefined) expect(p.name.startsWith('animal-store-conformance-')).toBe(true);
  });
});

describe('classification by the schema', () => {
  test.each([
    ['limit', '1', 'valid'],
    ['limit', '100', 'valid'],
    ['limit', '0', 'invalid'],
    ['limit', '101', 'invalid'],
    ['limit', '+5', 'silent'],
    ['limit', '005', 'silent'],
    ['limit', '5.0', 'invalid'],
    ['limit', '٥', 'invalid'],
    ['status', 'sold', 'valid'],
    ['status', 'Sold', 'invalid'],
    ['petId', '9223372036854775807', 'valid'],
    ['petId', '9223372036854775808', 'invalid'],
    ['petId', '0', 'silent'],
    ['petId', '-9223372036854775808', 'silent'],
    ['petId', '007', 'silent'],
    ['petId', '1e3', 'invalid'],
  ] as const)('The %s value %j is %s.', (param, text, cls) => {
    const op = param === 'petId' ? operation('getPet') : operation('listPets');
    expect(classifyParam(op.params.find((p) => p.name === param)!.schema, text).cls).toBe(cls);
  });

  test.each([
    ['{"name":"animal-store-conformance-Rex","categoryId":7}', 'valid'],
    [`{"name":"animal-store-conformance-O'Brien","categoryId":9223372036854775807,"status":"sold"}`, 'valid'],
    ['{"name":"animal-store-conformance-Ñandú","categoryId":7}', 'silent'],
    ['{"name":"animal-store-conformance-a\\u0000b","categoryId":7}', 'silent'],
    ['{"name":"animal-store-conformance-Rex","categoryId":7,"nickname":"x"}', 'silent'],
    ['{"name":"animal-store-conformance-Rex","categoryId":7.0}', 'silent'],
    ['{"name":"animal-store-conformance-Rex","categoryId":-3}', 'silent'],
    ['{"name":"animal-store-conformance-Rex","categoryId":9223372036854775808}', 'invalid'],
    ['{"name":"animal-store-conformance-Rex","categoryId":"7"}', 'invalid'],
    ['{"name":"animal-store-conformance-Rex","categoryId":7,"status":" sold"}', 'invalid'],
    ['{"categoryId":7}', 'invalid'],
    ['[{"name":"a","categoryId":7}]', 'invalid'],
    ['{"name":"a",', 'invalid'],
  ] as const)('The createPet body %s is %s.', (text, cls) => {
    expect(classifyBody(text, newPet, 49).cls).toBe(cls);
  });

  test('A body the spec is silent about is described by every unusual trait, so that a note on its refusal names each one a server may have refused.', () => {
    const text = '{"name":"animal-store-conformance-Ñandú","categoryId":1e2,"color":"red"}';
    expect(classifyBody(text, newPet, 49).why).toBe(
      'unknown property color; name has characters outside printable ASCII; categoryId written 1e2',
    );
  });
});

describe('coverage derived from the schema', () => {
  test('The coverage cases hold valid, silent and invalid cases for every operation (and latitude bodies for createPet), and a case for every parameter and body field.', () => {
    const probes = coverageDrafts({ writes: true, embedded: true }).map((d) => materialize(d, naming()));
    for (const op of ['listPets', 'getPet'] as const)
      expect(new Set(probes.filter((p) => p.op === op).map((p) => p.cls))).toEqual(new Set(['valid', 'silent', 'invalid']));
    // A body also has texts that are a NewPet only through an extension RFC 8259 §9 allows (latitude).
    expect(new Set(probes.filter((p) => p.op === 'createPet').map((p) => p.cls))).toEqual(
      new Set(['valid', 'silent', 'invalid', 'latitude']),
    );
    const labels = probes.map((p) => p.label);
    for (const field of ['name', 'categoryId', 'status', 'limit', 'petId'])
      expect(labels.some((l) => l.startsWith(`${field}: `))).toBe(true);
    expect(probes.some((p) => p.body === '{"name":"","categoryId":7,"status":"sold"}' || p.body?.startsWith('{"name":"",'))).toBe(true);
  });

  test('Without writes the coverage cases are GET requests only, and names never go without the prefix off the embedded server.', () => {
    expect(coverageDrafts({ writes: false, embedded: false }).every((d) => d.op !== 'createPet')).toBe(true);
    const named = coverageDrafts({ writes: true, embedded: false })
      .map((d) => materialize(d, naming()).name)
      .filter((n) => n !== undefined);
    expect(named.every((n) => n.startsWith('animal-store-conformance-'))).toBe(true);
  });

  test('A change to the OpenAPI document changes what is explored (a maximum limit of 50 is probed at 50 and 51).', () => {
    const doc = structuredClone(openapi) as Record<string, any>;
    doc.components.parameters.limit.schema.maximum = 50;
    const limit = resolveRefs(
      operationsOf(doc)
        .find((o) => o.id === 'listPets')!
        .params.find((p) => p.name === 'limit')!.schema,
      doc,
    );
    expect(limit.maximum).toBe(50);
    expect(classifyParam(limit, '50').cls).toBe('valid');
    expect(classifyParam(limit, '51').cls).toBe('invalid');
  });
});
