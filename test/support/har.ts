/**
 * Test support: a HAR file judged against the HAR 1.2 JSON Schema (the `har-schema` package, draft-06, compiled by
 * the project's Ajv with ajv-formats), plus what that schema states but cannot enforce — its `min` keywords are no
 * JSON Schema keyword (time ≥ 0, timings ≥ -1) — and what a reader relies on: `time` is the sum of the timings,
 * every `pageref` names a page, page ids are unique, entries are in the order they started.
 */
import { createRequire } from 'node:module';
import AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type { HarEntry, HarPage } from '../../src/results/har-lines.ts';

// CommonJS default exports seen through NodeNext typings (as src/schemas/ajv.ts reads them).
type AjvCtor = typeof import('ajv').default;
type FormatsPlugin = typeof import('ajv-formats').default;
const Ajv = ((AjvModule as unknown as { default?: AjvCtor }).default ?? AjvModule) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

/** The package's schemas, one per HAR object, each with its `$id` (har.json#, log.json#…). */
const HAR_SCHEMAS = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>;

function compile(): ValidateFunction {
  // strictTypes off: the package's postData.params puts `required` and `properties` on an array (meant for its
  // items), which strict types refuses; the suite writes no params. Every other strict check stays on.
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  ajv.addMetaSchema(draft06);
  // Keywords of the package that are no JSON Schema keywords: declared, so strict mode accepts them (checked below).
  for (const keyword of ['optional', 'min', 'unique']) ajv.addKeyword({ keyword });
  for (const s of Object.values(HAR_SCHEMAS)) ajv.addSchema(s);
  return ajv.getSchema('har.json#')!;
}

let validate: ValidateFunction | undefined;

export interface Har {
  log: { version: string; comment?: string; pages?: HarPage[]; entries: HarEntry[]; _rateLimitScenarios?: unknown[] };
}

/** 'valid', or every problem found: the schema's errors, then the rules it cannot state. */
export function harProblems(har: unknown): string[] | 'valid' {
  validate ??= compile();
  const problems: string[] = [];
  if (!validate(har)) problems.push(...(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
  else problems.push(...beyondSchema(har as Har));
  return problems.length ? problems : 'valid';
}

function beyondSchema(har: Har): string[] {
  const out: string[] = [];
  const { log } = har;
  if (log.version !== '1.2') out.push(`version ${log.version}`);
  const ids = (log.pages ?? []).map((p) => p.id);
  if (new Set(ids).size !== ids.length) out.push('page ids are not unique');
  let last = -Infinity;
  log.entries.forEach((e, i) => {
    const t = e.timings as unknown as Record<string, number>;
    const parts = Object.values(t).filter((v) => v !== -1);
    if (Object.values(t).some((v) => v < -1) || e.time < 0) out.push(`entry ${i}: a negative time`);
    if (Math.abs(parts.reduce((a, b) => a + b, 0) - e.time) > 1e-6) out.push(`entry ${i}: time ${e.time} is not the sum of its timings`);
    if (e.pageref !== undefined && !ids.includes(e.pageref)) out.push(`entry ${i}: pageref ${e.pageref} names no page`);
    const at = Date.parse(e.startedDateTime);
    if (!(at >= last)) out.push(`entry ${i}: started before the entry before it`);
    last = at;
  });
  return out;
}
