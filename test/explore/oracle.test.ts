import { describe, expect, test } from 'vitest';
import { firstDifference } from '../../src/explore/oracle.ts';

describe('A name that reads back changed says where, in code points', () => {
  test.each([
    ['Zoë', 'Zoe\u0308', ' (first difference at code point 2: read back U+00EB, sent U+0065 U+0308)'],
    ['ab', 'a\u0007b', ' (first difference at code point 1: read back U+0062, sent U+0007 U+0062)'],
    ['a', 'a😀', ' (first difference at code point 1: read back (end), sent U+1F600)'],
  ])('Read back %j for %j, the message names the first differing code points.', (got, sent, want) => {
    expect(firstDifference(got, sent)).toBe(want);
  });

  test('A name that is not a string adds nothing to the message.', () => {
    expect(firstDifference(7, 'x')).toBe('');
    expect(firstDifference(undefined, 'x')).toBe('');
  });
});
