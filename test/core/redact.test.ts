/**
 * The key never leaks: redaction in every encoding it may be echoed in.
 */
import { describe, expect, test } from 'vitest';
import { makeRedactor, redactDeep } from '../../src/core/redact.ts';

const KEY = 'as_live_k3y/with+odd=chars';

describe('redaction', () => {
  test.each([
    ['plain', `Bearer ${KEY}`],
    ['URL-encoded', `?k=${encodeURIComponent(KEY)}`],
    ['JSON-escaped', JSON.stringify({ k: KEY })],
    ['base64', btoa(KEY)],
    ['upper-cased', KEY.toUpperCase()],
  ])('The key is removed when it appears %s.', (_how, text) => {
    const out = makeRedactor([KEY])(text);
    expect(out).toContain('[REDACTED]');
    expect(out.toLowerCase()).not.toContain(KEY.toLowerCase());
  });

  test.each([
    ['truncated by one character', `Bearer ${KEY.slice(0, -1)}`, KEY.slice(0, -1)],
    ['with its last character changed', `Bearer ${KEY.slice(0, -1)}x`, KEY.slice(0, -1)],
    ['with a suffix', `Bearer ${KEY}0`, KEY],
    ['under Basic as key:', `Basic ${btoa(`${KEY}:`)}`, btoa(KEY.slice(0, 24))],
  ])('A near-miss of the key the suite sends is removed too when it is echoed %s.', (_how, text, secretPart) => {
    const out = makeRedactor([KEY])(text);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toContain(secretPart);
  });

  test.each(['', 'x', 'xy', 'Bearer ', 'Token '])(
    'The key inside a longer text base64-encoded as a whole (%j before it) is removed, whatever its alignment.',
    (prefix) => {
      const out = makeRedactor([KEY])(btoa(`${prefix}${KEY}`));
      expect(out).toContain('[REDACTED]');
      // What is left is the prefix's groups and at most the two groups the key shares with its neighbours.
      expect(out.replace('[REDACTED]', '').length).toBeLessThanOrEqual(Math.ceil(prefix.length / 3) * 4 + 8);
    },
  );

  test('Deep redaction reaches keys and nested strings.', () => {
    expect(JSON.stringify(redactDeep({ [KEY]: [{ v: KEY }] }, makeRedactor([KEY])))).not.toContain(KEY);
  });
});
