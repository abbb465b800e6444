/**
 * A small JSON parser for the library servers that keeps every number as its
 * digits (a `Num`), as a team storing int64 ids exactly would use instead of
 * JSON.parse. Strict RFC 8259: one value, optional whitespace around it.
 */
export class Num {
  constructor(readonly raw: string) {}
}

export type Lossless = null | boolean | string | Num | Lossless[] | { [k: string]: Lossless };

const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WS = /[ \t\n\r]*/y;

class Parser {
  i = 0;
  constructor(private readonly s: string) {}

  ws(): void {
    WS.lastIndex = this.i;
    WS.exec(this.s);
    this.i = WS.lastIndex;
  }

  match(re: RegExp): string | undefined {
    re.lastIndex = this.i;
    const m = re.exec(this.s);
    if (!m) return undefined;
    this.i = re.lastIndex;
    return m[0];
  }

  literal(word: string): boolean {
    if (!this.s.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }

  value(): Lossless {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    if (this.literal('null')) return null;
    const n = this.match(NUMBER);
    if (n === undefined) throw new SyntaxError(`unexpected input at ${this.i}`);
    return new Num(n);
  }

  string(): string {
    const raw = this.match(STRING);
    if (raw === undefined) throw new SyntaxError(`bad string at ${this.i}`);
    return JSON.parse(raw) as string;
  }

  list<T>(close: string, item: () => T): T[] {
    this.i++;
    const out: T[] = [];
    this.ws();
    if (this.literal(close)) return out;
    for (;;) {
      out.push(item());
      this.ws();
      if (this.literal(close)) return out;
      if (!this.literal(',')) throw new SyntaxError(`expected , or ${close} at ${this.i}`);
    }
  }

  array(): Lossless[] {
    return this.list(']', () => this.value());
  }

  object(): { [k: string]: Lossless } {
    // No prototype: a "__proto__" property is stored like any other.
    const out = Object.create(null) as { [k: string]: Lossless };
    for (const [k, v] of this.list('}', () => {
      this.ws();
      const key = this.string();
      this.ws();
      if (!this.literal(':')) throw new SyntaxError(`expected : at ${this.i}`);
      return [key, this.value()] as const;
    }))
      out[k] = v;
    return out;
  }
}

export function parseLossless(text: string): { ok: true; value: Lossless } | { ok: false } {
  try {
    const p = new Parser(text);
    const value = p.value();
    p.ws();
    return p.i === text.length ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}
