/**
 * fast-check arbitraries derived from the operations' schemas (model.ts): valid
 * values of each schema, wrong ones (another JSON type, an integer outside
 * int64, a near miss of an enumeration value), whole request drafts for every
 * operation, and the NewPet of the stateful phase. Strings mix any Unicode
 * (astral and lone surrogates included) with the classes of values.ts, so
 * shrinking ends on the smallest string that still fails.
 */
import fc from 'fast-check';
import { isPathSegment, wellFormed } from './classify.ts';
import { INT64_MAX_DIGITS, INT64_MIN_DIGITS } from '../core/json.ts';
import { lit, num, obj, str, withProp, type JNode } from './json-text.ts';
import { NAME_FIELD, type Schema } from './model.ts';
import { INT64_BOUNDARIES, mutationsFor, nearBases, paramSamples, STRING_CLASSES } from './values.ts';
import { fittedNameArb } from './strings.ts';

const INT64_MIN = BigInt(INT64_MIN_DIGITS);
const INT64_MAX = BigInt(INT64_MAX_DIGITS);

/** Characters that break real servers, one unit each (for strings made of them only). */
const SPECIAL_UNITS = [
  'é',
  'ß',
  'e\u0301',
  'ש',
  '\u202E',
  '🐶',
  '𝔘',
  '\u200D',
  '\uFEFF',
  '\u00A0',
  '\u0000',
  '\u0007',
  '\n',
  '\u0085',
  '\u2028',
  '"',
  '\\',
  '/',
  "'",
  '<',
  '\uFFFF',
  '\uD800',
];

/**
 * Any code point, lone surrogates included; shrinks towards ' '. fast-check's own unit 'binary' builds a table of
 * every code point when it is first made: about 0.6 s of CPU in every process that imports this module.
 */
const anyCodePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff }).map((i) => String.fromCodePoint((i + 0x20) % 0x110000));

const shortArms = [
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 6 }) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...SPECIAL_UNITS), maxLength: 5 }) },
];

/** Any short text: printable ASCII, any grapheme, any code point, or the special units (parameters: a URL stays far below any server's limit). */
export const shortTextArb: fc.Arbitrary<string> = fc.oneof({ withCrossShrink: true }, ...shortArms);

/** Any text: the short ones, or a whole class sample (long ones included). */
export const textArb: fc.Arbitrary<string> = fc.oneof({ withCrossShrink: true }, ...shortArms, {
  weight: 1,
  arbitrary: fc.constantFrom(...STRING_CLASSES.map(([, s]) => s)),
});

/** A positive int64 of any magnitude, each bit length as likely as the others (a uniform draw almost never lands below 2^53). */
export const magnitudeArb: fc.Arbitrary<bigint> = fc
  .tuple(fc.integer({ min: 0, max: 62 }), fc.bigInt(0n, 2n ** 62n - 1n))
  .map(([k, r]) => 2n ** BigInt(k) + (r % 2n ** BigInt(k))); // shrinks towards 1

// Cross shrink: a failing value of any arm is also tried as a value of the first (small numbers), so counterexamples end small.
const bigintArb = fc.oneof(
  { withCrossShrink: true },
  { weight: 2, arbitrary: fc.tuple(magnitudeArb, fc.boolean()).map(([v, neg]) => (neg ? -v : v)) },
  { weight: 3, arbitrary: fc.bigInt(INT64_MIN, INT64_MAX) },
  { weight: 2, arbitrary: fc.bigInt(-1000n, 1000n) },
  { weight: 2, arbitrary: fc.constantFrom(...INT64_BOUNDARIES.map(([, v]) => v).filter((v) => v >= INT64_MIN && v <= INT64_MAX)) },
);

/** An int64, mostly canonical, sometimes spelled `N.0` or `Ne0` (still an integer by JSON Schema); shrinks to the canonical spelling. */
const int64NodeArb: fc.Arbitrary<JNode> = fc
  .tuple(bigintArb, fc.nat(9))
  .map(([v, k]) => num(k === 9 ? `${v}.0` : k === 8 ? `${v}e0` : String(v)));

function integerArb(schema: Schema): fc.Arbitrary<JNode> {
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }).map((n) => num(String(n)));
  return int64NodeArb;
}

