/**
 * The classes of input the held-out faults showed missing, each generated from its grammar and classed: members of an
 * object in any order (RFC 8259 §4), a body sent chunked in chunks of any sizes (RFC 9112 §7.1), near misses of an id
 * the server holds, names whose whole text spells another value, and a varied Accept on requests answered with an error.
 * Each arbitrary shrinks towards its plainest member, and each class has one example among the coverage cases.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { canonicalExact, parseJson } from '../../src/core/json.ts';
import { valueArb } from '../../src/explore/arbitraries.ts';
import { BODY_EXAMPLES, FRAMING_EXAMPLES, framingFormArb, jsonSpellingArb } from '../../src/explore/body-forms.ts';
import { classifyBody, classifyParam } from '../../src/explore/classify.ts';
import { coverageDrafts } from '../../src/explore/coverage.ts';
import { errorDraftArb } from '../../src/explore/drafts.ts';
import { obj, num, render, str, type JNode } from '../../src/explore/json-text.ts';
import { operation, OPERATIONS } from '../../src/explore/model.ts';
import { materialize, requestOf, type Naming } from '../../src/explore/probe.ts';
import { heldIdNearMisses, JSON_SPELLED, jsonSpelledArb, nearMissOfId } from '../../src/explore/values.ts';
import { chunksOf, send } from '../../src/http/transport.ts';

const newPet = operation('createPet').body!;
const petId = operation('getPet').params[0].schema;
const naming = (wholeNames = false): Naming => {
  let n = 0;
  return { prefix: 'animal-store-conformance-', token: () => `t.${n++}`, plainLength: 49, wholeNames };
};
const exact = (text: string) => {
  const v = parseJson(text).value;
  return canonicalExact(v, v);
};
const pet: JNode = obj([
  ['name', str('Rex')],
  ['categoryId', num('7')],
  ['status', str('sold')],
]);

describe('members in any order (RFC 8259 §4)', () => {
  test.each([
    [[2, 1, 0], '{"status":"sold","categoryId":7,"name":"Rex"}'],
    [[1, 0], '{"categoryId":7,"name":"Rex","status":"sold"}'],
    [[], '{"name":"Rex","categoryId":7,"status":"sold"}'],
  ])('The ranks %j write %s.', (order, text) => {
    expect(render(pet, { order })).toBe(text);
  });

  test('Objects at any depth are reordered (the ranks run over every member of the text).', () => {
    const nested = obj([
      [
        'a',
        obj([
          ['x', num('1')],
          ['y', num('2')],
        ]),
      ],
      ['b', num('3')],
    ]);
    expect(render(nested, { order: [1, 0, 1, 0] })).toBe('{"b":3,"a":{"y":2,"x":1}}');
  });

  prop.prop([valueArb(newPet), jsonSpellingArb], { numRuns: 200 })('Any order of a NewPet is the same JSON value.', (node, sp) => {
    expect(exact(render(node, sp))).toBe(exact(render(node)));
  });

  test('A failure that needs categoryId before name shrinks to a spelling of member order alone.', () => {
    const before = (t: string) => t.indexOf('"categoryId"') >= 0 && t.indexOf('"categoryId"') < t.indexOf('"name"');
    const out = fc.check(
      fc.property(jsonSpellingArb, (sp) => !before(render(pet, sp))),
      { seed: 7 },
    );
    const [sp] = out.counterexample!;
    expect(Object.entries(sp).filter(([, v]) => (Array.isArray(v) ? v.length : v))).toEqual([['order', sp.order]]);
    expect(sp.order!.length).toBeLessThanOrEqual(2);
  });

  test('The coverage cases send one NewPet with its members reversed.', () => {
    expect(BODY_EXAMPLES.find((f) => f.id === 'json-member-order')?.cls).toBe('equivalent');
    expect(coverageDrafts({ writes: true, embedded: false }).some((d) => d.forms?.some((f) => f.id === 'json-member-order'))).toBe(true);
  });
});

/** A server on a random loopback port that answers with the headers and body it read. */
async function echoing(fn: (url: string) => Promise<void>): Promise<void> {
  const srv = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(JSON.stringify({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  try {
    await fn(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/`);
  } finally {
    await new Promise((resolve) => srv.close(resolve));
  }
}

describe('the body sent chunked (RFC 9112 §7.1)', () => {
  prop.prop([fc.string({ unit: 'grapheme', maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 })])(
    'The chunks are the bytes of the body in order, each of its size (cycled, the last what is left).',
    (body, sizes) => {
      const chunks = chunksOf(body, sizes);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(body);
      chunks.slice(0, -1).forEach((c, i) => expect(c.length).toBe(sizes[i % sizes.length]));
    },
  );

  test('On a socket the body goes with Transfer-Encoding: chunked and no Content-Length, and arrives whole (a chunk may cut a UTF-8 character).', async () => {
    await echoing(async (url) => {
      const body = '{"name":"Ñandú 🐶","categoryId":7}';
      const ex = await send({ method: 'POST', url, body, chunks: [3, 1] }, { timeoutMs: 10_000, maxBodyBytes: 65536 });
      const got = JSON.parse(ex.response!.bodyText) as { headers: IncomingHttpHeaders; body: string };
      expect(got.headers['transfer-encoding']).toBe('chunked');
      expect(got.headers['content-length']).toBeUndefined();
      expect(got.body).toBe(body);
    });
  });

  prop.prop([framingFormArb])('A chunked NewPet is an equivalent-http request, which a 411 may refuse.', (form) => {
    const p = materialize({ op: 'createPet', body: pet, label: 'chunked', forms: [form] }, naming());
    expect(p.surfaceClass).toBe('equivalent-http');
    expect(p.cls).toBe('valid');
    expect(requestOf(p).chunks).toEqual(p.chunks);
    expect(requestOf(p).alsoAcceptable).toContain(411);
  });

  test('A request without a body is not framed; the coverage cases send one NewPet chunked.', () => {
    expect(materialize({ op: 'listPets', label: 'a page', forms: [...FRAMING_EXAMPLES] }, naming()).chunks).toBeUndefined();
    expect(coverageDrafts({ writes: true, embedded: false }).some((d) => d.forms?.some((f) => f.kind === 'framing'))).toBe(true);
  });
});

describe('near misses of an id the server holds', () => {
  prop.prop([fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }), fc.nat(), fc.nat({ max: 40 })])(
    'Every near miss of a held id is another text, a path segment of its own.',
    (id, k, at) => {
      const [, text] = nearMissOfId(String(id), k, at);
      expect(text).not.toBe(String(id));
      expect(text).not.toBe('');
    },
  );

  test('The coverage near misses of pet 12 hold 12.0 and 12e0, which no reading may take for pet 12 (invalid: a 4xx).', () => {
    const texts = heldIdNearMisses('12').map(([, t]) => t);
    expect(texts).toEqual(expect.arrayContaining(['12.0', '12e0', '+12', '0012']));
    expect(classifyParam(petId, '12.0').cls).toBe('invalid');
    expect(classifyParam(petId, '12e0').cls).toBe('invalid');
  });
});

describe('names whose whole text spells another value', () => {
  prop.prop([jsonSpelledArb])('Such a name is a valid NewPet (a string), and goes whole on the suite’s own server only.', (value) => {
    const body = obj([
      ['name', { k: 'str', value, named: 'whole' }],
      ['categoryId', num('7')],
    ]);
    const whole = materialize({ op: 'createPet', body, label: 'whole' }, naming(true));
    expect(whole.name).toBe(value);
    expect(classifyBody(render(body), newPet, 49).cls).not.toBe('invalid');
    expect(materialize({ op: 'createPet', body, label: 'prefixed' }, naming()).name).toMatch(/^animal-store-conformance-/);
  });

  test('The coverage cases send one name of each kind, without the prefix, on the embedded server only.', () => {
    const names = (embedded: boolean) => coverageDrafts({ writes: true, embedded }).map((d) => materialize(d, naming()).name);
    for (const [, value] of JSON_SPELLED) {
      expect(names(true)).toContain(value);
      expect(names(false)).not.toContain(value);
    }
  });
});

describe('a varied Accept on requests answered with an error', () => {
  prop.prop([fc.constantFrom(...OPERATIONS).chain((op) => errorDraftArb(op))], { numRuns: 200 })(
    "Every such request carries an Accept or a real client's defaults; one without credentials is sent without any (auth none).",
    (d) => {
      const p = materialize(d, naming());
      expect(p.surface.some((f) => f.id === 'accept' || f.label.endsWith(')'))).toBe(true);
      if (p.headers?.authorization === null) expect(requestOf(p).auth).toBe('none');
    },
  );

  test("Axios's Accept, naming text/plain, rides on an error answer in every run, GET only too.", () => {
    for (const writes of [false, true]) {
      const errors = coverageDrafts({ writes, embedded: false }).filter(
        (d) => d.op === 'getPet' && classifyParam(petId, d.petId).cls !== 'valid' && d.forms?.some((f) => f.label.includes('(axios)')),
      );
      expect(errors.length, `writes ${writes}`).toBeGreaterThan(0);
    }
  });
});

test('The pets the coverage cases create go to the statuses whose page has room: none to a full one.', () => {
  const statuses = (room?: Record<string, number>) =>
    coverageDrafts({ writes: true, embedded: false, ...(room ? { room } : {}) })
      .filter((d) => d.op === 'createPet' && !d.label.startsWith('status'))
      .map((d) => /"status":"([a-z]+)"/.exec(render(d.body!))?.[1]);
  expect(statuses({ available: 0, pending: 200, sold: 200 })).not.toContain('available');
  expect(new Set(statuses())).toEqual(new Set(['available', 'pending', 'sold', undefined]));
});

test('A valid NewPet without credentials is a coverage case of every run that may write, its status on a page with room.', () => {
  const refused = (room?: Record<string, number>) =>
    coverageDrafts({ writes: true, embedded: false, ...(room ? { room } : {}) }).filter(
      (d) => d.op === 'createPet' && d.forms?.some((f) => f.label === 'no credentials'),
    );
  expect(refused()).toHaveLength(1);
  expect(requestOf(materialize(refused()[0], naming())).auth).toBe('none');
  expect(render(refused({ available: 0, pending: 0, sold: 200 })[0].body!)).toContain('"status":"sold"');
  expect(coverageDrafts({ writes: false, embedded: false }).filter((d) => d.op === 'createPet')).toEqual([]);
});
