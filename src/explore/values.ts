/**
 * Boundary and class values of a schema's type — the coverage phase sends each
 * once, the generators mix them into random values. Strings: every class of
 * Unicode that breaks real servers; integers: the int64 extremes and their
 * neighbours, 2^53 ± 1, just outside int64, non-canonical spellings; enums:
 * each value and its near misses; any type: the wrong JSON types. Whether a
 * value is valid is not decided here but by the schema (classify.ts).
 */
import fc from 'fast-check';
import { lit, num, obj, str, type JNode } from './json-text.ts';
import { readLeniently } from './lenient-json.ts';
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

/**
 * Strings whose whole text spells another value (RFC 8259 §3, §6: a number in any form the grammar allows, a literal,
 * an array or an object; and what a loose reader takes for a number or a date — leading zeros, a sign, ISO 8601): a
 * class of string values that a writer or reader guessing types (PHP's JSON_NUMERIC_CHECK, YAML, a CSV export, a
 * spreadsheet) turns into another type. One example per kind; `jsonSpelledArb` reaches the rest.
 */
export const JSON_SPELLED: readonly (readonly [string, string])[] = [
  ['an integer', '1984'],
  ['an integer with leading zeros', '007'],
  ['a negative number with a fraction and an exponent', '-3.5e2'],
  ['the literal true', 'true'],
  ['the literal null', 'null'],
  ['an array', '[1,2]'],
  ['an object', '{}'],
  ['a date', '2024-02-29'],
];

/** A JSON number as its grammar writes it (§6): an optional minus, an integer part, a fraction, an exponent. */
const numberTextArb: fc.Arbitrary<string> = fc.stringMatching(/^-?(0|[1-9][0-9]{0,18})(\.[0-9]{1,4})?([eE][+-]?[0-9]{1,3})?$/);

