/**
 * A probe: one generated request, as data (so it can be classified, sent, shown, saved and replayed). A draft's body
 * is a syntax tree whose name string still lacks the run's prefix; `materialize` gives it the prefix and a token
 * unique to the request, renders it, applies the draft's surface variant (surface.ts: a header, the body's bytes, the
 * query string's shape), and classifies it by the schema — the request as a correct server reads it.
 */
import type { ApiRequest, OperationId } from '../http/client.ts';
import { classifyBody, classifyParam, wellFormed, type Classification } from './classify.ts';
import { mapStrings, render, type JNode } from './json-text.ts';
import { NAME_FIELD, operation } from './model.ts';
import type { ReplayProbe } from '../results/types.ts';
import { variantById, type BodyVariant, type HeaderVariant, type QueryVariant, type Variant } from './surface.ts';

export type { Variant, VariantClass } from './surface.ts';

/** One variant of the HTTP surface applied to a draft: of its body, its query string or its headers. */
export type Surface = { body: BodyVariant } | { query: QueryVariant } | { header: HeaderVariant };

export interface Draft {
  op: OperationId;
  /** Query parameters (undefined values are left out). */
  query?: Record<string, string | undefined>;
  petId?: string;
  body?: JNode;
  surface?: Surface;
  /** What the case is, for people. */
  label: string;
}

/** A request ready to send, with what the schema says of it. */
export interface Probe {
  op: OperationId;
  /** The query as a correct server reads it (judged by); the wire form is `rawQuery` when the surface varies it. */
  query?: Record<string, string>;
  rawQuery?: string;
  petId?: string;
  /** Exact body text sent. */
  body?: string;
  /** The body texts a correct server may have read, when not the one sent (a BOM ignored, each of two duplicates). */
  readings?: string[];
  /** Header fields set or left out (null), and the key spelled another way (`{key}`). */
  headers?: Record<string, string | null>;
  spelled?: string;
  variant?: Variant;
  label: string;
  cls: Classification['cls'];
  why: string;
  /** Per part: parameters and body classified on their own (the oracle judges each). */
  parts: Record<string, Classification>;
  /** The name the body carries, when it is a string (to find the pet again). */
  name?: string;
}

export interface Naming {
  prefix: string;
  /** A token unique to the request (run token and counter). */
  token(): string;
  /** Names up to this length must be accepted. */
  plainLength: number;
}

const worst = (cs: Classification[]): Classification =>
  cs.find((c) => c.cls === 'invalid') ?? cs.find((c) => c.cls === 'silent') ?? cs[0] ?? { cls: 'valid', why: 'no input' };

/** The wire form of a request, as a saved counterexample keeps it. */
type Wire = Omit<ReplayProbe, 'kind' | 'limit'>;

/** The draft's body with the run's prefix and a unique token in its name, rendered; and the name. */
function named(d: Draft, naming: Naming): { node?: JNode; text?: string; name?: string } {
  if (!d.body) return {};
  let name: string | undefined;
  const node = mapStrings(d.body, (s) => {
    if (!s.named) return s;
    const value = s.named === 'bare' ? s.value : `${naming.prefix}${naming.token()}-${s.value}`;
    name = value;
    return { k: 'str', value, ...(s.escaped ? { escaped: true } : {}) };
  });
  return { node, text: render(node), name };
}

export function materialize(d: Draft, naming: Naming): Probe {
  const { node, text, name } = named(d, naming);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.query ?? {})) if (v !== undefined) query[k] = v;
  const wire: Wire = {
    op: d.op,
    query,
    ...(d.petId !== undefined ? { petId: d.petId } : {}),
    ...(text !== undefined ? { body: text } : {}),
  };
  const s = d.surface;
  if (s && 'body' in s && node && text !== undefined) {
    const b = s.body.body({ node, text, name });
    wire.body = b.text;
    if (b.readings) wire.readings = b.readings;
  } else if (s && 'query' in s) {
    const q = s.query.query(query);
    if (q) Object.assign(wire, { rawQuery: q.raw, query: q.reading });
  } else if (s && 'header' in s) {
    if (s.header.headers) wire.headers = s.header.headers;
    if (s.header.spelled) wire.spelled = s.header.spelled;
  }
  const applied = s && (('body' in s && node) || ('query' in s && wire.rawQuery !== undefined) || 'header' in s);
  if (applied) wire.variant = 'body' in s ? s.body.id : 'query' in s ? s.query.id : s.header.id;
  return probeOf(wire, d.label, naming.plainLength, name);
}

