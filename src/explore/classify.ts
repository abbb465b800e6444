/**
 * Is a generated request valid, invalid, or one the spec is silent about — by
 * the schema, not by hand: bodies are validated with the project's Ajv
 * (exact int64), parameters against their OpenAPI schema.
 *
 * - valid: the spec requires it to be served (201 / 200 / 404);
 * - silent: valid by the schema, but of a kind a server may refuse with a clean
 *   400 Error where the spec says nothing (a long name, control characters, an
 *   unknown property, a non-canonical number, a non-positive identifier,
 *   characters outside printable ASCII): accepted or refused, never a 5xx, and
 *   when accepted it reads back exactly;
 * - invalid: the schema refuses it; the service must refuse it (400 Error for
 *   createPet, a 4xx or a clamped page for parameters), never a 5xx.
 */
import { integerDigits, isInt64Digits, parseJson, rawNumber } from '../core/json.ts';
import { validateSchema } from '../schemas/ajv.ts';
import type { Schema } from './model.ts';
import type { RefusedRequirement } from '../core/sections/create-pet/rules.ts';
import { render } from './json-text.ts';
import { readLeniently, type Extension } from './lenient-json.ts';

/** latitude: no JSON, but a NewPet through an extension RFC 8259 §9 allows (refused or accepted as that reading). */
export type Class = 'valid' | 'silent' | 'latitude' | 'invalid';

export interface Classification {
  cls: Class;
  /** Why, in a few words ("name has characters outside printable ASCII"). */
  why: string;
  /** An invalid body: the requirement its refusal proves. */
  requirement?: RefusedRequirement;
  /** A latitude body: the extensions its reading needs, and the reading (as JSON text). */
  extensions?: Extension[];
  reading?: string;
}

const CANONICAL_INT = /^-?(0|[1-9]\d*)$/;

/** Parameter text (undefined: absent) against its schema. */
/** Why an integer is invalid when it is beyond int64 (what getPet's check tells from any other invalid id). */
export const OUTSIDE_INT64 = 'outside int64';

export function classifyParam(schema: Schema, text: string | undefined): Classification {
  if (text === undefined) return { cls: 'valid', why: 'absent' };
  if (schema.enum) {
    const ok = schema.enum.some((v) => String(v) === text);
    return ok ? { cls: 'valid', why: 'an enumeration value' } : { cls: 'invalid', why: 'not an enumeration value' };
  }
  if (schema.type !== 'integer') return { cls: 'valid', why: 'a string' };
  const loose = /^\s*([+-]?)(\d+)\s*$/.exec(text);
  if (!loose) return { cls: 'invalid', why: 'not an integer' };
  const digits = integerDigits(`${loose[1] === '-' ? '-' : ''}${loose[2]}`) as string;
  const inRange =
    isInt64Digits(digits) &&
    (schema.minimum === undefined || BigInt(digits) >= BigInt(schema.minimum)) &&
    (schema.maximum === undefined || BigInt(digits) <= BigInt(schema.maximum));
  if (!inRange) return { cls: 'invalid', why: schema.format === 'int64' && !isInt64Digits(digits) ? OUTSIDE_INT64 : 'out of range' };
  if (!CANONICAL_INT.test(text)) return { cls: 'silent', why: 'a non-canonical integer spelling' };
  // An identifier the service assigns: zero and negative ones are int64, but a server may call them malformed.
  if (schema.format === 'int64' && schema.minimum === undefined && BigInt(digits) < 1n)
    return { cls: 'silent', why: 'a non-positive identifier' };
  return { cls: 'valid', why: 'a canonical integer in range' };
}

/** Printable ASCII without markup brackets: the names the table-driven specs already require a server to take. */
const PLAIN_NAME = /^[\x20-\x3b\x3d\x3f-\x7e]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * Can `s` be a path segment of its own? An empty one or a dot segment ('.', '..') is another URL altogether (`/pets/`
 * is the list; `/pets/..` is `/`), never a petId; nor is one holding a slash or a backslash: percent-encoded, RFC 3986
 * keeps it one segment, but servers and proxies commonly decode it into a path of their own (a redirect, a 404).
 */
