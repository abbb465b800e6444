/**
 * The key never leaks (redaction in every encoding), and configuration errors
 * are one clear ConfigError each.
 */
import { describe, expect, test } from 'vitest';
import { makeRedactor, redactDeep } from '../../src/core/redact.ts';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

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

  test('Deep redaction reaches keys and nested strings.', () => {
    expect(JSON.stringify(redactDeep({ [KEY]: [{ v: KEY }] }, makeRedactor([KEY])))).not.toContain(KEY);
  });
});

describe('configuration', () => {
  test.each([
    [{ ANIMAL_STORE_ENV: 'prod' }, /ANIMAL_STORE_ENV/],
    [{ ANIMAL_STORE_ENV: 'staging' }, /ANIMAL_STORE_STAGING_URL/],
    [{ ANIMAL_STORE_BASE_URL: 'ftp://x/v1', ANIMAL_STORE_API_KEY: 'k' }, /http or https/],
    [{ ANIMAL_STORE_BASE_URL: 'https://u:p@x/v1', ANIMAL_STORE_API_KEY: 'k' }, /credentials/],
    [{ ANIMAL_STORE_BASE_URL: 'https://x/v1' }, /ANIMAL_STORE_API_KEY is required/],
    [{ ANIMAL_STORE_PLAN: 'gold' }, /ANIMAL_STORE_PLAN/],
    [{ ANIMAL_STORE_RPM: '100' }, /only to ANIMAL_STORE_PLAN=enterprise/],
    [{ ANIMAL_STORE_TIMEOUT_MS: '-5' }, /positive integer/],
    [{ ANIMAL_STORE_ALLOW_WRITES: 'maybe' }, /true or false/],
  ])('%j is refused with a clear message.', (env, message) => {
    expect(() => loadConfig({}, env)).toThrow(ConfigError);
    expect(() => loadConfig({}, env)).toThrow(message);
  });

  test('Production defaults to no writes and a Free-key budget; the base URL always wins.', () => {
    const c = loadConfig(
      {},
      {
        ANIMAL_STORE_ENV: 'production',
        ANIMAL_STORE_PRODUCTION_URL: 'https://p.example/v1',
        ANIMAL_STORE_BASE_URL: 'https://b.example/v1/',
        ANIMAL_STORE_API_KEY: 'k',
      },
    );
    expect(c).toMatchObject({ baseUrl: 'https://b.example/v1', allowWrites: false, maxRequests: 1000, plan: 'free' });
    expect(
      loadConfig(
        { 'allow-writes': true },
        { ANIMAL_STORE_ENV: 'production', ANIMAL_STORE_PRODUCTION_URL: 'https://p.example/v1', ANIMAL_STORE_API_KEY: 'k' },
      ).allowWrites,
    ).toBe(true);
  });
});
