/**
 * Builds schemas/openapi.json (OpenAPI 3.1) from the same JSON Schema files the
 * suite validates with. `npm run build:openapi` rewrites the file; the test
 * test/schemas/openapi.test.ts checks that the committed file is up to date.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OPERATIONS, type OperationId, type OperationSpec } from '../src/core/operations.ts';
import { PLANS } from '../src/core/plans.ts';
import { RAW_SCHEMAS, SCHEMA_NAMES, type SchemaName } from '../src/schemas/ajv.ts';

export const OPENAPI_PATH = fileURLToPath(new URL('./openapi.json', import.meta.url));

type Json = Record<string, unknown>;

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The schema files by their file name (the target of relative $refs such as "pet-status.json"). */
const BY_FILE = new Map<string, SchemaName>(SCHEMA_NAMES.map((n) => [String(RAW_SCHEMAS[n].$id).split('/').pop()!, n]));

/** A schema file as a component: no $id / $schema, file $refs pointing at components. */
function component(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(component);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$id' || k === '$schema') continue;
    if (k === '$ref' && typeof v === 'string') {
      const target = BY_FILE.get(v.split('#')[0]);
      if (!target) throw new Error(`Unresolvable $ref ${v}`);
      out.$ref = `#/components/schemas/${target}`;
    } else out[k] = component(v);
  }
  return out;
}

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'];

const HEADERS: Record<string, Json> = {
  'X-RateLimit-Limit': {
    description: "The request limit in force (the plan's requests per minute).",
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests remaining in the current window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix timestamp, in seconds, at which the limit resets.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'How long to wait before retrying: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).',
    required: true,
    schema: { type: 'string' },
  },
  Deprecation: {
    description: 'When the operation was deprecated (RFC 9745: "@" followed by epoch seconds).',
    schema: { type: 'string', pattern: '^@-?\\d+$' },
  },
  Sunset: { description: 'When the operation is removed: Thu, 05 Dec 2030 00:00:00 GMT (RFC 8594).', schema: { type: 'string' } },
  Link: {
    description:
      'The successor (GET /pets with the status filter, rel="successor-version") and the deprecation notice (rel="deprecation").',
    schema: { type: 'string' },
  },
};

function response(description: string, schema: string | undefined, extraHeaders: string[] = []): Json {
  const headers = Object.fromEntries([...RATE_HEADERS, ...extraHeaders].map((h) => [h, ref('headers', h)]));
  return { description, headers, ...(schema ? { content: { 'application/json': { schema: ref('schemas', schema) } } } : {}) };
}

/** The responses of an operation: the documented ones plus 429, each with the rate-limit headers. */
function responses(op: OperationSpec): Json {
  const extra = op.deprecated ? DEPRECATION_HEADERS : [];
  const out: Json = {};
  for (const [status, r] of Object.entries(op.responses)) out[status] = response(r.meaning, r.schema, extra);
  out['429'] = response(
    'Rate limit exceeded. Wait for the time in Retry-After before retrying; a client that keeps sending may have its key banned temporarily. (The spec does not show the body; an Error is expected.)',
    'Error',
    ['Retry-After', ...extra],
  );
  return out;
}

/** Prose of the document, by operation (the table holds the facts). */
const DESCRIPTIONS: Partial<Record<OperationId, string>> = {
  listPets: 'A page of animals, optionally filtered by availability status. Pagination controls other than limit are not shown.',
  getPet: 'Deprecated; removal announced for 5 December 2030. Use GET /pets with the status filter instead.',
};

/** The paths of the document, one operation of the table each. */
function paths(): Json {
  const out: Record<string, Json> = {};
  for (const [id, op] of Object.entries(OPERATIONS) as [OperationId, OperationSpec][]) {
    (out[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: id,
      summary: op.summary,
      ...(DESCRIPTIONS[id] ? { description: DESCRIPTIONS[id] } : {}),
      ...(op.deprecated ? { deprecated: true } : {}),
      tags: ['pets'],
      security: SECURITY,
      ...(op.parameters.length ? { parameters: op.parameters.map((p) => ref('parameters', p)) } : {}),
      ...(op.requestBody
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', op.requestBody) } } } }
        : {}),
      responses: responses(op),
    };
  }
  return out;
}

const SECURITY = [{ bearerAuth: [] }];

function planTable(): string {
  const rows = Object.entries(PLANS).map(([plan, l]) => `| ${plan[0].toUpperCase()}${plan.slice(1)} | ${l.perMinute} | ${l.perDay} |`);
  return ['| Plan | Requests per minute | Requests per day |', '|---|---|---|', ...rows, '| Enterprise | custom | custom |'].join('\n');
}

export function buildOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store Service',
      version: '1.0.0',
      description: `The store's catalogue of animals: list, add, get (deprecated). All operations require bearer authentication.\n\nRate limits by plan:\n\n${planTable()}\n\nEvery response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; a request exceeding the limit receives 429 with Retry-After.`,
    },
    servers: [
      { url: 'https://api.animal-store.example/v1', description: 'Production (placeholder for {base_url})' },
      { url: 'https://staging.animal-store.example/v1', description: 'Staging (placeholder for {staging_base_url})' },
    ],
    security: SECURITY,
    tags: [{ name: 'pets', description: 'The animal catalogue.' }],
    paths: paths(),
    components: {
      schemas: Object.fromEntries(SCHEMA_NAMES.map((n) => [n, component(RAW_SCHEMAS[n])])),
      parameters: {
        limit: {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Maximum number of animals returned.',
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
        status: {
          name: 'status',
          in: 'query',
          required: false,
          description: 'Returns only animals with this status.',
          schema: ref('schemas', 'PetStatus'),
        },
        petId: {
          name: 'petId',
          in: 'path',
          required: true,
          description: 'The identifier of the animal to retrieve.',
          schema: { type: 'integer', format: 'int64' },
        },
      },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key, sent as the bearer token in the Authorization header.' },
      },
    },
  };
}

/** The file's exact text. */
export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  writeFileSync(OPENAPI_PATH, renderOpenApi());
  console.log(`Wrote ${OPENAPI_PATH}`);
}
