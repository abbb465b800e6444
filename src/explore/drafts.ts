/**
 * Whole generated requests, for every operation: its parameters and body from their schemas (valid, wrong, near
 * misses) written in any equivalent JSON text; a plain request carrying several surface forms at once (header fields
 * real clients send, the credentials' spelling, the query's shape: one request, several independent dimensions,
 * shrunk to the ones a failure needs); and a plain NewPet written with an extension RFC 8259 §9 allows, or with what
 * an RFC leaves open (a BOM, a member given twice, another media type).
 */
import fc from 'fast-check';
import type { OperationId } from '../http/client.ts';
import { magnitudeArb, nearMemberArb, paramArb, valueArb, wrongBodyArb } from './arbitraries.ts';
import { extensionFormArb, framingFormArb, jsonSpellingArb, OTHER_MEDIA_TYPES, openBodyFormArb, spellingForm } from './body-forms.ts';
import { acceptArb, CLIENTS, clientForms, headerFormsArb, NO_CREDENTIALS } from './header-forms.ts';
import { num, obj, str, type JNode, type Spelling } from './json-text.ts';
import { NAME_FIELD, OPERATIONS, type OperationModel } from './model.ts';
import type { Draft } from './probe.ts';
import { OPEN_QUERY_FORMS, queryFormArb } from './query-forms.ts';
import type { Form } from './surface.ts';
import { jsonSpelledArb } from './values.ts';

/** Does a spelling change anything (else no form is attached)? */
const changes = (sp: Spelling): boolean => !!(sp.ws?.some(Boolean) || sp.escape?.some(Boolean) || sp.solidus || sp.order?.length);

/** The params of a draft, split into its query and its path id. */
function placed(op: OperationModel, ps: Record<string, string | undefined>): Pick<Draft, 'query' | 'petId'> {
  const query: Record<string, string | undefined> = {};
  let petId: string | undefined;
  for (const p of op.params)
    if (p.in === 'path') petId = ps[p.name];
    else query[p.name] = ps[p.name];
  return { query, ...(petId !== undefined ? { petId } : {}) };
}

/** A request draft for one operation: parameters from their schemas, a valid or a wrong body in any JSON spelling. */
export function draftArb(op: OperationModel): fc.Arbitrary<Draft> {
  const params = fc.record(Object.fromEntries(op.params.map((p) => [p.name, paramArb(p.schema, p.required, p.in === 'path')])));
  const body = op.body
    ? fc.oneof(
        { weight: 3, arbitrary: valueArb(op.body) },
        { weight: 2, arbitrary: wrongBodyArb(op.body) },
        { weight: 2, arbitrary: nearMemberArb(op.body) },
      )
    : fc.constant(undefined);
  return fc.tuple(params, body, jsonSpellingArb).map(([ps, b, sp]) => ({
    op: op.id,
    ...placed(op, ps),
    ...(b ? { body: b } : {}),
    ...(b && changes(sp) ? { forms: [spellingForm(sp)] } : {}),
    label: 'generated',
  }));
}

const prefixedName = (value: string): JNode => ({ k: 'str', value, named: 'prefixed' });

/** A plain NewPet: a printable name (or one in another script), a categoryId of any size, a status or none. */
const plainPetArb: fc.Arbitrary<JNode> = fc
  .record({
    name: fc.oneof(
      { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9 ./_-]{1,12}$/).map(prefixedName) },
      { weight: 1, arbitrary: fc.constantFrom('Ñandú', 'Кот 猫', 'כלב', 'Rex 🐶', 'Zoe\u0308').map(prefixedName) },
      // A name that is wholly another value's spelling (sent whole where the run may: Naming.wholeNames).
      { weight: 1, arbitrary: jsonSpelledArb.map((value): JNode => ({ k: 'str', value, named: 'whole' })) },
    ),
    categoryId: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }).map(String), magnitudeArb.map(String)),
    status: fc.option(fc.constantFrom('available', 'pending', 'sold'), { nil: undefined }),
  })
  .map(({ name, categoryId, status }) =>
    obj([[NAME_FIELD, name], ['categoryId', num(categoryId)], ...(status ? [['status', str(status)] as [string, JNode]] : [])]),
  );

/** The plain request of an operation the surface forms vary. */
export function plainArb(op: OperationModel): fc.Arbitrary<Draft> {
  if (op.body) return plainPetArb.map((body) => ({ op: op.id, body, label: 'a plain NewPet' }));
  const params = fc.record(
    Object.fromEntries(
      op.params.map((p) => {
        const valid = p.schema.enum
          ? fc.constantFrom(...p.schema.enum.map(String))
          : p.schema.minimum !== undefined && p.schema.maximum !== undefined
            ? fc.integer({ min: p.schema.minimum, max: p.schema.maximum }).map(String)
            : magnitudeArb.map(String);
        return [p.name, p.required ? valid : fc.option(valid, { nil: undefined })];
      }),
    ),
  );
  return params.map((ps) => ({ op: op.id, ...placed(op, ps), label: `a plain ${op.id}` }));
}