export function isPathSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !/[/\\]/.test(s);
}

/** `s` with every lone surrogate replaced by U+FFFD (what a URL, UTF-8 only, can carry). */
export function wellFormed(s: string): string {
  return s.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

/** Everything that makes a valid name unusual (none for a plain one). */
function nameTraits(name: string, plainLength: number): string[] {
  const out: string[] = [];
  if (hasLoneSurrogate(name)) out.push('name has a lone surrogate');
  if (name.length > plainLength) out.push(`name longer than ${plainLength} characters`);
  if (name.trim() !== name) out.push('name has leading or trailing spaces');
  if (name === '') out.push('name is empty');
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) out.push('name has control characters');
  if (!PLAIN_NAME.test(name)) out.push('name has characters outside printable ASCII');
  return out;
}

const BODY_REQUIREMENT = (keyword: string, path: string): RefusedRequirement =>
  keyword === 'required'
    ? 'CREATE-400-MISSING-FIELD'
    : path === '/status'
      ? 'CREATE-400-BAD-STATUS'
      : path === ''
        ? 'CREATE-400-BAD-BODY'
        : 'CREATE-400-WRONG-TYPE';

/**
 * A createPet body's text against NewPet. `plainLength`: names up to this
 * length are ones the service must take (the length the specs already send).
 */
export function classifyBody(text: string, schema: Schema, plainLength: number, extensions = true): Classification {
  let value: unknown;
  try {
    value = parseJson(text).value;
  } catch {
    return extensions
      ? classifyExtended(text, schema, plainLength)
      : { cls: 'invalid', why: 'malformed JSON', requirement: 'CREATE-400-BAD-BODY' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { cls: 'invalid', why: 'not a JSON object', requirement: 'CREATE-400-BAD-BODY' };
  const v = validateSchema('NewPet', value);
  if (!v.valid) {
    const first = v.issues[0];
    return { cls: 'invalid', why: `${first.path || 'body'} ${first.message}`, requirement: BODY_REQUIREMENT(first.keyword, first.path) };
  }
  const body = value as Record<string, unknown>;
  // Every unusual trait, so that a note explaining a refusal names whichever the server may have refused it for.
  const unknown = Object.keys(body).filter((k) => !(k in (schema.properties ?? {})));
  const traits = unknown.length ? [`unknown propert${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}`] : [];
  traits.push(...nameTraits(body.name as string, plainLength));
  const cat = rawNumber(body, '/categoryId') ?? String(body.categoryId);
  if (!CANONICAL_INT.test(cat)) traits.push(`categoryId written ${cat}`);
  else if (cat.startsWith('-') || cat === '0') traits.push('a non-positive categoryId');
  return traits.length ? { cls: 'silent', why: traits.join('; ') } : { cls: 'valid', why: 'a plain NewPet' };
}

/**
 * A body that is no JSON: latitude when a parser taking the extensions RFC 8259 §9 allows reads a NewPet in it (valid,
 * or one the spec is silent about), else invalid — no reading of it is a NewPet.
 */
function classifyExtended(text: string, schema: Schema, plainLength: number): Classification {
  const lenient = readLeniently(text);
  const reading = lenient ? render(lenient.node) : undefined;
  const read = reading !== undefined ? classifyBody(reading, schema, plainLength, false) : undefined;
  if (!lenient || !read || read.cls === 'invalid' || read.cls === 'latitude')
    return { cls: 'invalid', why: 'malformed JSON', requirement: 'CREATE-400-BAD-BODY' };
  const exts = lenient.extensions.join(', ');
  const why = `JSON only through an extension (${exts})${read.cls === 'silent' ? `; ${read.why}` : ''}`;
  return { cls: 'latitude', why, extensions: lenient.extensions, reading };
}