/** A value valid by `schema`. `named`: the string is the pet's name (the run's prefix is added when sent). */
export function valueArb(schema: Schema, named = false): fc.Arbitrary<JNode> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map((v) => str(String(v))));
  if (schema.type === 'integer') return integerArb(schema);
  if (schema.type === 'string') {
    const text = fc.tuple(textArb, fc.nat(9)).map(([s, k]): JNode => ({
      k: 'str',
      value: s,
      ...(k === 9 ? { escaped: true } : {}),
      ...(named ? { named: 'prefixed' as const } : {}),
    }));
    // A name at a length where UTF-16 units, code points and UTF-8 bytes disagree, one time in eight.
    return named
      ? fc.oneof({ withCrossShrink: true }, { weight: 7, arbitrary: text }, { weight: 1, arbitrary: fittedNameArb.map((f) => f.node) })
      : text;
  }
  if (schema.type === 'object') return objectArb(schema);
  return fc.constant(lit('null'));
}

/** Unknown property names a client might add (never `id`: the id specs judge that one; never a case variant of a known one, which case-insensitive binders read as that property). */
const EXTRA_NAMES = ['nickname', 'tags', 'color', 'x-debug'];

export function objectArb(schema: Schema): fc.Arbitrary<JNode> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const parts = props.map(([k, s]) => {
    const v = valueArb(s, k === NAME_FIELD);
    // An optional property is there two times in three; shrinking drops it.
    return required.has(k)
      ? v.map((x) => [[k, x]] as [string, JNode][])
      : fc.option(v, { freq: 3, nil: undefined }).map((x) => (x ? ([[k, x]] as [string, JNode][]) : []));
  });
  // An unknown property one time in ten; shrinking drops it.
  const extra = fc.oneof(
    { withCrossShrink: true },
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...EXTRA_NAMES), shortTextArb) },
  );
  return fc.tuple(fc.tuple(...parts), extra).map(([ps, x]) => obj([...ps.flat(), ...(x ? [[x[0], str(x[1])] as [string, JNode]] : [])]));
}

/**
 * A near miss of one of a schema's valid values (an enumeration value, an integer's bounds and their neighbours):
 * one mutation of its grammar (values.ts: case, one character added, left out or replaced, whitespace, sign, leading
 * zeros, exponent and other spellings) at any position; shrinks towards the first value, the first mutation.
 */
export function nearMissArb(schema: Schema): fc.Arbitrary<string> {
  // A bounded integer's value just above its range twice as often: a spelling a server reads must still be range-checked.
  const outer = schema.type === 'integer' && schema.maximum !== undefined ? [String(schema.maximum + 1)] : [];
  const bases = [...outer, ...nearBases(schema)];
  const ms = mutationsFor(schema);
  if (!bases.length || !ms.length) return fc.constant('');
  return (
    fc
      .record({
        base: fc.nat(bases.length - 1),
        m: fc.nat(ms.length - 1),
        at: fc.nat(40),
        twice: fc.option(fc.nat(ms.length - 1), { freq: 4 }),
      })
      .map(({ base, m, at, twice }) => {
        const once = ms[m].apply(bases[base], at);
        return twice === null ? once : ms[twice].apply(once, at + 1);
      })
      // Two mutations may undo each other: a near miss is never one of the values it starts from.
      .filter((t) => !bases.includes(t))
  );
}

/** A value `schema` refuses: another JSON type, an integer outside int64 or a fraction, a near miss of an enumeration value. */
export function wrongArb(schema: Schema): fc.Arbitrary<JNode> {
  const types: JNode[] = [lit('null'), lit('true'), { k: 'arr', items: [] }, obj([])];
  // An enumeration's index (as a number or a string): what an ordinal enum binding takes.
  if (schema.enum) types.push(num('0'), num('1'), str('2'));
  if (schema.type !== 'string' && !schema.enum) types.push(str('42'));
  if (schema.type !== 'integer') types.push(num('42'));
  const options: fc.Arbitrary<JNode>[] = [fc.constantFrom(...types)];
  if (schema.enum) options.push(nearMissArb(schema).map((t) => str(t)));
  if (schema.type === 'integer')
    options.push(
      fc.oneof(fc.bigInt(INT64_MAX + 1n, 2n ** 70n), fc.bigInt(-(2n ** 70n), INT64_MIN - 1n)).map(num),
      fc
        .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 99 }))
        .map(([a, b]) => num(`${a}.${String(b).padStart(2, '0').replace(/0$/, '5')}`)),
    );
  return fc.oneof(...options);
}

/**
 * A valid object with one member near a valid value of its own (an enumeration's or an integer's): the near miss
 * written into the JSON text as it is — another value, a spelling only a JSON5 or Jackson extension reads (latitude),
 * or no reading at all; the schema and the grammar class it.
 */
