/**
 * How a parser that takes the extensions RFC 8259 §9 allows ("A JSON parser MAY accept non-JSON forms or extensions")
 * reads a text that is no JSON: JSON5's comments, trailing commas, single quotes, unquoted names, `+1`, hex numbers and
 * lone decimal points, Jackson's leading zeros and unquoted control characters, and the first value of a text with data
 * after it (Go's `json.NewDecoder(r.Body).Decode`, Jackson without FAIL_ON_TRAILING_TOKENS). The reading is a syntax
 * tree whose numbers are JSON numbers again, so that it can be written as the JSON text such a server took, and the
 * extensions it needed are named — the classification (classify.ts) tells a body that has a reading as a NewPet
 * (latitude: accepted is a warning) from one that has none (invalid: it must be refused). Pure.
 */
import type { JNode } from './json-text.ts';

/** The extensions a text needed, by name (what a finding names). */
export type Extension =
  | 'comments'
  | 'trailing comma'
  | 'single quotes'
  | 'unquoted member names'
  | 'a plus sign'
  | 'a hexadecimal number'
  | 'a lone decimal point'
  | 'leading zeros'
  | 'NaN or Infinity'
  | 'unescaped control characters'
  | 'JSON5 string escapes'
  | 'other whitespace'
  | 'data after the value';

export interface LenientReading {
  node: JNode;
  extensions: Extension[];
}

class Fail extends Error {}

const WS = new Set([' ', '\t', '\n', '\r']);
const OTHER_WS = /[\u000b\u000c\u00a0\u2028\u2029\ufeff\u1680\u2000-\u200a\u202f\u205f\u3000]/;
const ID_START = /[A-Za-z_$]/;
const ID_PART = /[A-Za-z0-9_$]/;
const NUMBER = /^([+-]?)(?:(0[xX][0-9a-fA-F]+)|(Infinity|NaN)|(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Reader {
  i = 0;
  readonly used = new Set<Extension>();
  constructor(readonly text: string) {}

  fail(): never {
    throw new Fail();
  }

  ws(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.i];
      if (c !== undefined && WS.has(c)) this.i++;
      else if (c !== undefined && OTHER_WS.test(c)) {
        this.used.add('other whitespace');
        this.i++;
      } else if (t.startsWith('/*', this.i)) {
        const end = t.indexOf('*/', this.i + 2);
        if (end < 0) this.fail();
        this.used.add('comments');
        this.i = end + 2;
      } else if (t.startsWith('//', this.i)) {
        const end = t.indexOf('\n', this.i);
        this.used.add('comments');
        this.i = end < 0 ? t.length : end + 1;
      } else return;
    }
  }

  value(depth: number): JNode {
    if (depth > 256) this.fail();
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return { k: 'str', value: this.string() };
    for (const lit of ['true', 'false', 'null'] as const)
      if (this.text.startsWith(lit, this.i)) {
        this.i += lit.length;
        return { k: 'lit', text: lit };
      }
    return this.number();
  }

  /** A number, written back as JSON (hex in decimal, no plus sign, no leading zeros); NaN and Infinity stay raw. */
  number(): JNode {
    const m = NUMBER.exec(this.text.slice(this.i, this.i + 400));
    if (!m || m[0] === '' || m[0] === '+' || m[0] === '-' || m[0] === '.') this.fail();
    const [all, sign, hex, special, int = '', frac, exp] = m;
    if (!hex && !special && int === '' && (frac === undefined || frac === '')) this.fail();
    this.i += all.length;
    if (sign === '+') this.used.add('a plus sign');
    const neg = sign === '-' ? '-' : '';
    if (hex) return this.used.add('a hexadecimal number') && { k: 'num', text: `${neg}${BigInt(hex).toString()}` };
    if (special) return this.used.add('NaN or Infinity') && { k: 'raw', text: `${neg}${special}` };
    if (int === '' || frac === '') this.used.add('a lone decimal point');
    if (/^0\d/.test(int)) this.used.add('leading zeros');
    const digits = int.replace(/^0+(?=\d)/, '') || '0';
    const fraction = frac ? `.${frac}` : '';
    return { k: 'num', text: `${neg}${digits}${fraction}${exp !== undefined ? `e${exp}` : ''}` };
  }

  private escape(): string {
    const e = this.text[this.i++];
    if (e in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[e];
    if (e === 'u') {
      const hex = this.text.slice(this.i, this.i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
      this.i += 4;
      return String.fromCharCode(parseInt(hex, 16));
    }
    if (e === undefined) this.fail();
    this.used.add('JSON5 string escapes');
    if (e === 'x') {
      const hex = this.text.slice(this.i, this.i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail();
      this.i += 2;
      return String.fromCharCode(parseInt(hex, 16));
    }
    if (e === '\n' || e === '\u2028' || e === '\u2029') return '';
    return e === 'v' ? '\v' : e === '0' ? '\0' : e;
  }

  string(): string {
    const quote = this.text[this.i++];
    if (quote === "'") this.used.add('single quotes');
    let out = '';
    for (;;) {
      const c = this.text[this.i++];
      if (c === undefined) this.fail();
      if (c === quote) return out;
      if (c === '\\') out += this.escape();
      else {
        if (c < ' ') this.used.add('unescaped control characters');
        out += c;
      }
    }
  }

  private name(): string {
    this.ws();
    const c = this.text[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === undefined || !ID_START.test(c)) this.fail();
    const start = this.i;
    while (this.i < this.text.length && ID_PART.test(this.text[this.i])) this.i++;
    this.used.add('unquoted member names');
    return this.text.slice(start, this.i);
  }

  /** The items or members of a container up to `close`, a trailing comma allowed. */
  private items<T>(close: string, item: () => T): T[] {
    this.i++;
    const out: T[] = [];
    this.ws();
    if (this.text[this.i] === close) return (this.i++, out);
    for (;;) {
      out.push(item());
      this.ws();
      const c = this.text[this.i++];
      if (c === close) return out;
      if (c !== ',') this.fail();
      this.ws();
      if (this.text[this.i] === close) {
        this.used.add('trailing comma');
        this.i++;
        return out;
      }
    }
  }

  object(depth: number): JNode {
    const props = this.items('}', () => {
      const k = this.name();
      this.ws();
      if (this.text[this.i++] !== ':') this.fail();
      return [k, this.value(depth + 1)] as [string, JNode];
    });
    return { k: 'obj', props };
  }

  array(depth: number): JNode {
    return { k: 'arr', items: this.items(']', () => this.value(depth + 1)) };
  }
}

/** The reading of `text` by a parser taking the extensions, and which it needed; undefined when it has none. */
export function readLeniently(text: string): LenientReading | undefined {
  const r = new Reader(text);
  try {
    const node = r.value(0);
    r.ws();
    if (r.i < text.length) r.used.add('data after the value');
    return { node, extensions: [...r.used] };
  } catch (e) {
    if (e instanceof Fail || e instanceof RangeError || e instanceof SyntaxError) return undefined;
    throw e;
  }
}
