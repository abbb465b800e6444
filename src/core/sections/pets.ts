/**
 * A Pet as every rule compares it — the createPet echo, the round trip by id, the listed pet — written once: each
 * field the spec defines as its exact canonical JSON (int64 digits exact, never through a JS number), fields a server
 * adds left out. A difference names its field, what was expected and what came, and whether an RFC the spec builds on
 * leaves that change to the server (a latitude: then it is a warning or an observation, never a MUST failure).
 * Pure (bundled for k6).
 */
import { canonicalExact, INT64_MAX_DIGITS, INT64_MIN_DIGITS, parseJson, rawNumber, type JsonValue } from '../json.ts';

/** The fields the spec defines for a Pet; others a server may add are not compared. */
export const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const;
export type PetField = (typeof PET_FIELDS)[number];

/** Each present field's exact canonical JSON text (`"Rex"`, `9223372036854775807`); absent fields are missing. */
export type PetText = Partial<Record<PetField, string>>;

/** What a createPet request sent: the NewPet fields it carried, and how each number was written. */
export interface SentPet {
  fields: PetText;
  /** The number literals as written in the request (`1e2`, `18014398509481983.0`), by field. */
  written: PetText;
}

/** Why a difference is one the server may make (see the catalogue's LATITUDES). */
export type Latitude = 'number-precision' | 'lone-surrogate' | 'name-trimmed';

export interface Difference {
  field: PetField;
  /** Canonical JSON expected; undefined: the field was expected absent. */
  expected?: string;
  /** Canonical JSON read back; undefined: the field was absent. */
  got?: string;
  latitude?: Latitude;
}

const isObject = (v: unknown): v is Record<string, JsonValue> => v !== null && typeof v === 'object' && !Array.isArray(v);

function valueAt(root: JsonValue | undefined, pointer: string): JsonValue | undefined {
  if (!pointer) return root;
  let v: JsonValue | undefined = root;
  for (const k of pointer.split('/').slice(1)) v = isObject(v) ? v[k] : Array.isArray(v) ? v[Number(k)] : undefined;
  return v;
}

/** The Pet fields of the object at `pointer` of a losslessly parsed body, or undefined when it is no object. */
export function petAt(root: JsonValue | undefined, pointer = ''): PetText | undefined {
  const v = valueAt(root, pointer);
  if (!isObject(v)) return undefined;
  const out: PetText = {};
  for (const k of PET_FIELDS) if (k in v) out[k] = canonicalExact(v[k], root, `${pointer}/${k}`);
  return out;
}

const ids = new WeakMap<readonly unknown[], (string | undefined)[]>();

/**
 * The id of each pet of a page (a losslessly parsed array), as `petAt(page, '/<i>')?.id` reads it: read once per page,
 * however many pets are looked for on it (the exploration looks for every pet it created on one page).
 */
export function idsOf(page: readonly unknown[]): (string | undefined)[] {
  let known = ids.get(page);
  if (!known) ids.set(page, (known = page.map((_, i) => petAt(page as JsonValue, `/${i}`)?.id)));
  return known;
}

/** The NewPet fields a request body carried (undefined when the body is not a JSON object). */
export function sentPet(body: string): SentPet | undefined {
  let root: JsonValue;
  try {
    root = parseJson(body).value;
  } catch {
    return undefined;
  }
  const fields = petAt(root);
  if (!fields || !isObject(root)) return undefined;
  delete fields.id; // never part of what a client creates (CREATE-ID-SERVER-ASSIGNED judges it)
  const written: PetText = {};
  for (const k of PET_FIELDS) {
    const raw = rawNumber(root, `/${k}`);
    if (raw !== undefined) written[k] = raw;
  }
  return { fields, written };
}

const NON_CANONICAL = /[.eE]/;

/**
 * RFC 8259 §6 leaves the precision of numbers to implementations: one written with a fraction or an exponent beyond
 * ±(2^53 − 1) may be read as the nearest IEEE 754 double — and that double, converted to an int64, clamped into its
 * range (as Java's and C#'s casts do: 9223372036854775806e0 reads as 2^63, stored as 2^63 − 1). Is `got` exactly that
 * reading of the literal `written`?
 */
