/**
 * Request bodies as a small JSON syntax tree, so generated bodies are written exactly as intended: int64 numbers as
 * their own digits (never through a JS number), non-canonical number spellings (`1.0`, `1e2`, `-0`, `+7`) kept as
 * written, and malformed text where a case needs it. How a tree is written is a `Spelling` (RFC 8259's grammar: the
 * four whitespace characters between any tokens, any character of any string escaped, hex digits in either case, `\/`
 * for the solidus) — every spelling of one tree is the same JSON value — or, for the latitude RFC 8259 §9 leaves to a
 * parser, one of its extensions (comments, trailing commas, single quotes, unquoted names, data after the value).
 */
export type JNode =
  | { k: 'num'; text: string }
  | {
      k: 'str';
      value: string;
      escaped?: boolean;
      /**
       * The pet's name: the run's prefix and a token go in front (`prefixed`), or nothing (`bare`), or nothing where
       * the run may (`whole`: on the suite's own server, a name wholly the value; elsewhere prefixed, to be found again).
       */
      named?: 'prefixed' | 'bare' | 'whole';
      /** A name of this length once prefixed (strings.ts: the boundaries where UTF-16 units, code points and bytes differ). */
      fit?: { unit: LengthUnit; n: number };
    }
  | { k: 'lit'; text: 'true' | 'false' | 'null' }
  | { k: 'arr'; items: JNode[] }
  | { k: 'obj'; props: [string, JNode][] }
  | { k: 'raw'; text: string }
  /** Malformed JSON: the text of `of` without its last character. */
  | { k: 'cut'; of: JNode };

/** How a string's length is counted: UTF-16 code units (JS, Java), code points (Python), UTF-8 bytes (Go, a VARCHAR in bytes), graphemes. */
export type LengthUnit = 'utf16' | 'codepoints' | 'utf8' | 'graphemes';

export const num = (text: string | bigint): JNode => ({ k: 'num', text: String(text) });
export const str = (value: string, escaped = false): JNode => ({ k: 'str', value, ...(escaped ? { escaped } : {}) });
export const lit = (text: 'true' | 'false' | 'null'): JNode => ({ k: 'lit', text });
export const obj = (props: [string, JNode][]): JNode => ({ k: 'obj', props });

/**
 * How a tree is written. The JSON forms (RFC 8259 §2, §7) give the same value whatever they are; the extensions give a
 * text that only a parser taking them reads. Arrays are cycled: the i-th whitespace, escape or digit takes entry i.
 */
export interface Spelling {
  /** Whitespace before every token and after the value (space, tab, line feed, carriage return, or several). */
  ws?: readonly string[];
  /** Which characters of every string (member names too) are written as escapes, cycled over all their characters. */
  escape?: readonly boolean[];
  /** Hex digits of \u escapes in upper case, cycled over every digit. */
  upper?: readonly boolean[];
  /** Escaped characters written \u even where a two-character escape (\b \f \n \r \t) exists (by default it is used, as JSON.stringify does). */
  long?: boolean;
  /** Every solidus written \/. */
  solidus?: boolean;
  /**
   * The members of every object in another order (RFC 8259 §4: an object is an unordered collection): each member, in
   * the order of the whole text, takes the next rank of this list (cycled) and every object is written by rank (a
   * stable sort: equal ranks keep their order). Empty or absent: the tree's order.
   */
  order?: readonly number[];
  /** Extensions (RFC 8259 §9): a comment where whitespace may go, cycled (undefined: none there). */
  comments?: readonly ('block' | 'line' | undefined)[];
  /** A comma after the last member of every object and the last item of every array. */
  trailingComma?: boolean;
  /** Strings in single quotes: member names only, or every string. */
  singleQuotes?: 'names' | 'all';
  /** Member names that are identifiers written without quotes (JSON5). */
  unquotedNames?: boolean;
  /** Control characters in strings written raw, unescaped. */
  rawControls?: boolean;
  /** Text after the value (data after the JSON text). */
  after?: string;
}

