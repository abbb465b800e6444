/**
 * Lossless JSON: parse a body without losing the digits of int64 numbers, and
 * write values back with exact integers.
 *
 * `parseJson` returns ordinary JS values (so Ajv can validate them) and keeps
 * the raw text of every number, keyed by JSON Pointer, in a side table that
 * `rawNumber` reads. Ids above 2^53 are therefore compared and echoed from
 * their text, never from a rounded JS number. A member name an object holds twice
 * is listed (`duplicates`), its last value kept.
 *
 * Pure module: no Node built-ins, no BigInt literals.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ParsedJson {
  value: JsonValue;
  /** Raw numeric literal text by JSON Pointer ("" is the root). */
  numbers: Map<string, string>;
  /** Each member name met again in the same object (RFC 8259 §4: names SHOULD be unique; the last value is kept), in order. */
  duplicates: readonly DuplicateMember[];
}

/** A member name an object holds more than once: the object's JSON Pointer ("" is the root) and the name, unescaped. */
export interface DuplicateMember {
  pointer: string;
  name: string;
}

const NO_DUPLICATES: readonly DuplicateMember[] = Object.freeze([]);
// Not Object.hasOwn (ES2022): the module is bundled for k6.
const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

const rawTables = new WeakMap<object, Map<string, string>>();

/** Raw text of the number at `pointer` inside a value returned by parseJson. */
export function rawNumber(root: unknown, pointer: string): string | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  return rawTables.get(root)?.get(pointer);
}

export function escapePointer(key: string): string {
  if (!key.includes('~') && !key.includes('/')) return key;
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 256;

export function parseJson(text: string): ParsedJson {
  const p = new Parser(text);
  const value = p.value('', undefined, 0);
  p.ws();
  if (p.i < text.length) p.fail('Unexpected data after JSON value');
  if (value !== null && typeof value === 'object') rawTables.set(value, p.numbers);
  return { value, numbers: p.numbers, duplicates: p.duplicates ?? NO_DUPLICATES };
}

/**
 * Is `text` a JSON text (RFC 8259, no extension) that parseJson reads? JSON.parse (native) tells the grammar; it reads
 * any depth, parseJson none beyond MAX_DEPTH: only a text with more brackets than that is read by parseJson too. The
 * exploration asks it of every body it sends (about a twentieth of a whole run's CPU time through parseJson).
 */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++brackets > MAX_DEPTH) break;
  }
  if (brackets <= MAX_DEPTH) return true;
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/** A recursive-descent reader of one JSON text, keeping every number's raw text by its pointer and each repeated name. */
class Parser {
  i = 0;
  readonly numbers = new Map<string, string>();
  /** Made at the first repeated name only (most texts have none). */
  duplicates?: DuplicateMember[];

  constructor(readonly text: string) {}

  ws(): void {
    const { text } = this;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  fail(msg: string): never {
    throw new JsonSyntaxError(msg, this.i);
  }

  /** The next character is `c`: consume it. */
  eat(c: string): boolean {
    if (this.text[this.i] !== c) return false;
    this.i++;
    return true;
  }

  /**
   * The value at `parent` + "/" + `key` (the root: no key). Its pointer is made only for what keeps one — a number, and
   * an object or an array for its members — not for each string and literal (a large share of a run's parsing).
   */
  value(parent: string, key: string | number | undefined, depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail('Nesting too deep');
    this.ws();
    const c = this.text[this.i];
    if (c === '"') return this.string();
    for (const [word, v] of LITERALS)
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    const pointer = key === undefined ? parent : `${parent}/${typeof key === 'number' ? key : escapePointer(key)}`;
    if (c === '{') return this.object(pointer, depth);
    if (c === '[') return this.array(pointer, depth);
    return this.number(pointer);
  }

  object(pointer: string, depth: number): JsonValue {
    this.i++;
    const obj: { [key: string]: JsonValue } = {};
    this.ws();
    if (this.eat('}')) return obj;
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail('Expected a property name');
      const key = this.string();
      this.ws();
      if (!this.eat(':')) this.fail("Expected ':'");
      const v = this.value(pointer, key, depth + 1);
      if (hasOwn(obj, key)) (this.duplicates ??= []).push({ pointer, name: key });
      // The last value wins. An own property even for "__proto__" (an assignment would set the prototype); any other name, assigned.
      if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      else obj[key] = v;
      this.ws();
      if (this.eat(',')) continue;
      if (this.eat('}')) return obj;
      this.fail("Expected ',' or '}'");
    }
  }

