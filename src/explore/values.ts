/**
 * Boundary and class values of a schema's type — the coverage phase sends each
 * once, the generators mix them into random values. Strings: every class of
 * Unicode that breaks real servers; integers: the int64 extremes and their
 * neighbours, 2^53 ± 1, just outside int64, non-canonical spellings; enums:
 * each value and its near misses; any type: the wrong JSON types. Whether a
 * value is valid is not decided here but by the schema (classify.ts).
 */
import { lit, num, obj, str, type JNode } from './json-text.ts';
import type { Schema } from './model.ts';

export interface Sample {
  /** What the value is, for people: "astral (outside the BMP)", "2^53 + 1". */
  label: string;
  node: JNode;
}

/** Classes of text a real client sends and real servers mangle; [label, text]. */
export const STRING_CLASSES: readonly (readonly [string, string])[] = [
  ['empty', ''],
  ['one character', 'a'],
  ['ASCII letters and digits', 'Rex 2'],
  ['ASCII punctuation', `O'Brien "Co"`],
  ['ASCII symbols', '&(1/2)%;=?'],
  ['Latin-1', 'Ñandú Café Straße ÿ'],
  ['Cyrillic and CJK (BMP)', 'Кот 猫'],
  ['combining sequence', 'Zoe\u0308 e\u0301te\u0301'],
  ['right-to-left', 'כלב קטן'],
  ['bidi controls', 'ab\u202Ecd\u202C\u200F'],
  ['outside the BMP', 'Rex 🐶 𝔘'],
  ['emoji ZWJ sequence', '👩\u200D👧 🏳️\u200D🌈'],
  ['zero-width and BOM', 'a\u200Bb\uFEFF'],
  ['no-break and odd spaces', 'a\u00A0b\u2003c'],
  ['leading and trailing spaces', '  Rex  '],
  ['ASCII control characters', 'a\u0001b\u0007c\u001F'],
  ['NUL', 'a\u0000b'],
  ['tab, newline and carriage return', 'a\tb\nc\rd'],
  ['DEL and C1 controls', 'a\u007Fb\u0085c\u009F'],
  ['line and paragraph separators', 'a\u2028b\u2029c'],
  ['JSON escapes', 'q"b\\s/f\b\f'],
  ['markup', '<b>Rex</b> &amp;'],
  ['noncharacters', 'a\uFFFEb\uFFFF'],
  ['lone surrogate', 'a\uD800b'],
  ['255 characters', 'n'.repeat(255)],
  ['256 characters', 'n'.repeat(256)],
  ['4,000 non-ASCII characters', 'é'.repeat(4000)],
  ['20,000 characters', 'x'.repeat(20000)],
];

const P53 = 2n ** 53n;
const P63 = 2n ** 63n;
const P31 = 2n ** 31n;

/** Integer boundaries [label, value] of the int64 range. */
export const INT64_BOUNDARIES: readonly (readonly [string, bigint])[] = [
  ['0', 0n],
  ['1', 1n],
  ['-1', -1n],
  ['2^31 - 1', P31 - 1n],
  ['2^31', P31],
  ['2^53 - 1', P53 - 1n],
  ['2^53', P53],
  ['2^53 + 1', P53 + 1n],
  ['-(2^53 + 1)', -(P53 + 1n)],
  ['2^63 - 2', P63 - 2n],
  ['2^63 - 1 (int64 max)', P63 - 1n],
  ['-2^63 (int64 min)', -P63],
  ['-2^63 + 1', -P63 + 1n],
  ['2^63 (just above int64)', P63],
  ['-2^63 - 1 (just below int64)', -P63 - 1n],
  ['2^64', 2n ** 64n],
];

/** Spellings of an integer that are not canonical JSON/decimal text; [label, text]. */
export const NONCANONICAL_NUMBERS: readonly (readonly [string, string])[] = [
  ['1.0', '1.0'],
  ['1e2', '1e2'],
  ['1E+2', '1E+2'],
  ['-0', '-0'],
  ['2^53 + 1 written 9.007199254740993e15', '9.007199254740993e15'],
];

/** Wrong JSON types for a schema (each a negative value for a typed field). */
function wrongTypes(schema: Schema): Sample[] {
  const all: [string, string, JNode][] = [
    ['string', 'a numeric string', str('42')],
    ['integer', 'an integer', num('42')],
    ['number', 'a fraction', num('1.5')],
    ['boolean', 'true', lit('true')],
    ['null', 'null', lit('null')],
    ['array', 'an array', { k: 'arr', items: [str('a')] }],
    ['object', 'an object', obj([['a', str('b')]])],
  ];
  const type = schema.type ?? (schema.enum ? 'string' : undefined);
  return all.filter(([t]) => t !== type).map(([, label, node]) => ({ label, node }));
}

