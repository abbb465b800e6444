/**
 * The suite's validation of a value against PetStatus, NewPet, Pet, Pets or Error: each schema of /schemas compiled
 * once, ahead of time, by the project's Ajv (project-ajv.ts) into validators.generated.ts — a run loads no Ajv.
 * `npm run build:validators` rebuilds them; a test fails when they are stale.
 *
 * int64 is exact: the `x-int64` keyword judges an int64 number on its literal digits (int64.ts), kept by `parseJson`.
 */
import type { ErrorObject } from 'ajv';
import * as validators from './validators.generated.ts';
import type { SchemaName } from './schema-files.ts';

export { isExactInt64 } from './int64.ts';

export { RAW_SCHEMAS, SCHEMA_NAMES, type SchemaName } from './schema-files.ts';

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

/** A validator of Ajv's standalone code: true or false, and the errors of its last call. */
interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Each schema's validator, compiled ahead of time (schemas/build-validators.ts). */
const compiled: Readonly<Record<SchemaName, Validator>> = {
  PetStatus: validators.validatePetStatus,
  NewPet: validators.validateNewPet,
  Pet: validators.validatePet,
  Pets: validators.validatePets,
  Error: validators.validateError,
};

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
  const fn = compiled[name];
  if (fn(value)) return { valid: true, errors: [], issues: [] };
  const issues = (fn.errors ?? []).map(describe);
  return { valid: false, errors: issues.map((i) => `${i.path || '(root)'} ${i.message}`), issues };
}