export function nearMemberArb(schema: Schema): fc.Arbitrary<JNode> {
  const members = Object.entries(schema.properties ?? {}).filter(([, s]) => s.enum || s.type === 'integer');
  if (!members.length) return objectArb(schema);
  return fc
    .constantFrom(...members)
    .chain(([k, s]) => fc.tuple(objectArb(schema), nearMissArb(s)).map(([o, t]) => withProp(o, k, s.enum ? str(t) : num(t))));
}

/** A body `schema` (an object schema) refuses: a required property missing, one property wrong, another root type, or cut-off JSON. */
export function wrongBodyArb(schema: Schema): fc.Arbitrary<JNode> {
  const valid = objectArb(schema);
  const props = Object.entries(schema.properties ?? {});
  return fc.oneof(
    fc.tuple(valid, fc.constantFrom(...(schema.required ?? []))).map(([o, k]) => withProp(o, k, undefined)),
    fc.constantFrom(...props).chain(([k, s]) => fc.tuple(valid, wrongArb(s)).map(([o, w]) => withProp(o, k, w))),
    valid.map((o): JNode => ({ k: 'arr', items: [o] })),
    valid.map((o): JNode => ({ k: 'cut', of: o })),
  );
}

/** A parameter's text: valid, a boundary or class value, any text, or absent when optional. */
export function paramArb(schema: Schema, required: boolean, inPath = false): fc.Arbitrary<string | undefined> {
  let valid: fc.Arbitrary<string>;
  if (schema.enum) valid = fc.constantFrom(...schema.enum.map(String));
  else if (schema.minimum !== undefined && schema.maximum !== undefined)
    valid = fc.integer({ min: schema.minimum, max: schema.maximum }).map(String);
  else valid = fc.oneof(fc.bigInt(1n, INT64_MAX), magnitudeArb).map(String);
  const other = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...paramSamples(schema).map((s) => (s.node.k === 'str' ? s.node.value : ''))) },
    { weight: 2, arbitrary: nearMissArb(schema) },
    { weight: 1, arbitrary: shortTextArb },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.bigInt(INT64_MIN, INT64_MAX), fc.constantFrom('', '+', '0', ' '))
        .map(([v, p]) => (v < 0n ? String(v) : `${p}${v}`)),
    },
  );
  const arms = [
    { weight: 5, arbitrary: valid as fc.Arbitrary<string | undefined> },
    // A URL carries UTF-8 only: a lone surrogate cannot be sent, so parameters never hold one.
    { weight: 3, arbitrary: other.map(wellFormed).filter((s) => !inPath || isPathSegment(s)) as fc.Arbitrary<string | undefined> },
  ];
  if (!required) arms.push({ weight: 2, arbitrary: fc.constant(undefined) });
  return fc.oneof(...arms);
}

/** Letters of other scripts, one of them repeated: names of any length in any script (shrinking shortens them). */
const SCRIPTS = ['é', 'ß', 'ж', '猫', 'ש', 'ع', 'ह', '한', '🐶', 'e\u0301'];
const longNameArb: fc.Arbitrary<JNode> = fc
  .tuple(fc.constantFrom(...SCRIPTS), fc.integer({ min: 1, max: 300 }))
  .map(([c, n]) => ({ k: 'str', value: c.repeat(n), named: 'prefixed' }));

/**
 * A NewPet of a stored sequence: the status given or left out (the server's default then says where it is listed),
 * the name any generated one or a long one in another script.
 */
function seqPetArb(body: Schema): fc.Arbitrary<JNode> {
  return fc
    .tuple(objectArb(body), fc.option(longNameArb, { freq: 3, nil: undefined }))
    .map(([o, name]) => (name ? withProp(o, NAME_FIELD, name) : o));
}

/**
 * The stateful phase's input, a sequence: the NewPets created one after the other, then the page size every read of
 * the list uses (the largest most often: a page that lists every match must show them; shrinking goes towards it).
 * Shrinking drops pets and simplifies each, as a sequence.
 */
export function sequenceArb(body: Schema, limit: Schema): fc.Arbitrary<{ pets: JNode[]; limit: number }> {
  const max = limit.maximum ?? 100;
  const min = limit.minimum ?? 1;
  return fc.record({
    pets: fc.array(seqPetArb(body), { minLength: 1, maxLength: 4 }),
    limit: fc.nat(max - min).map((k) => max - (k % 4 === 0 ? k : 0)),
  });
}