const SHORT: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const MUST_ESCAPE = /["\\\u0000-\u001f]/;
const LONE = /^[\uD800-\uDFFF]$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A writer of one text: counters for the cycled choices of its spelling. */
class Writer {
  private t = 0;
  private c = 0;
  private h = 0;
  private m = 0;
  /** Does the spelling change how strings are written (else JSON.stringify writes them, the same text, natively)? */
  private readonly spellsStrings: boolean;
  constructor(readonly sp: Spelling) {
    this.spellsStrings = !!(sp.escape?.some(Boolean) || sp.solidus || sp.rawControls || sp.singleQuotes || sp.long);
  }

  /** An object's members in the order the spelling writes them (by rank; the tree's order without one). */
  members(props: readonly [string, JNode][]): [string, JNode][] {
    const { order } = this.sp;
    if (!order?.length) return [...props];
    const ranked = props.map((p) => ({ p, rank: order[this.m++ % order.length] }));
    return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.p);
  }

  /** What goes before a token: whitespace, and a comment where the spelling puts one. */
  gap(): string {
    const { ws, comments } = this.sp;
    const i = this.t++;
    const w = ws?.length ? ws[i % ws.length] : '';
    const comment = comments?.length ? comments[i % comments.length] : undefined;
    if (comment === 'block') return `${w}/* c */`;
    if (comment === 'line') return `${w}// c\n`;
    return w;
  }

  private pick<T>(xs: readonly T[] | undefined, i: number, none: T): T {
    return xs?.length ? xs[i % xs.length] : none;
  }

  private hex(unit: number): string {
    return [...unit.toString(16).padStart(4, '0')].map((d) => (this.pick(this.sp.upper, this.h++, false) ? d.toUpperCase() : d)).join('');
  }

  /** One UTF-16 unit of a string, as written. */
  private unit(ch: string, quote: string): string {
    const code = ch.charCodeAt(0);
    const chosen = this.pick(this.sp.escape, this.c++, false);
    const control = code < 0x20;
    if (ch === quote || ch === '\\') return `\\${ch}`;
    if (control && this.sp.rawControls && !chosen) return ch;
    const must = MUST_ESCAPE.test(ch) || LONE.test(ch) || (ch === '/' && this.sp.solidus);
    if (!must && !chosen) return ch;
    // The solidus's own escape, \/: for every one (solidus), or for one the mask escapes.
    if (ch === '/' && (this.sp.solidus || !this.sp.long)) return '\\/';
    if (!this.sp.long && SHORT[ch]) return SHORT[ch];
    return `\\u${this.hex(code)}`;
  }

  string(s: string, name = false): string {
    if (name && this.sp.unquotedNames && IDENTIFIER.test(s)) return s;
    if (!this.spellsStrings) return JSON.stringify(s);
    const sq = this.sp.singleQuotes === 'all' || (name && this.sp.singleQuotes === 'names');
    const quote = sq ? "'" : '"';
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) {
        // A surrogate pair: both units escaped, or neither (a lone half cannot travel in UTF-8).
        const esc = this.pick(this.sp.escape, this.c++, false);
        out += esc ? `\\u${this.hex(code)}\\u${this.hex(s.charCodeAt(i + 1))}` : s.slice(i, i + 2);
        i++;
      } else out += this.unit(s[i], quote);
    }
    return `${quote}${out}${quote}`;
  }
}

function write(n: JNode, w: Writer): string {
  switch (n.k) {
    case 'num':
    case 'lit':
    case 'raw':
      return `${w.gap()}${n.text}`;
    case 'str':
      return `${w.gap()}${n.escaped ? escapeAll(n.value) : w.string(n.value)}`;
    case 'cut':
      return write(n.of, w).slice(0, -1);
    case 'arr':
      return container(
        w,
        '[',
        ']',
        n.items.map((x) => () => write(x, w)),
      );
    case 'obj':
      return container(
        w,
        '{',
        '}',
        w.members(n.props).map(
          ([k, v]) =>
            () =>
              `${w.gap()}${w.string(k, true)}${w.gap()}:${write(v, w)}`,
        ),
      );
  }
}

/** A container's text, its gaps taken in the order they are written: open, each item and comma, a trailing comma, close. */
function container(w: Writer, open: string, close: string, items: readonly (() => string)[]): string {
  let out = `${w.gap()}${open}`;
  items.forEach((item, i) => {
    if (i > 0) out += `${w.gap()},`;
    out += item();
  });
  if (w.sp.trailingComma && items.length) out += `${w.gap()},`;
  return `${out}${w.gap()}${close}`;
}

/** The text of a tree as `sp` spells it (no spelling: the plainest text, as JSON.stringify writes it). */
export function render(n: JNode, sp: Spelling = {}): string {
  const w = new Writer(sp);
  const text = write(n, w);
  return `${text}${w.gap()}${sp.after ?? ''}`;
}

/** JSON text of a string with every character outside printable ASCII written as a \u escape. */
export function escapeAll(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The same JSON value with insignificant whitespace (RFC 8259 §2: space, tab, line feed, carriage return) around every token. */
export function renderSpaced(n: JNode, ws = ' \r\n\t'): string {
  return render(n, { ws: [ws] });
}

/** The node of property `key` of an object node. */
export function prop(n: JNode, key: string): JNode | undefined {
  return n.k === 'obj' ? n.props.find(([k]) => k === key)?.[1] : undefined;
}

/** A copy of an object node with `key` set to `value` (or removed when value is undefined). */
export function withProp(n: JNode, key: string, value: JNode | undefined): JNode {
  if (n.k !== 'obj') return n;
  const props = n.props.filter(([k]) => k !== key);
  if (value === undefined) return { k: 'obj', props };
  const at = n.props.findIndex(([k]) => k === key);
  props.splice(at < 0 ? props.length : at, 0, [key, value]);
  return { k: 'obj', props };
}

/** Apply `f` to every string node (depth first). */
export function mapStrings(n: JNode, f: (s: Extract<JNode, { k: 'str' }>) => JNode): JNode {
  if (n.k === 'str') return f(n);
  if (n.k === 'arr') return { k: 'arr', items: n.items.map((x) => mapStrings(x, f)) };
  if (n.k === 'obj') return { k: 'obj', props: n.props.map(([k, v]) => [k, mapStrings(v, f)] as [string, JNode]) };
  if (n.k === 'cut') return { k: 'cut', of: mapStrings(n.of, f) };
  return n;
}
