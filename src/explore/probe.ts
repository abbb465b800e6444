/**
 * A probe: one generated request, as data (so it can be classified, sent,
 * shown, saved and replayed). A draft's body is a syntax tree whose name
 * string still lacks the run's prefix; `materialize` gives it the prefix and a
 * token unique to the request, renders it, and classifies it by the schema.
 */
import type { ApiRequest, OperationId } from '../http/client.ts';
import { classifyBody, classifyParam, wellFormed, type Classification } from './classify.ts';
import { mapStrings, render, type JNode } from './jtext.ts';
import { NAME_FIELD, operation } from './model.ts';
import type { ReplayProbe } from '../results/types.ts';

export interface Draft {
  op: OperationId;
  /** Query parameters (undefined values are left out). */
  query?: Record<string, string | undefined>;
  petId?: string;
  body?: JNode;
  /** What the case is, for people. */
  label: string;
}

/** A request ready to send, with what the schema says of it. */
export interface Probe {
  op: OperationId;
  query?: Record<string, string>;
  petId?: string;
  /** Exact body text. */
  body?: string;
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

export function materialize(d: Draft, naming: Naming): Probe {
  let body: string | undefined;
  let name: string | undefined;
  if (d.body) {
    const named = mapStrings(d.body, (s) => {
      if (!s.named) return s;
      const value = s.named === 'bare' ? s.value : `${naming.prefix}${naming.token()}-${s.value}`;
      name = value;
      return { k: 'str', value, ...(s.escaped ? { escaped: true } : {}) };
    });
    body = render(named);
  }
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.query ?? {})) if (v !== undefined) query[k] = v;
  return probeOf({ op: d.op, query, petId: d.petId, body }, d.label, naming.plainLength, name);
}

/** A probe of a request given as data (a saved counterexample), classified by the schema as it is now. */
export function probeOf(r: Omit<ReplayProbe, 'kind' | 'limit'>, label: string, plainLength: number, name?: string): Probe {
  const model = operation(r.op);
  const parts: Record<string, Classification> = {};
  for (const p of model.params) parts[p.name] = classifyParam(p.schema, p.in === 'path' ? r.petId : r.query?.[p.name]);
  if (r.body !== undefined && model.body) {
    parts.body = classifyBody(r.body, model.body, plainLength);
    if (name === undefined) name = nameIn(r.body);
  }
  const overall = worst(Object.values(parts));
  const query = r.query && Object.keys(r.query).length ? r.query : undefined;
  return {
    op: r.op,
    ...(query ? { query } : {}),
    ...(r.petId !== undefined ? { petId: r.petId } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
    label,
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
    return v && typeof v[NAME_FIELD] === 'string' ? (v[NAME_FIELD] as string) : undefined;
  } catch {
    return undefined;
  }
}

/** The ApiRequest of a probe; statuses a clean refusal may use where the spec is silent are accepted. */
export function requestOf(p: Probe): ApiRequest {
  const model = operation(p.op);
  const refusals = p.cls === 'valid' ? [] : p.op === 'createPet' ? [413, 422] : [400, 422];
  const path = p.petId !== undefined ? model.path.replace(/\{[^}]+\}/, encodeURIComponent(wellFormed(p.petId))) : model.path;
  return {
    operation: p.op,
    method: model.method,
    path,
    ...(p.query ? { query: p.query } : {}),
    ...(p.body !== undefined ? { rawBody: p.body } : {}),
    ...(refusals.length ? { alsoAcceptable: refusals } : {}),
  };
}

/** One line saying what was sent: `POST /pets {"name":…}` (long bodies cut). */
export function describeProbe(p: Probe): string {
  const model = operation(p.op);
  const req = requestOf(p);
  const qs = p.query ? `?${new URLSearchParams(p.query).toString()}` : '';
  const body = p.body === undefined ? '' : ` ${p.body.length > 160 ? `${p.body.slice(0, 157)}…` : p.body}`;
  return `${model.method} ${req.path}${qs}${body}`;
}
