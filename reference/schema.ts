/**
 * The reference server's own check of a createPet body against the spec's
 * NewPet schema (the JSON files in schemas/ are the spec's data; the suite's
 * Ajv setup in src/schemas is not used, so that a bug there is not shared).
 * `format: int64` is judged here on the literal text of the number (BigInt),
 * after the schema's other keywords.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import newPetSchema from '../schemas/new-pet.json' with { type: 'json' };
import petStatusSchema from '../schemas/pet-status.json' with { type: 'json' };
import { integerOf, isInt64, numberText } from './lossless-json.ts';

export interface BodyIssue {
  keyword: string;
  /** JSON Pointer of the offending value ("" is the body). */
  path: string;
  message: string;
}

type AjvClass = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ?? Ajv2020Module) as AjvClass;

// validateSchema off: checking the two schema files against JSON Schema 2020-12's meta-schema compiled that meta-schema
// in every process that starts the server (about 0.08 CPU-s); test/schemas/openapi.test.ts proves them valid instead.
const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
// An annotation for Ajv; the range is checked below, on the number's digits.
ajv.addFormat('int64', { type: 'number', validate: () => true });
ajv.addSchema(petStatusSchema);
const validateNewPet = ajv.compile(newPetSchema);

/** The properties of NewPet that are int64 numbers. */
const INT64_PROPERTIES = Object.entries(newPetSchema.properties)
  .filter(([, s]) => 'format' in s && s.format === 'int64')
  .map(([name]) => name);

function issueOf(e: ErrorObject): BodyIssue {
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  const message = e.message ?? e.keyword;
  return {
    keyword: e.keyword,
    path: e.instancePath,
    message: e.keyword === 'enum' && Array.isArray(allowed) ? `${message}: ${allowed.map(String).join(', ')}` : message,
  };
}

/** An int64 property written as an integer outside the int64 range. */
function int64Issues(body: Record<string, unknown>): BodyIssue[] {
  return INT64_PROPERTIES.flatMap((name) => {
    const v = body[name];
    if (typeof v !== 'number' || !Number.isInteger(v)) return [];
    const text = numberText(body, `/${name}`) ?? String(v);
    const digits = integerOf(text);
    if (digits !== undefined && isInt64(digits)) return [];
    return [{ keyword: 'x-int64', path: `/${name}`, message: `must be an integer within the int64 range (got ${text})` }];
  });
}

/** What is wrong with a createPet body (a JSON object read by readJson), by NewPet. */
export function newPetIssues(body: Record<string, unknown>): BodyIssue[] {
  const issues = validateNewPet(body) ? [] : (validateNewPet.errors ?? []).map(issueOf);
  return [...issues, ...int64Issues(body)];
}
