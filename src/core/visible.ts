/**
 * Text a reader can trust: every character that cannot be seen, that looks like another, or that reorders the text
 * around it — controls, format and bidirectional characters (U+200B, U+FEFF, U+202E…), spaces other than U+0020,
 * line and paragraph separators, variation selectors, tags, noncharacters and lone surrogates — written as a \u escape
 * (`\u200B`, `\u{E0041}`). Two names that differ only there then look different, and a server's answer cannot reorder
 * a report's own text. Line breaks and tabs are kept. Every writer that shows text from a server uses it.
 * Pure, ES2017 (bundled for k6: no Unicode property escapes, no lookbehind).
 */

/** Ranges [first, last] of invisible, look-alike or reordering code points (besides C0/C1 controls). */
const RANGES: readonly (readonly [number, number])[] = [
  [0x00a0, 0x00a0], // no-break space
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x0600, 0x0605], // Arabic number signs (format)
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x08e2, 0x08e2],
  [0x115f, 0x1160], // Hangul fillers
  [0x1680, 0x1680], // Ogham space
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian free variation selectors, vowel separator
  [0x2000, 0x200f], // spaces, zero-width characters, LRM, RLM
  [0x2028, 0x202f], // line and paragraph separators, bidi embeddings and overrides, narrow no-break space
  [0x205f, 0x206f], // medium space, word joiner, invisible operators, bidi isolates
  [0x3000, 0x3000], // ideographic space
  [0x3164, 0x3164], // Hangul filler
  [0xfdd0, 0xfdef], // noncharacters
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // byte order mark, zero-width no-break space
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff0, 0xfffb], // specials, interlinear annotations
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d173, 0x1d17a], // musical format controls
  [0xe0000, 0xe0fff], // tags, variation selectors supplement
];

/** Is this code point one a reader cannot see, or one that reorders text (line breaks and tabs excepted)? */
export function isInvisible(cp: number): boolean {
  if (cp < 0x20) return cp !== 0x0a && cp !== 0x09;
  if (cp >= 0x7f && cp <= 0x9f) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true; // a lone surrogate (a pair is read as one code point)
  if ((cp & 0xfffe) === 0xfffe) return true; // U+FFFE, U+FFFF and their counterparts in every plane
  for (const [a, b] of RANGES) if (cp >= a && cp <= b) return true;
  return false;
}

const hex = (cp: number, width: number) => cp.toString(16).toUpperCase().padStart(width, '0');
/** Anything outside printable ASCII, line breaks and tabs: the only text worth scanning. */
const MAYBE = /[^\t\n\x20-\x7e]/;

/** `s` with every invisible, look-alike or reordering character written as a \u escape. */
export function visible(s: string): string {
  if (!MAYBE.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
      out += isInvisible(cp) ? `\\u{${hex(cp, 5)}}` : s[i] + s[i + 1];
      i++;
    } else out += isInvisible(c) ? `\\u${hex(c, 4)}` : s[i];
  }
  return out;
}
