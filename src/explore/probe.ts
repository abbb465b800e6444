/**
 * A probe: one generated request, as data (so it can be classified, sent, shown, saved and replayed). A draft's body
 * is a syntax tree whose name string still lacks the run's prefix; `materialize` gives it the prefix and a token
 * unique to the request (and the length a fitted name must have), renders it, applies the draft's forms (surface.ts:
 * the body's text, header fields, the credentials' spelling, the query string) and classifies it by the schema and the
 * grammar — the request as a correct server reads it.
 */
import type { ApiRequest, OperationId } from '../http/client.ts';
import { isJsonText } from '../core/json.ts';
import { classifyBody, classifyParam, wellFormed, type Classification } from './classify.ts';
import { mapStrings, render, type JNode } from './json-text.ts';
import { NAME_FIELD, operation } from './model.ts';
import type { ReplayProbe, SurfaceRecord } from '../results/types.ts';
import { classOf, labelOf, recordOf, type Form, type SurfaceClass } from './surface.ts';
import { fitted } from './strings.ts';
import { readLeniently, type Extension } from './lenient-json.ts';
import { isSafeMethod } from '../core/methods.ts';
import { placementLabel, type KeyPlacement } from '../core/credentials.ts';
import type { RefusedRequirement } from '../core/sections/create-pet/rules.ts';
import { UNKNOWN_ID } from '../harness/ops.ts';

export interface Draft {
  op: OperationId;
  /** Query parameters (undefined values are left out). */
  query?: Record<string, string | undefined>;
  petId?: string;
  body?: JNode;
  /** Changes of the request's surface, applied in order (at most one of kind body). */
  forms?: readonly Form[];
  /** What the case is, for people. */
  label: string;
  /**
   * A petId that is a near miss of an id the server holds (values.ts: nearMissOfId): which of the run's pets
   * (modulo their number), which mutation and where. Resolved when the run materializes it (Explorer.materialize).
   */
  near?: { pick: number; mutation: number; at: number };
}

/** A request ready to send, with what the schema and the grammar say of it. */
export interface Probe {
  op: OperationId;
  /** The query as a correct server reads it (judged by); the wire form is `rawQuery` when a form shapes it. */
  query?: Record<string, string>;
  rawQuery?: string;
  petId?: string;
  /** Exact body text sent. */
  body?: string;
  /** The body texts a correct server may have read, when not the one sent (a BOM ignored, each of two duplicates, an extension's reading). */
  readings?: string[];
  /** Header fields set or left out (null), and the key spelled another way (`{key}`). */
  headers?: Record<string, string | null>;
  spelled?: string;
  /** The body sent chunked: its chunks' sizes in bytes, cycled (a framing form). */
  chunks?: number[];
  /** Another method than the operation's (a method form), and the key edited or placed elsewhere (a credential form). */
  method?: string;
  credential?: KeyPlacement;
  /** The changes of its surface, and the class they give the request. */
  surface: SurfaceRecord[];
  surfaceClass: SurfaceClass;
  label: string;
  cls: Classification['cls'];
  why: string;
  /** Per part: parameters and body classified on their own (the checks judge each). */
  parts: Record<string, Classification>;
  /** The name the body carries, when it is a string (to find the pet again). */
  name?: string;
  /** A latitude body: the extensions a parser needs to read it. */
  extensions?: Extension[];
}

export interface Naming {
  prefix: string;
  /** A token unique to the request (run token and counter). */
  token(): string;
  /** Names up to this length must be accepted. */
  plainLength: number;
  /** Names may be sent whole, without the prefix (the suite's own server: nothing else to find them among). */
  wholeNames?: boolean;
}

/** Does a name node go without the prefix? */
const bareName = (named: 'prefixed' | 'bare' | 'whole', naming: Naming): boolean =>
  named === 'bare' || (named === 'whole' && !!naming.wholeNames);

const RANK: readonly Classification['cls'][] = ['invalid', 'latitude', 'silent', 'valid'];
const worst = (cs: Classification[]): Classification =>
  RANK.map((r) => cs.find((c) => c.cls === r)).find((c) => c !== undefined) ?? { cls: 'valid', why: 'no input' };

/** The wire form of a request, as a saved counterexample keeps it. */
export type Wire = Omit<ReplayProbe, 'kind' | 'limit'>;

