/**
 * The coverage cases: deterministic, derived from the schemas. For every
 * parameter, the boundary and class values of its type (values.ts) with the
 * other parameters left out; for every body field, each of its values in an
 * otherwise valid body; every required field missing; an unknown property;
 * other JSON roots and cut-off JSON. Each is a positive or a negative case
 * according to the schema (classify.ts), judged when it is sent.
 */
import { classifyParam, isPathSegment } from './classify.ts';
import { lit, num, obj, str, withProp, type JNode } from './json-text.ts';
import { NAME_FIELD, operation, OPERATIONS, type OperationModel, type Schema } from './model.ts';
import type { Draft } from './probe.ts';
import type { Form } from './surface.ts';
import { BODY_EXAMPLES, FRAMING_EXAMPLES, OTHER_MEDIA_TYPES } from './body-forms.ts';
import {
  CLIENTS,
  clientForms,
  CONTENT_TYPE_EXAMPLES,
  ENCODING_EXAMPLES,
  HEADER_EXAMPLES,
  headerForm,
  NO_CREDENTIALS,
} from './header-forms.ts';
import { OPEN_QUERY_FORMS, queryForm } from './query-forms.ts';
import { boundaryNames } from './strings.ts';
import { fieldSamples, INT64_BOUNDARIES, JSON_SPELLED, paramSamples } from './values.ts';

/** A simple valid value of a schema: the baseline every field case varies one field of. */
function baseline(schema: Schema, key = ''): JNode {
  if (schema.enum) return str(String(schema.enum[schema.enum.length - 1]));
  if (schema.type === 'integer') return num(String(schema.minimum !== undefined ? schema.minimum : 7));
  if (schema.type === 'string') return key === NAME_FIELD ? { k: 'str', value: 'coverage', named: 'prefixed' } : str('coverage');
  if (schema.type === 'object') return obj(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, baseline(s, k)] as [string, JNode]));
  return lit('null');
}

/** A field's value node as the pet's name: the run's prefix goes in front of string values. */
const asName = (n: JNode): JNode => (n.k === 'str' ? { ...n, named: 'prefixed' } : n);

/**
 * How many more pets each value of an enumeration (a status) can take before its page of the list is full: what the
 * coverage part read before storing anything (the baselines). Absent: the values take turns.
 */
export type Room = Readonly<Record<string, number>>;

/** The value of an enumeration the i-th case takes: each in turn, or (with room) the one whose page has most room left. */
function spread(values: readonly string[], i: number, room?: Room): string {
  if (!room) return values[i % values.length];
  const left = Object.fromEntries(values.map((v) => [v, room[v] ?? 0]));
  let v = values[0];
  for (let k = 0; k <= i; k++) {
    v = values.reduce((best, x) => (left[x] > left[best] ? x : best), values[0]);
    left[v]--;
  }
  return v;
}

/** The baseline with its enumeration properties (other than `key`) spread over their values, case by case. */
function rotated(schema: Schema, base: JNode, at: { key: string; i: number; room?: Room }): JNode {
  let out = base;
  for (const [k, s] of Object.entries(schema.properties ?? {}))
    if (k !== at.key && s.enum?.length && out.k === 'obj' && out.props.some(([p]) => p === k))
      out = withProp(out, k, str(spread(s.enum.map(String), at.i, at.room)));
  return out;
}

function bodyCases(op: OperationModel, embedded: boolean, room?: Room): Draft[] {
  const schema = op.body!;
  const base = baseline(schema);
  const out: Draft[] = [];
  // Pets created by the cases spread over every status, so each status's page stays short enough to list them all.
  const d = (label: string, body: JNode, key = ''): Draft => ({
    op: op.id,
    body: rotated(schema, body, { key, i: out.length, room }),
    label,
  });
  for (const [key, s] of Object.entries(schema.properties ?? {})) {
    for (const sample of fieldSamples(s))
      out.push(d(`${key}: ${sample.label}`, withProp(base, key, key === NAME_FIELD ? asName(sample.node) : sample.node), key));
    // Every field left out: a required one must be refused, an optional one served (and stored as the server defaults it).
    out.push(d(`without ${key}`, withProp(base, key, undefined), key));
  }
  // Names on both sides of 255 where UTF-16 units, code points, UTF-8 bytes and graphemes disagree.
  for (const { node, label } of boundaryNames()) out.push(d(`${NAME_FIELD}: ${label}`, withProp(base, NAME_FIELD, node), NAME_FIELD));
  // Names without the run's prefix only on the suite's own server (a pet created elsewhere must be findable by its
  // prefix): the shortest, and one of each kind of string that spells another value (values.ts: JSON_SPELLED).
  if (embedded)
    for (const [label, value] of [['empty', ''], ['one character', 'a'], ...JSON_SPELLED])
      out.push(d(`${NAME_FIELD}: ${label}, without the prefix`, withProp(base, NAME_FIELD, { k: 'str', value, named: 'bare' })));
  out.push(
    d('an unknown property', withProp(base, 'nickname', str('Rex'))),
    d('the body as a JSON array', { k: 'arr', items: [base] }),
    d('the body as a JSON string', str('a pet')),
    d('the body as JSON null', lit('null')),
    d('the body as a number', num('1')),
    d('cut-off JSON', { k: 'cut', of: base }),
    d('an empty body', { k: 'raw', text: '' }),
  );
  return out;
}