/** A probe of a request given as data (a saved counterexample), classified by the schema as it is now. */
export function probeOf(r: Wire, label: string, plainLength: number, name?: string): Probe {
  const model = operation(r.op);
  const variant = r.variant !== undefined ? variantById(r.variant) : undefined;
  const parts: Record<string, Classification> = {};
  for (const p of model.params) parts[p.name] = classifyParam(p.schema, p.in === 'path' ? r.petId : r.query?.[p.name]);
  if (r.body !== undefined && model.body) {
    // What a correct server reads: the wire text for an invalid variant, else its first reading.
    const read = variant?.cls === 'invalid' ? r.body : (r.readings?.[0] ?? r.body);
    parts.body = classifyBody(read, model.body, plainLength);
    if (name === undefined) name = nameIn(read);
  }
  const overall = worst(Object.values(parts));
  const query = r.query && Object.keys(r.query).length ? r.query : undefined;
  return {
    op: r.op,
    ...(query ? { query } : {}),
    ...(r.rawQuery !== undefined ? { rawQuery: r.rawQuery } : {}),
    ...(r.petId !== undefined ? { petId: r.petId } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
    ...(r.readings ? { readings: r.readings } : {}),
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.spelled ? { spelled: r.spelled } : {}),
    ...(variant ? { variant } : {}),
    label: variant ? `${label}, ${variant.label}` : label,
    cls: overall.cls,
    why: overall.why,
    parts,
    ...(name !== undefined ? { name } : {}),
  };
}

/** The name field of a body's text, when it is a string. */
function nameIn(body: string): string | undefined {
  try {
    const v = JSON.parse(body) as Record<string, unknown>;
    return v && typeof v[NAME_FIELD] === 'string' ? v[NAME_FIELD] : undefined;
  } catch {
    return undefined;
  }
}

/** Statuses a clean refusal may use where the spec is silent about a value (createPet documents its 400). */
const SILENT_REFUSALS: Readonly<Record<string, number[]>> = { createPet: [413, 422], listPets: [400, 422], getPet: [400, 422] };
/** … and where an RFC leaves the request's surface open (406 Not Acceptable, 413, 415 Unsupported Media Type). */
const SURFACE_REFUSALS = [400, 406, 413, 415, 422];

/** The ApiRequest of a probe; statuses a clean refusal may use where the spec is silent are accepted. */
export function requestOf(p: Probe): ApiRequest {
  const model = operation(p.op);
  const refusals = [
    ...(p.cls !== 'valid' ? SILENT_REFUSALS[p.op] : []),
    ...(p.variant && p.variant.cls !== 'served' ? SURFACE_REFUSALS : []),
  ];
  const path = p.petId !== undefined ? model.path.replace(/\{[^}]+\}/, encodeURIComponent(wellFormed(p.petId))) : model.path;
  return {
    operation: p.op,
    method: model.method,
    path,
    ...(p.query ? { query: p.query } : {}),
    ...(p.rawQuery !== undefined ? { rawQuery: p.rawQuery } : {}),
    ...(p.body !== undefined ? { rawBody: p.body } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
    ...(p.spelled ? { auth: { spelled: p.spelled } } : {}),
    ...(refusals.length ? { alsoAcceptable: [...new Set(refusals)] } : {}),
  };
}

/** One line saying what was sent: `POST /pets {"name":…}` (long bodies cut), and the header it varies. */
export function describeProbe(p: Probe): string {
  const model = operation(p.op);
  const req = requestOf(p);
  const qs = p.rawQuery !== undefined ? `?${p.rawQuery}` : p.query ? `?${new URLSearchParams(p.query).toString()}` : '';
  const body = p.body === undefined ? '' : ` ${p.body.length > 160 ? `${p.body.slice(0, 157)}…` : p.body}`;
  const headers = Object.entries(p.headers ?? {}).map(([k, v]) => (v === null ? ` (no ${k})` : ` (${k}: ${v})`));
  const auth = p.spelled ? ` (Authorization: ${p.spelled.replace('{key}', '<key>')})` : '';
  return `${model.method} ${req.path}${qs}${headers.join('')}${auth}${body}`;
}