/** The draft's body with the run's prefix and a unique token in its name (fitted to its length), rendered; and the name. */
function named(d: Draft, naming: Naming): { node?: JNode; text?: string; name?: string } {
  if (!d.body) return {};
  let name: string | undefined;
  const node = mapStrings(d.body, (s) => {
    if (!s.named) return s;
    const head = bareName(s.named, naming) ? '' : `${naming.prefix}${naming.token()}-`;
    const value = s.fit ? fitted(head, s.value, s.fit.unit, s.fit.n) : `${head}${s.value}`;
    name = value;
    return { k: 'str', value, ...(s.escaped ? { escaped: true } : {}) };
  });
  return { node, text: render(node), name };
}

/** Apply one form to the wire request (switching on its kind); whether it changed anything. */
function apply(f: Form, wire: Wire, body: { node?: JNode; text?: string; name?: string }): boolean {
  switch (f.kind) {
    case 'body': {
      if (!body.node || body.text === undefined) return false;
      const b = f.spell({ node: body.node, text: body.text, name: body.name });
      wire.body = b.text;
      if (b.readings) wire.readings = b.readings;
      return true;
    }
    case 'header':
      wire.headers = { ...wire.headers, ...f.headers };
      return true;
    case 'auth':
      wire.spelled = f.spelled;
      return true;
    case 'framing':
      if (wire.body === undefined) return false;
      wire.chunks = f.chunks;
      return true;
    case 'query': {
      const q = f.shape(wire.query ?? {});
      if (!q) return false;
      Object.assign(wire, { rawQuery: q.raw, query: q.reading });
      return true;
    }
    case 'method':
      return applyMethod(f.method, wire);
    case 'credential':
      wire.credential = f.credential;
      return true;
  }
}

/**
 * A method on the operation's path: one that could write only on an id no server issued (the path's id replaced by
 * it), never on the collection (not applied: the request goes with its own method), never with a body.
 */
function applyMethod(method: string, wire: Wire): boolean {
  if (!isSafeMethod(method) && wire.petId === undefined) return false;
  wire.method = method;
  if (!isSafeMethod(method)) wire.petId = UNKNOWN_ID;
  delete wire.body;
  return true;
}

export function materialize(d: Draft, naming: Naming): Probe {
  const body = named(d, naming);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.query ?? {})) if (v !== undefined) query[k] = v;
  const wire: Wire = {
    op: d.op,
    query,
    ...(d.petId !== undefined ? { petId: d.petId } : {}),
    ...(body.text !== undefined ? { body: body.text } : {}),
  };
  const applied = (d.forms ?? []).filter((f) => apply(f, wire, body));
  if (applied.length) wire.surface = applied.map(recordOf);
  return probeOf(wire, d.label, naming.plainLength, body.name);
}

/** The body a correct server reads of a request: the text sent when its surface makes it invalid, else its first reading. */
function bodyRead(r: Wire, cls: SurfaceClass): string | undefined {
  return cls === 'invalid' ? r.body : (r.readings?.[0] ?? r.body);
}

