/**
 * What the exploration phase knows of the API, read from the OpenAPI document
 * (schemas/openapi.json, built from the same JSON Schema files the suite
 * validates with): each operation's method, path, parameters with their
 * schemas, request body schema and documented statuses. Nothing here is a
 * second description of the API: a change to a schema file (and
 * `npm run build:openapi`) changes what is explored.
 */
import openapi from '../../schemas/openapi.json' with { type: 'json' };
import type { OperationId } from '../http/client.ts';

/** The subset of JSON Schema the generators understand (everything the project's schemas use). */
export interface Schema {
  type?: string;
  format?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  properties?: Readonly<Record<string, Schema>>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  title?: string;
}

export interface ParamModel {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: Schema;
}

export interface OperationModel {
  id: OperationId;
  method: 'GET' | 'POST';
  /** The path template, e.g. `/pets/{petId}`. */
  path: string;
  params: readonly ParamModel[];
  /** The request body's schema (application/json), when the operation takes one. */
  body?: Schema;
  /** Documented statuses (429 included, as the document lists it). */
  statuses: readonly number[];
  deprecated: boolean;
}

type Doc = Record<string, unknown>;
const DOC = openapi as unknown as Doc;

/** Follow `#/components/...` references (the document has no cycles) into plain schemas. */
export function resolveRefs<T>(value: T, doc: Doc = DOC): T {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => resolveRefs(v, doc)) as T;
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const target = obj.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
    if (target === undefined) throw new Error(`unresolvable $ref ${obj.$ref}`);
    return resolveRefs(target as T, doc);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = resolveRefs(v, doc);
  return out as T;
}

interface RawOperation {
  operationId: OperationId;
  deprecated?: boolean;
  parameters?: ParamModel[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, unknown>;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: Doc = DOC): OperationModel[] {
  const out: OperationModel[] = [];
  const paths = doc.paths as Record<string, Record<string, RawOperation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = resolveRefs(raw, doc);
      out.push({
        id: op.operationId,
        method: method.toUpperCase() as OperationModel['method'],
        path,
        params: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema })),
        ...(op.requestBody?.content?.['application/json']?.schema ? { body: op.requestBody.content['application/json'].schema } : {}),
        statuses: Object.keys(op.responses).map(Number),
        deprecated: !!op.deprecated,
      });
    }
  }
  return out;
}

export const OPERATIONS: readonly OperationModel[] = operationsOf();

export function operation(id: OperationId): OperationModel {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id} in the OpenAPI document`);
  return op;
}

/** The body field every created pet's name prefix goes into (the suite's pets can be found and removed by it). */
export const NAME_FIELD = 'name';
