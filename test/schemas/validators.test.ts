/**
 * The validators compiled ahead of time (src/schemas/validators.generated.ts): the committed file is what
 * schemas/build-validators.ts builds from the schemas now, and it judges every value exactly as Ajv compiling the
 * schemas at run time did before (the `x-int64` keyword as a `validate` function, kept here as the oracle): the same
 * errors, in the same order, for generated values and JSON texts (int64 numbers at and beyond the range, spelled
 * every way).
 */
import { readFileSync } from 'node:fs';
import { fc, test as prop } from '@fast-check/vitest';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { DataValidationCxt, SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { renderValidators, VALIDATORS_PATH } from '../../schemas/build-validators.ts';
import { parseJson, rawNumber } from '../../src/core/json.ts';
import { isExactInt64, RAW_SCHEMAS, SCHEMA_NAMES, validateSchema, type SchemaName } from '../../src/schemas/ajv.ts';
import { withInt64Keyword } from '../../src/schemas/project-ajv.ts';

type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
type FormatsPlugin = typeof import('ajv-formats').default;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/** The keyword as src/schemas/ajv.ts defined it before the validators were compiled ahead of time. */
const int64Keyword: SchemaValidateFunction = function (_s: unknown, data: unknown, _p: unknown, cxt?: DataValidationCxt): boolean {
  if (typeof data !== 'number' || !Number.isInteger(data)) return true;
  const pointer = cxt?.instancePath ?? '';
  if (isExactInt64(data, cxt?.rootData, pointer)) return true;
  const raw = rawNumber(cxt?.rootData, pointer) ?? String(data);
  int64Keyword.errors = [{ keyword: 'x-int64', message: `must be an integer within the int64 range (got ${raw})`, params: { raw } }];
  return false;
};

function runtimeValidators(): Record<SchemaName, ValidateFunction> {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: () => true });
  ajv.addKeyword({ keyword: 'x-int64', type: 'number', schemaType: 'boolean', errors: true, validate: int64Keyword });
  for (const name of SCHEMA_NAMES) ajv.addSchema(withInt64Keyword(RAW_SCHEMAS[name]));
  return Object.fromEntries(SCHEMA_NAMES.map((n) => [n, ajv.getSchema(String(RAW_SCHEMAS[n].$id))!])) as Record<
    SchemaName,
    ValidateFunction
  >;
}

const oracle = runtimeValidators();

/** What the runtime-compiled validator says of a value, as validateSchema reports it. */
function oracleResult(name: SchemaName, value: unknown) {
  const fn = oracle[name];
  if (fn(value)) return { valid: true, errors: [], issues: [] };
  const issues = (fn.errors ?? []).map((e: ErrorObject) => {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
    const message = e.message ?? e.keyword;
    return {
      keyword: e.keyword,
      path: e.instancePath,
      message: e.keyword === 'enum' && allowed ? `${message}: ${allowed.map(String).join(', ')}` : message,
    };
  });
  return { valid: false, errors: issues.map((i) => `${i.path || '(root)'} ${i.message}`), issues };
}

/** Numbers as JSON spells them: within, at and beyond int64, with fractions and exponents. */
const numberText = fc.oneof(
  fc.constantFrom('0', '-0', '1', '1.0', '1e3', '1E+2', '2.5', '-1', '9007199254740993', '9223372036854775807', '9223372036854775808'),
  fc.constantFrom('-9223372036854775808', '-9223372036854775809', '18446744073709551616', '1.0000000000000001', '1e19', '1e400'),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const memberText = fc.oneof(
  numberText,
  fc.constantFrom('"available"', '"pending"', '"sold"', '"lost"', '"x"', 'null', 'true', '[]', '{}', '"1"'),
  fc.string().map((s) => JSON.stringify(s)),
);
const KEYS = ['id', 'name', 'categoryId', 'status', 'code', 'message', 'extra'];
const objectText = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), memberText), { selector: ([k]) => k, maxLength: KEYS.length })
  .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
const bodyText = fc.oneof(
  objectText,
  fc.array(objectText, { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
  memberText,
);

describe('The validators compiled ahead of time', () => {
  test('src/schemas/validators.generated.ts is what schemas/build-validators.ts builds from the schemas now (npm run build:validators).', () => {
    expect(readFileSync(VALIDATORS_PATH, 'utf8')).toBe(renderValidators());
  });

  test('The generated module loads no Ajv: it imports only the int64 check of the suite.', () => {
    const imports = [...readFileSync(VALIDATORS_PATH, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports).toEqual(['./int64.ts']);
  });

  prop.prop([fc.constantFrom(...SCHEMA_NAMES), bodyText], { numRuns: 600 })(
    'A parsed JSON body gets the same verdict and errors, in order, as from Ajv compiling the schema at run time.',
    (name, text) => {
      const value = parseJson(text).value;
      expect(validateSchema(name, value)).toEqual(oracleResult(name, value));
    },
  );

  prop.prop([fc.constantFrom(...SCHEMA_NAMES), fc.jsonValue()], { numRuns: 300 })(
    'Any value (not from parseJson: numbers judged as JS numbers) gets the same verdict and errors as from Ajv at run time.',
    (name, value) => {
      expect(validateSchema(name, value)).toEqual(oracleResult(name, value));
    },
  );
});