/** A probe of a request given as data (a saved counterexample), classified by the schema and the grammar as they are now. */
export function probeOf(r: Wire, label: string, plainLength: number, name?: string): Probe {
  const model = operation(r.op);
  // A form meant to need an extension whose text came out as JSON after all (the character it leaves raw was escaped):
  // the grammar, not the form's intent, classes it.
  const json = r.body !== undefined && isJsonText(r.body);
  const surface = (r.surface ?? []).map((f) =>
    f.kind === 'body' && f.cls === 'latitude' && json ? { ...f, cls: 'equivalent' as const } : f,
  );
  const surfaceClass = classOf(surface);
  const parts: Record<string, Classification> = {};
  for (const p of model.params) parts[p.name] = classifyParam(p.schema, p.in === 'path' ? r.petId : r.query?.[p.name]);
  let readings = r.readings;
  if (r.body !== undefined && model.body) {
    const read = bodyRead(r, surfaceClass)!;
    parts.body = classifyBody(read, model.body, plainLength);
    // A text that is no JSON, read through an extension: the reading a correct server taking it has.
    if (parts.body.reading !== undefined) readings ??= [parts.body.reading];
    const refused = surface.find((f) => f.requirement?.startsWith('CREATE-'))?.requirement as RefusedRequirement | undefined;
    if (surfaceClass === 'invalid' && refused) parts.body = { cls: 'invalid', why: labelOf(surface), requirement: refused };
    if (name === undefined) name = nameIn(readings?.[0] ?? read);
  }
  const overall = worst(Object.values(parts));
  const query = r.query && Object.keys(r.query).length ? r.query : undefined;
  // The extensions the text sent needs (whatever reading a form gave it): what a warning names.
  const latitude = overall.cls === 'latitude' || surfaceClass === 'latitude';
  const extensions = latitude && r.body !== undefined ? readLeniently(r.body)?.extensions : undefined;
  return {
    op: r.op,
    ...(query ? { query } : {}),
    ...(r.rawQuery !== undefined ? { rawQuery: r.rawQuery } : {}),
    ...(r.petId !== undefined ? { petId: r.petId } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
    ...(readings ? { readings } : {}),
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.spelled ? { spelled: r.spelled } : {}),
    ...(r.chunks?.length ? { chunks: r.chunks } : {}),
    ...(r.method ? { method: r.method } : {}),
    ...(r.credential ? { credential: r.credential } : {}),
    surface,
    surfaceClass,
    label: surface.length ? `${label}, ${labelOf(surface)}` : label,
    cls: overall.cls,
    why: overall.why,
    parts,
    ...(name !== undefined ? { name } : {}),
    ...(extensions?.length ? { extensions } : {}),
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
    ...(p.surfaceClass !== 'equivalent' || p.cls === 'latitude' ? SURFACE_REFUSALS : []),
    // RFC 9110 §15.5.12: a server may refuse a body without a Content-Length (411 Length Required).
    ...(p.chunks ? [411] : []),
  ];
  const path = p.petId !== undefined ? model.path.replace(/\{[^}]+\}/, encodeURIComponent(wellFormed(p.petId))) : model.path;
  return {
    operation: p.op,
    method: p.method ?? model.method,
    path,
    ...(p.query ? { query: p.query } : {}),
    ...(p.rawQuery !== undefined ? { rawQuery: p.rawQuery } : {}),
    ...(p.body !== undefined ? { rawBody: p.body } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
    ...authOf(p),
    ...(p.chunks ? { chunks: p.chunks } : {}),
    ...(refusals.length ? { alsoAcceptable: [...new Set(refusals)] } : {}),
    ...offSpecOf(p),
  };
}

/** The credential of a probe: none, the key edited or placed elsewhere, the key spelled another way, or the key. */
function authOf(p: Probe): Pick<ApiRequest, 'auth'> {
  if (p.credential) return { auth: { placed: p.credential } };
  if (p.headers?.authorization === null) return { auth: 'none' };
  return p.spelled ? { auth: { spelled: p.spelled } } : {};
}

/** Does a probe go without the valid key (none, or the key edited or placed elsewhere)? */
export const withoutKey = (p: Pick<Probe, 'credential' | 'headers'>): boolean => !!p.credential || p.headers?.authorization === null;

/**
 * A method the operation does not have is a request the spec does not describe (its checks judge it, not the response
 * registry's); one that could write goes only without a valid key, or to an id no server issued with writes on.
 */
function offSpecOf(p: Probe): Pick<ApiRequest, 'offSpec' | 'harmless'> {
  if (!p.method) return {};
  if (isSafeMethod(p.method)) return { offSpec: true };
  return withoutKey(p) ? { offSpec: true, harmless: 'no valid credential: a server that serves it fails the run' } : { offSpec: true };
}

/** One line saying what was sent: `POST /pets {"name":…}` (long bodies cut), and the header it varies. */
export function describeProbe(p: Probe): string {
  const req = requestOf(p);
  const qs = p.rawQuery !== undefined ? `?${p.rawQuery}` : p.query ? `?${new URLSearchParams(p.query).toString()}` : '';
  const body = p.body === undefined ? '' : ` ${p.body.length > 160 ? `${p.body.slice(0, 157)}…` : p.body}`;
  const headers = Object.entries(p.headers ?? {}).map(([k, v]) => (v === null ? ` (no ${k})` : ` (${k}: ${v})`));
  const auth = p.spelled ? ` (Authorization: ${p.spelled.replace('{key}', '<key>')})` : '';
  const framing = p.chunks ? ` (Transfer-Encoding: chunked, chunks of ${p.chunks.join(', ')} bytes)` : '';
  const credential = p.credential ? ` (${placementLabel(p.credential)})` : '';
  return `${req.method} ${req.path}${qs}${headers.join('')}${auth}${credential}${framing}${body}`;
}
