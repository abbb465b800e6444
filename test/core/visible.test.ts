/**
 * Evidence shows what cannot be seen: invisible, format and bidirectional characters in text from a server are written
 * as \u escapes in every writer, so two names that differ only there look different and no server can reorder a
 * report's own text. Curl lines stay exact (bash's $'…' form) and visible.
 */
import { describe, expect, test } from 'vitest';
import { visible } from '../../src/core/visible.ts';
import { shellQuote } from '../../src/results/writers/curl.ts';
import { escapeMarkdown } from '../../src/results/writers/markdown.ts';
import { escapeXml, oneLine } from '../../src/results/writers/common.ts';

describe('visible', () => {
  test.each([
    ['a zero-width space and a byte order mark', 'a\u200Bb\uFEFF', 'a\\u200Bb\\uFEFF'],
    ['a right-to-left override and a pop', 'ab\u202Ecd\u202C', 'ab\\u202Ecd\\u202C'],
    ['a no-break and an em space', 'a\u00A0b\u2003c', 'a\\u00A0b\\u2003c'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['C0 and C1 controls but line breaks and tabs', 'a\u0001b\u0085\tc\nd\re', 'a\\u0001b\\u0085\tc\nd\\u000De'],
    ['a lone surrogate', 'a\uD800b', 'a\\uD800b'],
    ['a tag character outside the BMP', 'a\u{E0041}', 'a\\u{E0041}'],
    ['a variation selector of an emoji', '🏳\uFE0F', '🏳\\uFE0F'],
  ])('%s are written as escapes.', (_what, input, shown) => {
    expect(visible(input)).toBe(shown);
  });

  test('Letters of every script, emoji and combining marks are left as they are.', () => {
    for (const s of ['Ñandú Café', 'Кот 猫', 'כלב קטן', 'Rex 🐶 𝔘', 'Zoe\u0308']) expect(visible(s)).toBe(s);
  });

  test('Two names that differ only by a zero-width character look different in every writer.', () => {
    const [a, b] = ['animal-ab', 'animal-a\u200Bb'];
    for (const show of [oneLine, (s: string) => escapeMarkdown(s), escapeXml]) expect(show(a)).not.toBe(show(b));
  });
});

describe('curl lines', () => {
  test("A body with an invisible character is quoted in bash’s $'…' form, exact and visible.", () => {
    expect(shellQuote('{"name":"a\u200Bb\'c\\\\"}')).toBe(`$'{"name":"a\\u200Bb\\'c\\\\\\\\"}'`);
    expect(shellQuote('x\u{E0041}')).toBe(`$'x\\U000E0041'`);
  });

  test('A plain body keeps single quotes.', () => {
    expect(shellQuote(`{"name":"O'Brien"}`)).toBe(`'{"name":"O'\\''Brien"}'`);
  });
});
