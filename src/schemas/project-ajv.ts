/**
 * The one Ajv (JSON Schema 2020-12) instance of the project, with every schema of /schemas added: what
 * schemas/build-validators.ts compiles ahead of time into validators.generated.ts (a run loads no Ajv), and what the
 * suite's own tests compile their other schemas with (certification.schema.json…).
 *
 * `format: int64` is an annotation (FORMATS of int64.ts); every subschema carrying it gets the `x-int64` keyword
 * (added to an in-memory copy; the files are untouched), generated as a call of `int64Violation` on the number, the
 * root the validator was given and the number's JSON Pointer — the run-time module, which standalone code reaches as
 * `runtime` (RUNTIME_NAME).
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import { _, Name, str, type KeywordCxt } from 'ajv';
import { strConcat } from 'ajv/dist/compile/codegen/index.js';
import namesModule from 'ajv/dist/compile/names.js';
import addFormatsModule from 'ajv-formats';
import { FORMATS, int64Violation } from './int64.ts';
import { RAW_SCHEMAS, SCHEMA_NAMES, type SchemaName } from './schema-files.ts';

// CommonJS default exports seen through NodeNext typings.
type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
type FormatsPlugin = typeof import('ajv-formats').default;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/** How the generated validators name the run-time module (`import * as runtime from './int64.ts'`). */
export const RUNTIME_NAME = 'runtime';
const runtime = new Name(RUNTIME_NAME);
/** The names of Ajv's generated functions (the root value, the instance path of the value being validated). */
type Names = typeof import('ajv/dist/compile/names.js').default;
const N = ((namesModule as unknown as { default?: Names }).default ?? namesModule) as Names;

/** `x-int64`: the number's literal text must be an int64 (int64Violation returns that text when it is not). */
function int64Code(cxt: KeywordCxt): void {
  const { gen, data, it } = cxt;
  const check = gen.scopeValue('func', { ref: int64Violation, code: _`${runtime}.int64Violation` });
  const raw = gen.const('raw', _`${check}(${data}, ${N.rootData}, ${strConcat(N.instancePath, it.errorPath)})`);
  cxt.setParams({ raw });
  cxt.fail(_`${raw} !== undefined`);
}

/** A fresh instance (its generated names do not depend on what another compiled before). */
export function makeAjv(): InstanceType<AjvCtor> {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    code: { source: true, esm: true, lines: true, formats: _`${runtime}.FORMATS` },
  });
  addFormats(ajv);
  ajv.addFormat('int64', FORMATS.int64);
  ajv.addKeyword({
    keyword: 'x-int64',
    type: 'number',
    schemaType: 'boolean',
    code: int64Code,
    error: {
      message: ({ params }) => str`must be an integer within the int64 range (got ${params.raw})`,
      params: ({ params }) => _`{raw: ${params.raw}}`,
    },
  });
  for (const name of SCHEMA_NAMES) ajv.addSchema(withInt64Keyword(RAW_SCHEMAS[name]));
  return ajv;
}

/** The name of a schema's validator in the generated module (never a global's, such as Error). */
export function validatorName(name: SchemaName): string {
  return `validate${name}`;
}

/** A deep copy of a schema with `x-int64: true` beside every `format: "int64"`. */
export function withInt64Keyword<T>(schema: T): T {
  if (Array.isArray(schema)) return (schema as unknown[]).map((s) => withInt64Keyword(s)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = withInt64Keyword(v);
  if (out.format === 'int64') out['x-int64'] = true;
  return out as T;
}

export const ajv = makeAjv();
