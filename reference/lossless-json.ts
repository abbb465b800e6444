/**
 * The reference server's own lossless JSON, written apart from the suite's
 * (src/core/json.ts) so that a bug in one is not shared by the other: a body is
 * read into ordinary JS values (for the schema) while the literal text of every
 * number is kept beside it, by JSON Pointer; integers are compared and written
 * as BigInt or as their digits, never through a rounded JS number.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A number written by its exact integer digits (an int64 id or categoryId). */
export class Int64 {
  constructor(readonly digits: string) {}
}

export class MalformedJson extends Error {}

/** The literal text of each number of a parsed document, by the document's root. */
const literals = new WeakMap<object, Map<string, string>>();

/** The literal text of the number at `pointer` in a document `readJson` returned. */
export function numberText(root: unknown, pointer: string): string | undefined {
  return root !== null && typeof root === 'object' ? literals.get(root)?.get(pointer) : undefined;
}

const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** One token of RFC 8259: punctuation, a string, a number or a literal name (sticky, at the cursor). */
const TOKEN =
  /[ \t\n\r]*(?:([{}[\],:])|("(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)|(true|false|null))/y;
const DEEPEST = 256;

/** How a fault reads JSON: the first value of a longer text, or a member name given twice (fault modes only). */
export interface ReadOptions {
  /** Fault trailing-data-accepted: the first JSON value; whatever follows is ignored (Go's json.Decoder idiom). */
  firstValue?: boolean;
  /** Fault duplicate-member-500: called with a member name the object already holds. */
  onDuplicate?: (name: string) => void;
  /** Variant duplicateMembers: a repeated member name keeps its first value (the default: its last). */
  firstDuplicate?: boolean;
  /** The deepest nesting read (default 256). */
  maxDepth?: number;
}

/** A parse in progress: the text, the cursor after the last token read, the literal text of each number read. */
class JsonReader {
  at = 0;
  readonly numbers = new Map<string, string>();

  constructor(
    private readonly text: string,
    private readonly o: ReadOptions,
  ) {}

  /** The next token; throws at the end of the text or before anything that is no token. */
  next(): RegExpExecArray {
    TOKEN.lastIndex = this.at;
    const token = TOKEN.exec(this.text);
    if (!token)
      throw new MalformedJson(
        this.at >= this.text.trimEnd().length ? 'unexpected end of the text' : `unexpected text at offset ${this.at}`,
      );
    this.at = TOKEN.lastIndex;
    return token;
  }

  expect(punctuation: string): void {
    if (this.next()[1] !== punctuation) throw new MalformedJson(`expected ${JSON.stringify(punctuation)} before offset ${this.at}`);
  }

  /** The value at `pointer`, starting with token `t`. */
  value(pointer: string, depth: number, t = this.next()): Json {
    if (depth > (this.o.maxDepth ?? DEEPEST)) throw new MalformedJson('nested too deeply');
    if (t[2] !== undefined) return JSON.parse(t[2]) as string;
    if (t[3] !== undefined) {
      if (!(this.o.firstDuplicate && this.numbers.has(pointer))) this.numbers.set(pointer, t[3]);
      return Number(t[3]);
    }
    if (t[4] !== undefined) return t[4] === 'null' ? null : t[4] === 'true';
    if (t[1] === '[') return this.array(pointer, depth);
    if (t[1] === '{') return this.object(pointer, depth);
    throw new MalformedJson(`unexpected ${JSON.stringify(t[1])} before offset ${this.at}`);
  }

  array(pointer: string, depth: number): Json[] {
    const out: Json[] = [];
    let t = this.next();
    if (t[1] === ']') return out;
    for (;;) {
      out.push(this.value(`${pointer}/${out.length}`, depth + 1, t));
      t = this.next();
      if (t[1] === ']') return out;
      if (t[1] !== ',') throw new MalformedJson(`expected "," or "]" before offset ${this.at}`);
      t = this.next();
    }
  }

  object(pointer: string, depth: number): { [key: string]: Json } {
    const out: { [key: string]: Json } = {};
    let t = this.next();
    if (t[1] === '}') return out;
    for (;;) {
      if (t[2] === undefined) throw new MalformedJson(`expected a property name before offset ${this.at}`);
      const key = JSON.parse(t[2]) as string;
      this.expect(':');
      const again = Object.prototype.hasOwnProperty.call(out, key);
      if (again && this.o.onDuplicate) this.o.onDuplicate(key);
      const v = this.value(`${pointer}/${pointerKey(key)}`, depth + 1);
      // An own property even for "__proto__"; a repeated name keeps its last value (or its first, as asked).
      if (!(again && this.o.firstDuplicate))
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      t = this.next();
      if (t[1] === '}') return out;
      if (t[1] !== ',') throw new MalformedJson(`expected "," or "}" before offset ${this.at}`);
      t = this.next();
    }
  }
}

/** Parse a JSON text (RFC 8259, no extension); throws MalformedJson. */
export function readJson(text: string, o: ReadOptions = {}): Json {
  const r = new JsonReader(text, o);
  const root = r.value('', 0);
  if (!o.firstValue && /[^ \t\n\r]/.test(text.slice(r.at))) throw new MalformedJson(`text after the JSON value at offset ${r.at}`);
  if (root !== null && typeof root === 'object') literals.set(root, r.numbers);
  return root;
}

/** The exact integer a number literal denotes (as digits), or undefined when it is not an integer. */
export function integerOf(literal: string): string | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$/.exec(literal);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? 0);
  if (Math.abs(exponent) > 400) return undefined;
  const mantissa = BigInt(m[2] + fraction);
  const scale = exponent - fraction.length;
  let n: bigint;
  if (scale >= 0) n = mantissa * 10n ** BigInt(scale);
  else {
    const divisor = 10n ** BigInt(-scale);
    if (mantissa % divisor !== 0n) return undefined;
    n = mantissa / divisor;
  }
  return (m[1] === '-' && n !== 0n ? -n : n).toString();
}

/** The int64 range: the reference server's own definition (the suite has another, src/core/json.ts; neither imports the other). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Is this integer (digits) within the int64 range? */
export const isInt64 = (digits: string): boolean => BigInt(digits) >= INT64_MIN && BigInt(digits) <= INT64_MAX;

/** JSON text of a reply's value: `Int64` as bare digits, other numbers as JavaScript writes them. */
export function writeJson(value: unknown): string {
  if (value instanceof Int64) return value.digits;
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