  array(pointer: string, depth: number): JsonValue {
    this.i++;
    const arr: JsonValue[] = [];
    this.ws();
    if (this.eat(']')) return arr;
    for (;;) {
      arr.push(this.value(pointer, arr.length, depth + 1));
      this.ws();
      if (this.eat(',')) continue;
      if (this.eat(']')) return arr;
      this.fail("Expected ',' or ']'");
    }
  }

  /** Find the closing quote, then let JSON.parse decode the escapes exactly (a string without any: its text as it is). */
  string(): string {
    const { text } = this;
    const start = this.i;
    let escaped = false;
    this.i++;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        this.i += 2;
      } else if (c < 0x20) this.fail('Control character in string');
      else this.i++;
    }
    if (this.i >= text.length) this.fail('Unterminated string');
    this.i++;
    if (!escaped) return text.slice(start + 1, this.i - 1);
    try {
      return JSON.parse(text.slice(start, this.i)) as string;
    } catch {
      return this.fail('Invalid string escape');
    }
  }

  number(pointer: string): number {
    NUMBER_RE.lastIndex = this.i;
    const m = NUMBER_RE.exec(this.text);
    if (m && m[0].length > 0) {
      this.i += m[0].length;
      this.numbers.set(pointer, m[0]);
      return Number(m[0]);
    }
    return this.fail(this.i >= this.text.length ? 'Unexpected end of JSON' : 'Unexpected character');
  }
}

const LITERALS: readonly [string, JsonValue][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** Is `raw` a JSON number literal whose value is an integer? Returns its canonical digits. */
export function integerDigits(raw: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) return undefined;
  const [, sign, intPart, frac = '', expText] = m;
  const exp = expText ? Number(expText) : 0;
  if (Math.abs(exp) > 400) return undefined;
  let digits = intPart + frac;
  const point = intPart.length + exp; // position of the decimal point in digits
  if (point < 0) return /^0*$/.test(digits) ? '0' : undefined;
  if (point > digits.length) digits = digits + '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point);
  const rest = digits.slice(point);
  if (!/^0*$/.test(rest)) return undefined;
  const stripped = whole.replace(/^0+/, '') || '0';
  return stripped === '0' ? '0' : sign + stripped;
}

/**
 * The int64 range, as the suite judges it everywhere (the schemas' int64 keyword, the exploration's classes and
 * generators, the read-back rules): one definition, by its digits (no JS number; no BigInt literal in src/core). The
 * reference server keeps its own (reference/lossless-json.ts): a bug here must not make both agree.
 */
export const INT64_MAX_DIGITS = '9223372036854775807';
export const INT64_MIN_DIGITS = '-9223372036854775808';

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Exact int64 range check on canonical integer digits (no JS number involved). */
export function isInt64Digits(digits: string): boolean {
  if (digits.startsWith('-')) return compareDigits(digits.slice(1), INT64_MIN_DIGITS.slice(1)) <= 0;
  return compareDigits(digits, INT64_MAX_DIGITS) <= 0;
}

/** Is a JS number (whose literal text is lost) an exact int64? Judged on the digits it stands for. */
export function isInt64Number(n: number): boolean {
  const digits = Number.isInteger(n) ? integerDigits(String(n)) : undefined;
  return digits !== undefined && isInt64Digits(digits);
}

/**
 * Serialize a value to JSON, writing numbers from the raw table of `root` (if it
 * came from parseJson) so that ids above 2^53 keep every digit. `Int64` values
 * (objects with a `digits` string, made by `int64()`) are written as bare digits.
 */
export function stringifyExact(value: unknown, root: unknown = value, pointer = ''): string {
  const raw = rawNumber(root, pointer);
  if (typeof value === 'number') return raw ?? JSON.stringify(value);
  if (value instanceof Int64) return value.digits;
  if (Array.isArray(value)) return `[${value.map((v, k) => stringifyExact(v, root, `${pointer}/${k}`)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}:${stringifyExact(v, root, `${pointer}/${escapePointer(k)}`)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An exact integer to put in a request body (e.g. an int64 outside JS's safe range). */
export class Int64 {
  constructor(readonly digits: string) {}
  toJSON(): string {
    return this.digits;
  }
}

export function int64(digits: string): Int64 {
  return new Int64(digits);
}

/** The canonical exact form of a value: numbers by their integer digits where integral. */
export function canonicalExact(value: unknown, root: unknown = value, pointer = ''): string {
  if (typeof value === 'number') {
    const raw = rawNumber(root, pointer) ?? String(value);
    return integerDigits(raw) ?? raw;
  }
  if (Array.isArray(value)) return `[${value.map((v, k) => canonicalExact(v, root, `${pointer}/${k}`)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys
      .map((k) => `${JSON.stringify(k)}:${canonicalExact((value as Record<string, unknown>)[k], root, `${pointer}/${escapePointer(k)}`)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
