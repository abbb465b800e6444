/**
 * Strings at the lengths where counting differs: a length is UTF-16 code units in JavaScript and Java, code points in
 * Python, UTF-8 bytes in Go and in a column sized in bytes, graphemes for a person. A store that checks one and cuts
 * by another keeps another name than it accepted; names on both sides of every common limit, in every script, find
 * it once read back. Pure.
 */
import fc from 'fast-check';
import type { JNode, LengthUnit } from './json-text.ts';

/** Characters of every script, each with its own size in every unit: [script, character]. */
export const SCRIPTS: readonly (readonly [string, string])[] = [
  ['ASCII', 'n'],
  ['Latin', 'é'],
  ['Cyrillic', 'ж'],
  ['Hebrew (right-to-left)', 'ש'],
  ['Arabic (right-to-left)', 'ع'],
  ['Devanagari', 'ह'],
  ['CJK', '猫'],
  ['Hangul', '한'],
  ['combining marks', 'e\u0301'],
  ['emoji (outside the BMP)', '🐶'],
  ['emoji ZWJ sequence', '👩\u200D👧'],
];

/** Limits servers commonly set on a string (a column, a validator, a buffer). */
export const LIMITS: readonly number[] = [32, 50, 64, 100, 128, 200, 255, 256, 500, 1000, 1024];

export const UNITS: readonly LengthUnit[] = ['utf16', 'codepoints', 'utf8', 'graphemes'];

const UNIT_NAMES: Readonly<Record<LengthUnit, string>> = {
  utf16: 'UTF-16 units',
  codepoints: 'code points',
  utf8: 'UTF-8 bytes',
  graphemes: 'graphemes',
};

const encoder = new TextEncoder();
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The length of `s` in `unit`. */
export function lengthIn(s: string, unit: LengthUnit): number {
  if (unit === 'utf16') return s.length;
  if (unit === 'codepoints') return [...s].length;
  if (unit === 'utf8') return encoder.encode(s).length;
  let n = 0;
  for (const _ of segmenter.segment(s)) n++;
  return n;
}

/** Every length of `s`, for people: "120 UTF-16 units, 118 code points, 250 UTF-8 bytes". */
export function lengths(s: string): string {
  return UNITS.map((u) => `${lengthIn(s, u)} ${UNIT_NAMES[u]}`).join(', ');
}

/**
 * `head` followed by `ch` as often as it fits, then ASCII letters, so that the whole is exactly `n` long in `unit`
 * (an ASCII letter adds one in every unit); `head` alone when it is already longer.
 */
export function fitted(head: string, ch: string, unit: LengthUnit, n: number): string {
  const size = lengthIn(ch, unit) || 1;
  const room = n - lengthIn(head, unit);
  if (room <= 0) return head;
  // Repeating `ch` may join graphemes or change the count by more than its size: measure, then pad.
  let s = head + ch.repeat(Math.max(0, Math.floor(room / size) - 1));
  while (lengthIn(s + ch, unit) <= n) s += ch;
  while (lengthIn(s, unit) < n) s += 'n';
  return s;
}

/** The label of a fitted length, for people. */
export const fitLabel = (script: string, unit: LengthUnit, n: number): string => `a name of ${n} ${UNIT_NAMES[unit]} in ${script}`;

/** A name node fitted to `n` in `unit` once prefixed (materialize fits it), made of `ch`. */
export const fittedName = (ch: string, unit: LengthUnit, n: number): JNode => ({
  k: 'str',
  value: ch,
  named: 'prefixed',
  fit: { unit, n },
});

/** Names on both sides of a limit, counted in one unit, in one script: shrinks towards the first script, unit and limit. */
export const fittedNameArb: fc.Arbitrary<{ node: JNode; label: string }> = fc
  .record({
    script: fc.nat(SCRIPTS.length - 1),
    unit: fc.nat(UNITS.length - 1),
    limit: fc.nat(LIMITS.length - 1),
    delta: fc.integer({ min: -1, max: 1 }),
  })
  .map(({ script, unit, limit, delta }) => {
    const [name, ch] = SCRIPTS[script];
    const n = LIMITS[limit] + delta;
    return { node: fittedName(ch, UNITS[unit], n), label: fitLabel(name, UNITS[unit], n) };
  });

/** The coverage cases: just over 255 — the commonest limit — in each unit, each in a script where the units differ (and 255 bytes). */
export function boundaryNames(): { node: JNode; label: string }[] {
  const cases: [string, string, LengthUnit][] = [
    ['CJK', '猫', 'utf8'],
    ['Latin', 'é', 'utf8'],
    ['emoji (outside the BMP)', '🐶', 'utf16'],
    ['emoji (outside the BMP)', '🐶', 'codepoints'],
    ['combining marks', 'e\u0301', 'graphemes'],
  ];
  const out = cases.map(([script, ch, unit]) => ({ node: fittedName(ch, unit, 256), label: fitLabel(script, unit, 256) }));
  return [{ node: fittedName('猫', 'utf8', 255), label: fitLabel('CJK', 'utf8', 255) }, ...out];
}
