/**
 * The one Ajv (JSON Schema 2020-12) instance of the project. Each schema of
 * /schemas is compiled once, here.
 *
 * int64 is exact: ajv-formats' own `int64` converts to a JS number and rejects
 * ids above 2^53, so `format: int64` is registered as an annotation that always
 * passes, and every subschema carrying it gets the `x-int64` keyword (added to
 * an in-memory copy; the files are untouched). The keyword reads the literal
 * text of the number kept by `parseJson` (`rawNumber`) and checks its digits
 * against the int64 range without going through a JS number.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { DataValidationCxt, SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { integerDigits, isInt64Digits, isInt64Number, rawNumber } from '../core/json.ts';
import petStatusSchema from '../../schemas/pet-status.json' with { type: 'json' };
import newPetSchema from '../../schemas/new-pet.json' with { type: 'json' };
import petSchema from '../../schemas/pet.json' with { type: 'json' };
import petsSchema from '../../schemas/pets.json' with { type: 'json' };
import errorSchema from '../../schemas/error.json' with { type: 'json' };

export type SchemaName = 'PetStatus' | 'NewPet' | 'Pet' | 'Pets' | 'Error';

export const SCHEMA_NAMES: readonly SchemaName[] = ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'];

/** The schema files as they are on disk (for the OpenAPI document). */
export const RAW_SCHEMAS: Readonly<Record<SchemaName, Readonly<Record<string, unknown>>>> = {
  PetStatus: petStatusSchema,
  NewPet: newPetSchema,
  Pet: petSchema,
  Pets: petsSchema,
  Error: errorSchema,
};

export interface SchemaIssue {
  keyword: string;
  /** JSON Pointer of the offending value ("" is the root). */
  path: string;
  message: string;
}

export interface SchemaResult {
  valid: boolean;
  /** One readable line per problem, e.g. "/categoryId must be integer". */
  errors: string[];
  /** The same problems, structured. */
  issues: SchemaIssue[];
}

// CommonJS default exports seen through NodeNext typings.
type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
type FormatsPlugin = typeof import('ajv-formats').default;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/**
 * Is the number `data`, found at JSON Pointer `pointer` inside `root`, an exact
 * int64? Judged on its literal text when `root` came from parseJson.
 */
export function isExactInt64(data: number, root: unknown, pointer: string): boolean {
  const raw = rawNumber(root, pointer);
  if (raw !== undefined) {
    const digits = integerDigits(raw);
    return digits !== undefined && isInt64Digits(digits);
  }
  return isInt64Number(data);
}

const int64Keyword: SchemaValidateFunction = function (
  _schema: unknown,
  data: unknown,
  _parent: unknown,
  dataCxt?: DataValidationCxt,
): boolean {
  if (typeof data !== 'number' || !Number.isInteger(data)) return true; // `type: integer` reports these
  const pointer = dataCxt?.instancePath ?? '';
  if (isExactInt64(data, dataCxt?.rootData, pointer)) return true;
  const raw = rawNumber(dataCxt?.rootData, pointer) ?? String(data);
  int64Keyword.errors = [{ keyword: 'x-int64', message: `must be an integer within the int64 range (got ${raw})`, params: { raw } }];
  return false;
};

export const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addFormat('int64', { type: 'number', validate: () => true });
ajv.addKeyword({
  keyword: 'x-int64',
  type: 'number',
  schemaType: 'boolean',
  errors: true,
  validate: int64Keyword,
});

/** A deep copy of a schema with `x-int64: true` beside every `format: "int64"`. */
export function withInt64Keyword<T>(schema: T): T {
  if (Array.isArray(schema)) return (schema as unknown[]).map((s) => withInt64Keyword(s)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = withInt64Keyword(v);
  if (out.format === 'int64') out['x-int64'] = true;
  return out as T;
}

const compiled = new Map<SchemaName, ValidateFunction>();
for (const name of SCHEMA_NAMES) ajv.addSchema(withInt64Keyword(RAW_SCHEMAS[name]));
for (const name of SCHEMA_NAMES) {
  const fn = ajv.getSchema(String(RAW_SCHEMAS[name].$id));
  if (!fn) throw new Error(`Schema ${name} did not compile`);
  compiled.set(name, fn);
}

function describe(e: ErrorObject): SchemaIssue {
  const p = e.params as Record<string, unknown>;
  let message = e.message ?? e.keyword;
  if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) message = `${message}: ${p.allowedValues.map(String).join(', ')}`;
  return { keyword: e.keyword, path: e.instancePath, message };
}

/**
 * Validate a value against one of the five schemas. Pass the value returned by
 * `parseJson` (not a copy) so that int64 numbers are judged on their literal digits.
 */
export function validateSchema(name: SchemaName, value: unknown): SchemaResult {
  const fn = compiled.get(name)!;
  if (fn(value)) return { valid: true, errors: [], issues: [] };
  const issues = (fn.errors ?? []).map(describe);
  return { valid: false, errors: issues.map((i) => `${i.path || '(root)'} ${i.message}`), issues };
}