/** A parameter's samples; an integer with bounds skips most int64 extremes (its bounds are what matters). */
function paramCases(op: OperationModel): Draft[] {
  const out: Draft[] = [];
  for (const p of op.params) {
    const bounded = p.schema.minimum !== undefined && p.schema.maximum !== undefined;
    const keep = new Set(['2^31', '2^63 (just above int64)', '-2^63 - 1 (just below int64)']);
    const int64Labels = new Set(INT64_BOUNDARIES.map(([l]) => l));
    for (const sample of paramSamples(p.schema)) {
      if (bounded && int64Labels.has(sample.label) && !keep.has(sample.label)) continue;
      const text = sample.node.k === 'str' ? sample.node.value : '';
      if (p.in === 'path' && !isPathSegment(text)) continue;
      const label = `${p.name}: ${sample.label}`;
      out.push(p.in === 'path' ? { op: op.id, petId: text, label } : { op: op.id, query: { [p.name]: text }, label });
    }
  }
  return out;
}

/** Equivalent spellings of a query: every character encoded (upper-case hex); reordered, encoded in turn (lower-case hex), empty pairs. */
const QUERY_EXAMPLES: readonly Form[] = [
  queryForm({ rotate: 0, reverse: false, encode: [true], upper: [true], empties: [] }),
  queryForm({ rotate: 0, reverse: true, encode: [true, false], upper: [false], empties: [1, 0, 2] }),
];

/** The header forms a GET case carries: each example, and each real client's default headers (a group). */
function headerGroups(): { forms: Form[]; label: string }[] {
  return [
    ...HEADER_EXAMPLES.filter((f) => f.cls === 'equivalent-http').map((f) => ({ forms: [f], label: f.label })),
    ...CLIENTS.map((c) => ({ forms: clientForms(c, false), label: `as ${c.name} sends it` })),
  ];
}

/** A GET case every parameter of which is valid (it must be served: the forms it carries must not change that). */
function isValidGet(d: Draft): boolean {
  const op = operation(d.op);
  return op.params.every((p) => classifyParam(p.schema, p.in === 'path' ? d.petId : d.query?.[p.name]).cls === 'valid');
}

/**
 * The header examples ride on the valid GET cases, one group each (one request, two independent dimensions: a
 * failure is told apart by sending the plain request, attribution.ts), those left over on the getPet cases answered
 * with an error; those left then get a page of their own.
 */
function withHeaders(cases: readonly Draft[]): Draft[] {
  const groups = headerGroups();
  const ride = (valid: boolean) => (d: Draft) => {
    if (d.op === 'createPet' || d.forms?.length || !groups.length) return d;
    if (valid ? !isValidGet(d) : d.op !== 'getPet' || isValidGet(d)) return d;
    const g = groups.shift()!;
    return { ...d, forms: g.forms, label: `${d.label}, ${g.label}` };
  };
  // Then on getPet cases of an id that is no integer (an error answer: an Error, whatever the request accepts).
  const out = cases.map(ride(true)).map(ride(false));
  for (const g of groups) out.push({ op: 'listPets', query: { limit: '5' }, label: `a page, ${g.label}`, forms: g.forms });
  return out;
}

/**
 * The request's surface (surface.ts), each example once: the query shapes and the refusable Accept on a valid filtered
 * page (the other header examples ride on the valid GET cases: withHeaders), the Authorization spelling and each real
 * client's default headers on a valid create, the body forms and Content-Type spellings on a valid NewPet, and a valid
 * NewPet without credentials (a 401 that must store nothing, in every run: the generated ones come by chance).
 */
