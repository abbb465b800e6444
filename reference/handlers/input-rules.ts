/**
 * What the reference server does with inputs the spec is silent about, and the
 * fault modes that only generated inputs reach (the table-driven specs never
 * send them): names outside printable ASCII, long or with control characters,
 * unknown body properties, non-canonical integers, identifiers below 1, ids
 * between 2^31 and 2^53, a limit with a sign or leading zeros. The valid
 * variants refuse such inputs with a clean 400 Error; the faults mangle them
 * or answer with a 5xx or an undocumented status.
 */
import { Int64, numberText, type Json } from '../lossless-json.ts';
import { jsonReply, type Reply } from '../reply.ts';
import type { Ctx } from './handler-context.ts';
import { int32Overflow } from '../held-out-faults.ts';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f]/g;
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const NON_LATIN1 = /[^\u0000-\u00ff]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const CANONICAL = /^-?(0|[1-9]\d*)$/;

/** createPet: a name the variants refuse, or a fault's answer to it. */
export function nameRefusal(name: unknown, ctx: Ctx): Reply | undefined {
  if (typeof name !== 'string') return undefined;
  const { has, variants: v } = ctx;
  if (has('name-astral-500') && ASTRAL.test(name)) return ctx.error('internal_error', 'incorrect string value');
  if (has('name-non-latin1-415') && NON_LATIN1.test(name))
    return jsonReply(415, { code: 'unsupported_media_type', message: 'The body is not ISO-8859-1 text.', status: 415 });
  if (has('name-newline-500') && name.includes('\n')) return ctx.error('internal_error', 'unterminated string literal');
  if (has('name-apostrophe-400') && /['"]/.test(name)) return ctx.error('validation_failed', 'the name contains forbidden characters');
  if (v.nameCharacters === 'printable-ascii' && !PRINTABLE_ASCII.test(name))
    return ctx.error('validation_failed', 'name must be printable ASCII');
  if (v.nameCharacters === 'no-controls' && CONTROL.test(name))
    return ctx.error('validation_failed', 'name must not contain control characters');
  if (v.nameMaxLength > 0 && [...name].length > v.nameMaxLength)
    return ctx.error('validation_failed', `name longer than ${v.nameMaxLength} characters`);
  return undefined;
}

/** createPet: the body's other silent cases (unknown properties, non-canonical or non-positive categoryId). */
export function bodyRefusal(body: Record<string, Json>, ctx: Ctx): Reply | undefined {
  const { has, variants: v } = ctx;
  const unknown = Object.keys(body).filter((k) => !['name', 'categoryId', 'status', 'id'].includes(k));
  if (unknown.length && has('extra-property-500')) return ctx.error('internal_error', `column ${unknown[0]} does not exist`);
  if (unknown.length && v.unknownProperties === 'reject') return ctx.error('validation_failed', `unknown property ${unknown[0]}`);
  // Any JSON value as text, as a lenient server compares it (a fault lets a non-integer through to here).
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an array reads as its items, an object as [object Object]
  const raw = numberText(body, '/categoryId') ?? String(body.categoryId);
  if (v.strictIntegers && !CANONICAL.test(raw))
    return ctx.error('validation_failed', `categoryId must be written as a plain integer, got ${raw}`);
  if (v.positiveIds && /^-|^0$/.test(raw.replace(/^-0$/, '0'))) return ctx.error('validation_failed', 'categoryId must be positive');
  return undefined;
}

/** createPet: the name as stored (a variant trims it; a fault normalises it). */
export function storedName(name: unknown, ctx: Ctx): unknown {
  if (typeof name !== 'string') return name;
  if (ctx.has('name-normalized')) return name.normalize('NFC');
  return ctx.variants.trimNames ? name.trim() : name;
}

/** createPet, fault category-id-unsigned: a negative categoryId stored as its unsigned 64-bit value. */
export function storedCategory(categoryId: unknown, ctx: Ctx): unknown {
  if (!ctx.has('category-id-unsigned') || !(categoryId instanceof Int64) || !categoryId.digits.startsWith('-')) return categoryId;
  return new Int64((2n ** 64n + BigInt(categoryId.digits)).toString());
}

/** listPets, fault list-strips-controls: the page shows names without their control characters. */
export function listedName(name: unknown, ctx: Ctx): unknown {
  if (typeof name !== 'string') return name;
  let shown = ctx.has('list-strips-controls') ? name.replace(CONTROL_ALL, '') : name;
  // Faults list-nbsp-as-space and list-cuts-names-200: the page shows the name otherwise than it is stored.
  if (ctx.has('list-nbsp-as-space')) shown = shown.replace(/\u00A0/g, ' ');
  if (ctx.has('list-cuts-names-200')) shown = shown.slice(0, 200);
  return shown;
}

/** listPets: a limit the variants refuse, or a fault's answer to it. */
export function limitRefusal(raw: string, ctx: Ctx): Reply | undefined {
  if (int32Overflow(raw, ctx.has)) return ctx.error('internal_error', `NumberFormatException: For input string: "${raw}"`);
  const noncanonical = /^[+-]?\d+$/.test(raw) && !CANONICAL.test(raw);
  if (noncanonical && ctx.has('limit-sign-500')) return ctx.error('internal_error', 'invalid literal for int()');
  if (noncanonical && ctx.variants.strictIntegers)
    return ctx.error('invalid_parameter', `limit must be written as a plain integer, got ${JSON.stringify(raw)}`);
  return undefined;
}

/** getPet: a petId the variants refuse, or a fault's answer to it. */
export function petIdRefusal(raw: string, ctx: Ctx): Reply | undefined {
  const { has, variants: v } = ctx;
  if (has('petid-sign-500') && /^\+|^-?0\d/.test(raw)) return ctx.error('internal_error', 'NumberFormatException');
  if (has('get-unicode-digits-500') && /^\p{Nd}+$/u.test(raw) && !/^\d+$/.test(raw)) return ctx.error('internal_error');
  if (!/^-?\d+$/.test(raw)) return undefined;
  const id = BigInt(raw);
  if (has('get-mid-id-500') && id >= 2n ** 31n && id < 2n ** 53n) return ctx.error('internal_error', 'integer overflow');
  if (v.strictIntegers && !CANONICAL.test(raw))
    return ctx.error('invalid_parameter', `petId must be written as a plain integer, got ${JSON.stringify(raw)}`);
  if (v.positiveIds && id < 1n) return ctx.error('invalid_parameter', 'petId must be positive');
  if (v.idNotInt64 === '400' && (id >= 2n ** 63n || id < -(2n ** 63n))) return ctx.error('invalid_parameter', 'petId must be an int64');
  return undefined;
}