/** A plain request with several surface forms at once: header fields, the credentials' spelling, the query's shape. */
export function surfaceDraftArb(op: OperationModel): fc.Arbitrary<Draft> {
  const shapes = fc.oneof({ weight: 4, arbitrary: queryFormArb }, { weight: 1, arbitrary: fc.constantFrom(...OPEN_QUERY_FORMS) });
  const query = op.params.some((p) => p.in === 'query') ? fc.option(shapes, { nil: undefined }) : fc.constant(undefined);
  // A body in any JSON spelling too: the plain request a failure is checked against keeps it (attribution.ts).
  const spelling = op.body ? jsonSpellingArb : fc.constant({});
  // A body sent chunked one time in three.
  const framing = op.body
    ? fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: framingFormArb })
    : fc.constant(undefined);
  return fc.tuple(plainArb(op), headerFormsArb(!!op.body), query, fc.tuple(spelling, framing)).map(([d, headers, q, [sp, fr]]) => {
    const forms: Form[] = [...(changes(sp) ? [spellingForm(sp)] : []), ...headers, ...(q ? [q] : []), ...(fr ? [fr] : [])];
    return { ...d, forms, label: `${d.label} (surface)` };
  });
}

/** The Accept of a request that must be answered with an error: any list of media ranges, or a real client's defaults. */
function errorAcceptArb(withBody: boolean): fc.Arbitrary<Form[]> {
  return fc.oneof(
    { weight: 3, arbitrary: acceptArb.map((f) => [f]) },
    { weight: 1, arbitrary: fc.constantFrom(...CLIENTS).map((c) => clientForms(c, withBody)) },
  );
}

/**
 * A request that must be answered with an Error (an invalid NewPet: 400; no credentials: 401; an id no pet has: 404,
 * likely), carrying a varied Accept: an error answer is content negotiated too (RFC 9110 §12.5.1), and the spec's
 * errors are application/json whatever the request accepts.
 */
export function errorDraftArb(op: OperationModel): fc.Arbitrary<Draft> {
  const wrong = op.body ? wrongBodyArb(op.body).map((body): Draft => ({ op: op.id, body, label: 'an invalid NewPet' })) : undefined;
  const bases: fc.Arbitrary<Draft>[] = [
    plainArb(op).map((d) => ({ ...d, forms: [NO_CREDENTIALS], label: `${d.label} without credentials` })),
    ...(wrong ? [wrong] : []),
    ...(op.params.some((p) => p.in === 'path') ? [plainArb(op).map((d) => ({ ...d, label: 'an id no pet has, likely' }))] : []),
  ];
  return fc.tuple(fc.oneof(...bases), errorAcceptArb(!!op.body)).map(([d, accept]) => ({
    ...d,
    forms: [...(d.forms ?? []), ...accept],
    label: `${d.label} (an error, Accept varied)`,
  }));
}

/** A plain NewPet written with an extension of §9 (latitude), or what an RFC leaves open (refusable), or invalid. */
export const openDraftArb: fc.Arbitrary<Draft> = fc
  .tuple(
    plainPetArb,
    fc.oneof(
      { weight: 3, arbitrary: extensionFormArb },
      { weight: 2, arbitrary: openBodyFormArb },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER_MEDIA_TYPES) },
    ),
  )
  .map(([body, form]) => ({ op: 'createPet', body, forms: [form], label: 'a plain NewPet' }));

/**
 * A getPet whose petId is a near miss of an id the server holds (resolved when materialized: Draft.near) — `12.0`,
 * `12e0`, `12 ` for a pet 12 — so a reader that takes such a text as the pet's id meets a pet, not a 404.
 */
export const heldNearArb: fc.Arbitrary<Draft> = fc
  .record({ pick: fc.nat(), mutation: fc.nat(), at: fc.nat({ max: 40 }) })
  .map((near) => ({ op: 'getPet', near, label: 'a near miss of an id the server holds' }));

/** A draft of any operation (createPet only when the run may write): values, surface forms, open forms. */
export function requestArb(writes: boolean, only?: readonly OperationId[]): fc.Arbitrary<Draft> {
  const ops = OPERATIONS.filter((o) => (writes || o.method === 'GET') && (!only || only.includes(o.id)));
  const arms = ops.flatMap((o) => {
    const w = o.method === 'POST' ? 3 : 2;
    return [
      { weight: w * 4, arbitrary: draftArb(o) },
      { weight: w * 2, arbitrary: surfaceDraftArb(o) },
      { weight: w, arbitrary: errorDraftArb(o) },
      ...(o.body ? [{ weight: w, arbitrary: openDraftArb }] : []),
      ...(o.params.some((p) => p.in === 'path') ? [{ weight: w, arbitrary: heldNearArb }] : []),
    ];
  });
  return fc.oneof(...arms);
}