/** Near misses of an enumeration value: case, spaces, prefixes, look-alikes. */
export function nearMisses(value: string): [string, string][] {
  return [
    ['upper case', value.toUpperCase()],
    ['capitalised', value[0].toUpperCase() + value.slice(1)],
    ['leading space', ` ${value}`],
    ['trailing space', `${value} `],
    ['trailing newline', `${value}\n`],
    ['trailing NUL', `${value}\u0000`],
    ['missing last letter', value.slice(0, -1)],
    ['plural', `${value}s`],
    ['Cyrillic look-alike', value.replace(/a/g, '\u0430').replace(/o/g, '\u043E').replace(/e/g, '\u0435')],
    ['fullwidth', [...value].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('')],
  ];
}

/** Boundary and class values of a body field's schema (positive and negative, classified later). */
export function fieldSamples(schema: Schema): Sample[] {
  const out: Sample[] = [];
  if (schema.enum) {
    for (const v of schema.enum) out.push({ label: JSON.stringify(v), node: str(String(v)) });
    const first = String(schema.enum[0]);
    for (const [label, text] of nearMisses(first)) out.push({ label: `${JSON.stringify(first)}, ${label}`, node: str(text) });
    out.push({ label: 'empty string', node: str('') });
    // An enumeration's index, as a number or a string: what an ordinal enum binding takes (Jackson's default).
    out.push({ label: 'the index 0 of the enumeration', node: num('0') }, { label: 'the index 1, as a string', node: str('1') });
  } else if (schema.type === 'integer') {
    for (const [label, v] of INT64_BOUNDARIES) out.push({ label, node: num(v) });
    for (const [label, text] of NONCANONICAL_NUMBERS) out.push({ label, node: num(text) });
    out.push({ label: '0.5', node: num('0.5') }, { label: '1e400', node: num('1e400') });
  } else if (schema.type === 'string') {
    for (const [label, text] of STRING_CLASSES) out.push({ label, node: str(text) });
    out.push({ label: 'Latin-1 and astral, written as \\u escapes', node: str('Ñandú 🐶', true) });
  }
  for (const w of wrongTypes(schema)) out.push(w);
  return out;
}

/** Boundary and class values of a query or path parameter, as the text sent (classified later). */
export function paramSamples(schema: Schema): Sample[] {
  const texts: [string, string][] = [];
  if (schema.enum) {
    for (const v of schema.enum) texts.push([JSON.stringify(v), String(v)]);
    for (const [label, text] of nearMisses(String(schema.enum[0]))) texts.push([`${JSON.stringify(schema.enum[0])}, ${label}`, text]);
  } else if (schema.type === 'integer') {
    const lo = schema.minimum;
    const hi = schema.maximum;
    if (lo !== undefined && hi !== undefined) {
      for (const v of [lo - 1, lo, lo + 1, hi - 1, hi, hi + 1]) texts.push([String(v), String(v)]);
      if (typeof schema.default === 'number') texts.push([`${schema.default} (the default)`, String(schema.default)]);
    }
    for (const [label, v] of INT64_BOUNDARIES) texts.push([label, String(v)]);
    const small = String(lo !== undefined ? Math.max(lo, Math.min(hi ?? 7, 7)) : 7);
    texts.push(
      [`${small} with a plus sign`, `+${small}`],
      [`${small} with leading zeros`, `00${small}`],
      [`${small} with a space`, ` ${small}`],
      [`${small}.0`, `${small}.0`],
      [`${small} in exponent form`, `${small}e0`],
      [`${small} in hexadecimal`, `0x${Number(small).toString(16)}`],
      [`${small} in Arabic-Indic digits`, [...small].map((d) => String.fromCharCode(0x0660 + Number(d))).join('')],
      [`${small} in fullwidth digits`, [...small].map((d) => String.fromCharCode(0xff10 + Number(d))).join('')],
    );
  }
  texts.push(['empty', ''], ['letters', 'abc'], ['outside the BMP', '🐶'], ['NUL', '\u0000']);
  return texts.map(([label, text]) => ({ label, node: str(text) }));
}
