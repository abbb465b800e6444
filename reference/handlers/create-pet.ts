/**
 * POST /v1/pets (createPet): a NewPet parsed losslessly and validated with the
 * project's Ajv; the id is assigned by the server; 201 with the Pet.
 */
import { Int64, integerDigits, parseJson, rawNumber, type JsonValue } from '../../src/core/json.ts';
import { validateSchema, type SchemaIssue } from '../../src/schemas/ajv.ts';
import type { Has } from '../faults.ts';
import { jsonReply, petValue } from '../reply.ts';
import type { Handler } from './context.ts';

type Body = { [key: string]: JsonValue };

/** Schema problems a fault lets through. */
function tolerated(issue: SchemaIssue, has: Has): boolean {
  if (has('missing-field-accepted') && issue.keyword === 'required') return true;
  if (has('wrong-type-accepted') && (issue.path === '/name' || issue.path === '/categoryId')) return true;
  return has('bad-status-accepted') && issue.path === '/status';
}

/** A field as stored: numbers keep their literal (canonical integer digits when integral). */
function exact(body: Body, key: string): unknown {
  const v = body[key];
  if (typeof v !== 'number') return v;
  const raw = rawNumber(body, `/${key}`) ?? String(v);
  return new Int64(integerDigits(raw) ?? raw);
}

/** Fault client-id-honoured: an integer id sent by the client. */
function clientId(body: Body): bigint | undefined {
  const digits = typeof body.id === 'number' ? integerDigits(rawNumber(body, '/id') ?? String(body.id)) : typeof body.id === 'string' && /^-?\d+$/.test(body.id) ? body.id : undefined;
  return digits === undefined ? undefined : BigInt(digits);
}

export const createPet: Handler = (ctx) => {
  const { has } = ctx;
  if (ctx.bodyTooLarge) return ctx.error('invalid_body', 'the body is too large');
  if (ctx.body.trim() === '') return ctx.error('invalid_body', 'the body is empty');
  let value: JsonValue;
  try {
    value = parseJson(ctx.body).value;
  } catch (e) {
    return has('malformed-json-500') ? ctx.error('internal_error') : ctx.error('invalid_body', `malformed JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ctx.error('invalid_body', 'the body must be a JSON object');
  const issues = validateSchema('NewPet', value).issues.filter((i) => !tolerated(i, has));
  if (issues.length) return ctx.error('validation_failed', issues.map((i) => `${i.path || 'body'} ${i.message}`).join('; '));
  if (has('status-required') && value.status === undefined) return ctx.error('validation_failed', 'status is required');
  if (ctx.probe) return undefined;
  const status = value.status ?? (ctx.variants.defaultStatus === 'available' ? 'available' : undefined);
  const id = (has('client-id-honoured') ? clientId(value) : undefined) ?? (has('duplicate-ids') ? ctx.store.firstCreatedId : undefined);
  const pet = ctx.store.create({ name: value.name, categoryId: exact(value, 'categoryId'), ...(status !== undefined ? { status } : {}) }, id);
  const body = petValue(pet, { idAsString: has('id-as-string'), lossyIds: has('lossy-ids'), dropStatus: has('create-drops-status'), extra: ctx.variants.extraFields ? { retrievedAt: new Date().toISOString() } : undefined });
  return jsonReply(has('create-returns-200') ? 200 : 201, body, { Location: `/v1/pets/${pet.id}` });
};