/** Any string of the class JSON_SPELLED is an example of (shrinks towards the simplest number). */
export const jsonSpelledArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: numberTextArb },
  { weight: 1, arbitrary: fc.stringMatching(/^[+]?0{1,3}[0-9]{1,4}(\.[0-9]{0,2})?$/) },
  { weight: 2, arbitrary: fc.constantFrom('true', 'false', 'null') },
  { weight: 1, arbitrary: fc.json({ maxDepth: 1, depthSize: 'xsmall' }) },
  {
    weight: 1,
    arbitrary: fc
      .date({ min: new Date('1900-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  },
);

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

/** One way to miss a valid value by a little, derived from the grammar of the value (text or integer). */
interface Mutation {
  label: string;
  /** The grammar it applies to: any value's text, an enumeration's words, or an integer's digits. */
  on: 'any' | 'text' | 'integer';
  /** The value's text mutated at position `at` (taken modulo the text's length). */
  apply(t: string, at: number): string;
  /** Left to the generators: the coverage cases send the others (a near miss of the same kind is sent there). */
  generatedOnly?: true;
}

const at = (t: string, i: number, extra = 0) => (t.length + extra ? i % (t.length + extra) : 0);
const swapCase = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  a: '\u0430',
  e: '\u0435',
  o: '\u043E',
  p: '\u0440',
  c: '\u0441',
  i: '\u0456',
  '0': 'O',
  '1': 'l',
};
const mapChars = (t: string, f: (c: string) => string) => [...t].map(f).join('');

/** Every operator a near miss is made of: case, one character added, left out or replaced, whitespace, sign, spellings. */
export const MUTATIONS: readonly Mutation[] = [
  { label: 'upper case', on: 'text', apply: (t) => t.toUpperCase() },
  { label: 'capitalised', on: 'text', apply: (t) => t.slice(0, 1).toUpperCase() + t.slice(1) },
  {
    label: 'one letter in the other case',
    on: 'text',
    generatedOnly: true,
    apply: (t, i) => t.slice(0, at(t, i)) + swapCase(t[at(t, i)] ?? '') + t.slice(at(t, i) + 1),
  },
  { label: 'one character left out', on: 'any', apply: (t, i) => t.slice(0, at(t, i)) + t.slice(at(t, i) + 1) },
  { label: 'one letter added', on: 'text', apply: (t, i) => t.slice(0, at(t, i, 1)) + 's' + t.slice(at(t, i, 1)) },
  { label: 'one digit added', on: 'integer', generatedOnly: true, apply: (t, i) => t.slice(0, at(t, i, 1)) + '0' + t.slice(at(t, i, 1)) },
  {
    label: 'one character replaced',
    on: 'any',
    apply: (t, i) => t.slice(0, at(t, i)) + (/\d/.test(t[at(t, i)] ?? '') ? 'x' : t[at(t, i)] === 'a' ? 'e' : 'a') + t.slice(at(t, i) + 1),
  },
  {
    label: 'a look-alike character',
    on: 'any',
    apply: (t, i) => t.slice(0, at(t, i)) + (LOOK_ALIKE[t[at(t, i)] ?? ''] ?? '\u0430') + t.slice(at(t, i) + 1),
  },
  {
    label: 'fullwidth',
    on: 'any',
    apply: (t) => mapChars(t, (c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)),
  },
  { label: 'a leading space', on: 'any', apply: (t) => ` ${t}` },
  { label: 'a trailing space', on: 'any', apply: (t) => `${t} ` },
  { label: 'a trailing line feed', on: 'any', apply: (t) => `${t}\n` },
  { label: 'a tab inside', on: 'any', generatedOnly: true, apply: (t, i) => t.slice(0, at(t, i, 1)) + '\t' + t.slice(at(t, i, 1)) },
  { label: 'a no-break space', on: 'any', apply: (t) => `${t}\u00A0` },
  { label: 'a trailing NUL', on: 'any', apply: (t) => `${t}\u0000` },
  {
    label: 'a zero-width space inside',
    on: 'any',
    generatedOnly: true,
    apply: (t, i) => t.slice(0, at(t, i, 1)) + '\u200B' + t.slice(at(t, i, 1)),
  },
  { label: 'with a plus sign', on: 'integer', apply: (t) => (t.startsWith('-') ? t : `+${t}`) },
  { label: 'with a minus sign', on: 'integer', generatedOnly: true, apply: (t) => (t.startsWith('-') ? t.slice(1) : `-${t}`) },
  { label: 'with leading zeros', on: 'integer', apply: (t) => t.replace(/^(-?)/, '$100') },
  { label: 'in exponent form', on: 'integer', apply: (t) => `${t}e0` },
  { label: 'with a fraction of zero', on: 'integer', apply: (t) => `${t}.0` },
  {
    label: 'in hexadecimal',
    on: 'integer',
    apply: (t) =>
      /^-?\d{1,15}$/.test(t) ? t.replace(/^(-?)(\d+)$/, (_, s: string, d: string) => `${s}0x${Number(d).toString(16)}`) : `0x${t}`,
  },
  {
    label: 'in Arabic-Indic digits',
    on: 'integer',
    apply: (t) => mapChars(t, (c) => (/\d/.test(c) ? String.fromCharCode(0x0660 + Number(c)) : c)),
  },
  {
    label: 'with a thousands separator',
    on: 'integer',
    apply: (t) => (/\d{4}$/.test(t) ? t.replace(/(\d)(\d{3})$/, '$1,$2') : t.replace(/^(-?\d)/, '$1,')),
  },
];

/** The values a near miss starts from: each enumeration value, or an integer's bounds and their neighbours (its boundaries ±1). */
export function nearBases(schema: Schema): string[] {
  if (schema.enum) return schema.enum.map(String);
  if (schema.type !== 'integer') return [];
  const { minimum: lo, maximum: hi } = schema;
  const out = [lo, hi].flatMap((b) => (b === undefined ? [] : [b, b - 1, b + 1])).map(String);
  return out.length ? out : ['7'];
}

/** The mutations of an integer's text (its digits' grammar, and any text's). */
const INTEGER_MUTATIONS = MUTATIONS.filter((m) => m.on === 'any' || m.on === 'integer');

/**
 * The `k`-th near miss of an id the server holds (a pet the run created), at position `at`: `12.0`, `12e0`, `+12`,
 * `12 `, `1,2`… — what a reader taking the leading digits, or a lenient number parser, reads as that pet. A text that
 * cannot be a path segment of its own (a one-digit id left out) is the id with a fraction of zero instead.
 */
export function nearMissOfId(id: string, k: number, at: number): [string, string] {
  const m = INTEGER_MUTATIONS[k % INTEGER_MUTATIONS.length];
  const text = m.apply(id, at);
  return text === '' || text === id ? [`${id}, with a fraction of zero`, `${id}.0`] : [`${id}, ${m.label}`, text];
}

/**
 * The near misses of a held id the coverage cases send: its shifts (ID_SHIFTS), then one per mutation of the integer's own grammar (a sign, leading
 * zeros, an exponent, a fraction, hexadecimal, other digits, a separator); the rest are left to the generators.
 */
export function heldIdNearMisses(id: string): [string, string][] {
  const spelled = INTEGER_MUTATIONS.filter((m) => m.on === 'integer' && !m.generatedOnly).map((m, k) =>
    nearMissOfId(id, INTEGER_MUTATIONS.indexOf(m), k * 3 + 1),
  );
  // The shifts first: no other case sends an id past int64 or 2^32 away from a held one (issue 39), and a run whose
  // coverage part spent more on reducing failures than usual cuts this list from its end.
  return [...ID_SHIFTS.map((_, k) => shiftedId(id, k)), ...spelled];
}

/**
 * Shifts of a held id by 2^32 (another int64: a lookup by the low 32 bits meets the held pet) and by ±2^64 (outside
 * int64: a parser that ignores overflow reads the held id). Each is another id: a 200 must carry it (GET-404-UNKNOWN).
 */
const ID_SHIFTS: readonly [string, bigint][] = [
  ['+ 2^32', 2n ** 32n],
  ['+ 2^64', 2n ** 64n],
  ['- 2^64', -(2n ** 64n)],
];

/** The `k`-th shift of a held id (modulo their number): [label, text]. */
export function shiftedId(id: string, k: number): [string, string] {
  const [label, by] = ID_SHIFTS[k % ID_SHIFTS.length];
  return [`${id} ${label}`, (BigInt(id) + by).toString()];
}

/** The mutations that apply to a schema's values. */
export const mutationsFor = (schema: Schema): Mutation[] =>
  MUTATIONS.filter((m) => m.on === 'any' || m.on === (schema.enum ? 'text' : schema.type === 'integer' ? 'integer' : 'text'));

/**
 * Near misses of a schema's values, derived from their grammar: each mutation once, applied to the bases in turn and at
 * a position that moves from case to case; [label, text] (the schema classifies each: most are invalid, a few valid).
 */
export function nearMisses(schema: Schema): [string, string][] {
  const bases = nearBases(schema);
  if (!bases.length) return [];
  // A bounded integer's spellings go on the value just above its range: a server that reads the spelling must still
  // refuse or clamp it (a value just inside is one of its own boundary cases).
  const first = schema.type === 'integer' && schema.maximum !== undefined ? [String(schema.maximum + 1)] : bases;
  return mutationsFor(schema)
    .filter((m) => !m.generatedOnly)
    .map((m, k) => {
      const base = (m.on === 'integer' ? first : bases)[k % (m.on === 'integer' ? first : bases).length];
      return [`${JSON.stringify(base)}, ${m.label}`, m.apply(base, k * 3 + 1)] as [string, string];
    });
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Near misses of a number written into a JSON text: each that is a JSON number (another value), and one of each kind
 * the JSON grammar refuses — those an extension reads, one per extension (`+7`, `07`, `0x7`), and one no parser reads
 * (fullwidth and Arabic-Indic digits alike: the parser refuses them before any integer conversion sees them).
 */
function distinctInJson(samples: readonly Sample[]): Sample[] {
  const seen = new Set<string>();
  return samples.filter((x) => {
    const text = x.node.k === 'num' ? x.node.text.trim() : '';
    if (JSON_NUMBER.test(text)) return true;
    const kind = readLeniently(`[${text}]`)?.extensions.join(', ') ?? 'no reading';
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

/** Boundary and class values of a body field's schema (positive and negative, classified later). */
export function fieldSamples(schema: Schema): Sample[] {
  const out: Sample[] = [];
  const near = (node: (t: string) => JNode) => nearMisses(schema).map(([label, text]) => ({ label, node: node(text) }));
  if (schema.enum) {
    for (const v of schema.enum) out.push({ label: JSON.stringify(v), node: str(String(v)) });
    out.push(...near(str), { label: 'empty string', node: str('') });
    // An enumeration's index, as a number or a string: what an ordinal enum binding takes (Jackson's default).
    out.push({ label: 'the index 0 of the enumeration', node: num('0') }, { label: 'the index 1, as a string', node: str('1') });
  } else if (schema.type === 'integer') {
    for (const [label, v] of INT64_BOUNDARIES) out.push({ label, node: num(v) });
    for (const [label, text] of NONCANONICAL_NUMBERS) out.push({ label, node: num(text) });
    // An integer's near misses written into the JSON text as they are: some are JSON (another value), some only a
    // JSON5 or Jackson extension reads (+7, 07, 0x7: latitude), some no reading at all.
    out.push({ label: '0.5', node: num('0.5') }, { label: '1e400', node: num('1e400') }, ...distinctInJson(near(num)));
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
  if (schema.enum) for (const v of schema.enum) texts.push([JSON.stringify(v), String(v)]);
  if (schema.type === 'integer') {
    const bounded = schema.minimum !== undefined && schema.maximum !== undefined;
    // A bounded integer's boundaries ±1 are its near misses' bases; an int64's are among INT64_BOUNDARIES.
    if (bounded) for (const b of nearBases(schema)) texts.push([b, b]);
    if (typeof schema.default === 'number') texts.push([`${schema.default} (the default)`, String(schema.default)]);
    for (const [label, v] of INT64_BOUNDARIES) texts.push([label, String(v)]);
  }
  texts.push(...nearMisses(schema));
  texts.push(['empty', ''], ['letters', 'abc'], ['outside the BMP', '🐶'], ['NUL', '\u0000']);
  return texts.map(([label, text]) => ({ label, node: str(text) }));
}