export function readAsDouble(written: string | undefined, got: string | undefined): boolean {
  if (written === undefined || got === undefined || !NON_CANONICAL.test(written) || !/^-?\d+$/.test(got)) return false;
  const d = Number(written);
  if (!Number.isFinite(d) || !Number.isInteger(d)) return false;
  const exact = BigInt(d);
  const [min, max, safe] = [BigInt(INT64_MIN_DIGITS), BigInt(INT64_MAX_DIGITS), BigInt(Number.MAX_SAFE_INTEGER)];
  const clamped = exact > max ? max : exact < min ? min : exact;
  return (exact > safe || exact < -safe) && (exact.toString() === got || clamped.toString() === got);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The latitude that explains a changed field, if one does. */
function latitudeOf(field: PetField, expected: string, got: string | undefined, written: PetText): Latitude | undefined {
  if (readAsDouble(written[field], got)) return 'number-precision';
  if (field !== 'name') return undefined;
  const sent = JSON.parse(expected) as unknown;
  if (typeof sent !== 'string') return undefined;
  // RFC 8259 §8.2: a string with an unpaired surrogate is unpredictable in any implementation.
  if (LONE_SURROGATE.test(sent)) return 'lone-surrogate';
  if (got !== undefined && sent.trim() !== sent && got === JSON.stringify(sent.trim())) return 'name-trimmed';
  return undefined;
}

/**
 * How `got` differs from `expected` on `fields`: a field present in one and not the other, or with another value.
 * `written`: how the request wrote its numbers (a change an RFC allows is marked with its latitude).
 */
export function differences(expected: PetText, got: PetText, fields: readonly PetField[], written: PetText = {}): Difference[] {
  const out: Difference[] = [];
  for (const field of fields) {
    const [e, g] = [expected[field], got[field]];
    if (e === g) continue;
    const latitude = e !== undefined ? latitudeOf(field, e, g, written) : undefined;
    out.push({
      field,
      ...(e !== undefined ? { expected: e } : {}),
      ...(g !== undefined ? { got: g } : {}),
      ...(latitude ? { latitude } : {}),
    });
  }
  return out;
}

/**
 * The pet a read must return once `sent` was created and answered with `created` (the 201 body's fields): what was
 * sent (read as the server was allowed to read it, when its 201 showed that), and the server's own id and default
 * status. A field the 201 body got wrong is expected as sent: the 201's fault is CREATE-201-PET's, not the read's.
 */
export function expectedAfterCreate(sent: SentPet, created: PetText): PetText {
  const out: PetText = { ...created };
  const fields = (['name', 'categoryId', 'status'] as const).filter((f) => sent.fields[f] !== undefined);
  for (const d of differences(sent.fields, created, fields, sent.written))
    if (!d.latitude || d.latitude === 'name-trimmed') out[d.field] = d.expected;
  return out;
}

/** The fields that differ, in the spec's order: `categoryId, status`. */
export const fieldsOf = (ds: readonly Difference[]): string => ds.map((d) => d.field).join(', ');

/** A value for people: a long one cut to its first 60 code points, with its length. */
function shown(v: string | undefined): string {
  if (v === undefined) return '(absent)';
  const cs = Array.from(v);
  return cs.length <= 64 ? v : `${cs.slice(0, 60).join('')}…" (${cs.length - 2} characters)`;
}

/** One difference for people: `categoryId 18014398509481984 ≠ 18014398509481983 (sent as 18014398509481983.0)`. */
export function describeDifference(d: Difference, written: PetText = {}): string {
  const show = shown;
  const as = written[d.field] !== undefined && written[d.field] !== d.expected ? ` (sent as ${written[d.field]})` : '';
  return `${d.field} ${show(d.got)} ≠ ${show(d.expected)}${as}${codePointNote(d)}`;
}

const codePoints = (cs: string[]) => cs.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** Where two strings first differ, in code points: look-alike strings (NFC and NFD, a dropped invisible character). */
function codePointNote(d: Difference): string {
  const parse = (v: string | undefined): unknown => (v === undefined ? undefined : JSON.parse(v));
  const [got, sent] = [parse(d.got), parse(d.expected)];
  if (typeof got !== 'string' || typeof sent !== 'string') return '';
  const [a, b] = [Array.from(got), Array.from(sent)];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const at = (cs: string[]) => (i < cs.length ? codePoints(cs.slice(i, i + 4)) : '(end)');
  return ` (first difference at code point ${i}: read back ${at(a)}, expected ${at(b)})`;
}