function surfaceCases(writes: boolean, room?: Room): Draft[] {
  const create = operation('createPet');
  const body = (i: number) => rotated(create.body!, baseline(create.body!), { key: '', i, room });
  const list: Draft = { op: 'listPets', query: { status: 'sold', limit: '5' }, label: 'a filtered page' };
  const refusable = HEADER_EXAMPLES.filter((f) => f.cls === 'refusable');
  const out: Draft[] = [...QUERY_EXAMPLES, ...OPEN_QUERY_FORMS.filter((f) => f.id !== 'q-repeated-same'), ...refusable].map((f) => ({
    ...list,
    forms: [f],
  }));
  if (!writes) return out;
  // A declared charset matters only to bytes outside ASCII: the Content-Type spellings and the clients' defaults go on
  // a name that has some (refused cleanly by a server taking printable ASCII only: observed, never failed).
  const nonAscii = (i: number) => withProp(body(i), NAME_FIELD, { k: 'str', value: 'coverage-Ñandú-猫', named: 'prefixed' });
  const creates: { forms: Form[]; label?: string; text?: boolean }[] = [
    ...[
      ...BODY_EXAMPLES,
      ...FRAMING_EXAMPLES,
      ...OTHER_MEDIA_TYPES,
      ...ENCODING_EXAMPLES,
      ...HEADER_EXAMPLES.filter((f) => f.kind === 'auth'),
    ].map((f) => ({
      forms: [f],
    })),
    ...CONTENT_TYPE_EXAMPLES.map((f) => ({ forms: [f], text: true })),
    ...CLIENTS.map((c) => ({ forms: clientForms(c, true), label: `a NewPet, as ${c.name} sends it`, text: true })),
    // Refused with 401, it must store nothing: read back on the page of its status, which the room keeps short (stateful.ts).
    { forms: [NO_CREDENTIALS], label: 'a valid NewPet without credentials' },
  ];
  return out.concat(
    creates.map((c, i) => ({ op: 'createPet', body: c.text ? nonAscii(i) : body(i), label: c.label ?? 'a valid NewPet', forms: c.forms })),
  );
}

/**
 * Requests answered with an Error (no credentials: 401; an invalid NewPet: 400; an id no pet has: 404), with a real
 * client's Accept naming text/plain besides JSON (axios's default) and with Accept: text/plain alone (when the run may
 * write: a run of GET only has its error answers from the getPet cases the header groups ride on, withHeaders).
 */
function errorCases(writes: boolean): Draft[] {
  if (!writes) return [];
  const axios = CLIENTS.find((c) => c.name === 'axios')!;
  const plain = headerForm(['accept', 'text/plain'], 'refusable', 'RFC 9110 §12.5.1 (406, or disregard Accept)');
  const noName = withProp(baseline(operation('createPet').body!), NAME_FIELD, undefined);
  const errors: { d: Draft; accepts: ('axios' | 'plain')[] }[] = [
    { d: { op: 'getPet', petId: '9223372036854775806', label: 'an id no pet has' }, accepts: ['plain'] },
    {
      d: { op: 'listPets', query: { limit: '5' }, forms: [NO_CREDENTIALS], label: 'a page without credentials' },
      accepts: ['axios', 'plain'],
    },
    { d: { op: 'createPet', body: noName, label: 'a NewPet without name' }, accepts: ['axios', 'plain'] },
  ];
  return errors.flatMap(({ d, accepts }) =>
    accepts.map((a) => {
      const forms = a === 'axios' ? clientForms(axios, d.op === 'createPet') : [plain];
      return {
        ...d,
        forms: [...(d.forms ?? []), ...forms],
        label: `${d.label}, ${a === 'axios' ? 'as axios sends it' : 'Accept: text/plain'}`,
      };
    }),
  );
}

/** What the coverage part leaves to the generated and stateful parts: a fifth of the budget, at least 30 requests. */
export const coverageReserve = (budget: number): number => Math.max(30, Math.floor(budget * 0.2));

/** Every coverage case of the API (createPet's only when the run may write). */
export function coverageDrafts(opts: { writes: boolean; embedded: boolean; room?: Room }): Draft[] {
  const out: Draft[] = [];
  for (const op of OPERATIONS) {
    if (op.method !== 'GET' && !opts.writes) continue;
    out.push(...paramCases(op));
    if (op.body) out.push(...bodyCases(op, opts.embedded, opts.room));
  }
  return withHeaders(out.concat(surfaceCases(opts.writes, opts.room), errorCases(opts.writes)));
}

/**
 * The cases a budget of `n` affords: all of them, or `n` spread evenly over the
 * list from an offset the seed picks (so successive nightly runs cover it all).
 */
export function affordable<T>(cases: readonly T[], n: number, seed: number): T[] {
  if (n >= cases.length) return [...cases];
  if (n <= 0) return [];
  const step = cases.length / n;
  const offset = (seed >>> 0) % Math.max(1, Math.floor(step));
  return Array.from({ length: n }, (_, i) => cases[Math.min(cases.length - 1, Math.floor(i * step) + offset)]);
}
