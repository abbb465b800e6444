/**
 * The hygiene checks on single exchanges: a credential reflected in any case
 * or encoding the suite sends (raw, Bearer, Basic), in a body or a header, is
 * a warning reported once per run and place; short tokens and ordinary
 * WWW-Authenticate challenges are no reflection; a deprecation signal on
 * listPets or createPet warns once per operation.
 */
import { describe, expect, test } from 'vitest';
import { credentialReflectionCheck, deprecationElsewhereCheck } from '../../src/checks/hygiene.ts';
import { credentialSecrets, reflections } from '../../src/core/sections/hygiene/rules.ts';
import type { CheckSession, ResponseCheck } from '../../src/checks/types.ts';
import type { ApiExchange } from '../../src/http/client.ts';
import type { Outcome } from '../../src/results/types.ts';

const KEY = 'sk_live_4f9a2c7e1b8d3f60';
const b64 = (s: string) => btoa(s).replace(/=+$/, '');
const basic = `Basic ${btoa(`${KEY}:`)}`;

function exchange(authorization: string | undefined, res: { headers?: Record<string, string>; body?: string }, operation = 'getPet') {
  const bodyText = res.body ?? '{}';
  return {
    api: { operation, auth: authorization === `Bearer ${KEY}` ? 'valid' : { authorization } },
    request: { method: 'GET', url: 'http://x/v1/pets/1', headers: authorization === undefined ? {} : { authorization } },
    response: { status: 401, headers: res.headers ?? {}, bodyText, bodyBytes: bodyText.length, truncated: false },
    startedAt: 0,
    durationMs: 1,
  } as unknown as ApiExchange;
}

function run(check: ResponseCheck, exchanges: ApiExchange[], session: CheckSession = { dayMs: 86_400_000 }) {
  const out: { outcome: Outcome; title: string; message: string; actual?: string }[] = [];
  for (const ex of exchanges)
    check.run({
      ex,
      session,
      report: ({ outcome, title, message, evidence }) => void out.push({ outcome, title, message, actual: evidence?.actual }),
    });
  return out;
}

const outcomes = (auth: string, res: { headers?: Record<string, string>; body?: string }) =>
  run(credentialReflectionCheck, [exchange(auth, res)]).map((f) => f.outcome);

describe('A reflected credential', () => {
  test.each([
    ['the Bearer key, raw, in an Error message', `Bearer ${KEY}`, { body: `{"message":"bad key Bearer ${KEY}"}` }],
    ['the Bearer key upper-cased', `Bearer ${KEY}`, { body: `{"message":"${KEY.toUpperCase()}"}` }],
    ['the Bearer key URL-encoded in a Location', `Bearer ${KEY}`, { headers: { location: `/login?k=${encodeURIComponent(`${KEY}/`)}` } }],
    ['the whole Authorization value base64-encoded in a header', `Bearer ${KEY}`, { headers: { 'x-debug-auth': btoa(`Bearer ${KEY}`) } }],
    ['the Basic credential as sent', basic, { body: `{"message":"${basic}"}` }],
    ['the Basic credential decoded', basic, { body: `{"message":"user ${KEY}: denied"}` }],
    ['a key sent raw, without a scheme', KEY, { headers: { 'x-echo': KEY } }],
    ['a made-up token of a near-miss', `Bearer ${KEY.slice(0, -1)}x`, { body: `"${KEY.slice(0, -1)}x"` }],
  ])('%s is a warning.', (_what, auth, res) => {
    expect(outcomes(auth, res)).toEqual(['warn']);
  });

  test.each([
    ['a response that does not mention it', `Bearer ${KEY}`, { body: '{"code":"unauthorized","message":"Missing or invalid API key."}' }],
    ['a WWW-Authenticate challenge naming the scheme', `Bearer ${KEY}`, { headers: { 'www-authenticate': 'Bearer realm="animal-store"' } }],
    ['Vary: Authorization', `Bearer ${KEY}`, { headers: { vary: 'Authorization' } }],
  ])('%s is a pass.', (_what, auth, res) => {
    expect(outcomes(auth, res)).toEqual(['pass']);
  });

  test.each([
    ['an empty Bearer token', 'Bearer '],
    ['a bare Bearer scheme', 'Bearer'],
    ['a token shorter than 8 characters', 'Bearer short'],
  ])('%s is not looked for (it would match ordinary text), so nothing is judged.', (_what, auth) => {
    expect(credentialSecrets(auth)).toEqual([]);
    expect(outcomes(auth, { body: `{"message":"${auth}"}` })).toEqual([]);
  });

  test('The Basic credential yields the token, the decoded pair and the user-id, never shorter secrets.', () => {
    expect(credentialSecrets(basic).map((s) => s.what)).toEqual([
      'the Basic credential',
      'the decoded Basic credential',
      'the Basic user-id',
    ]);
  });

  test('Each place is reported once per run: a body and a header both reflecting, over many responses, give two warnings and passes for clean ones.', () => {
    const session: CheckSession = { dayMs: 86_400_000 };
    const leaky = exchange(`Bearer ${KEY}`, { body: `"${KEY}"`, headers: { 'x-echo': b64(KEY) } });
    const clean = exchange(`Bearer ${KEY}`, { body: '{}' });
    const out = run(credentialReflectionCheck, [leaky, clean, leaky, leaky, clean], session);
    expect(out.map((f) => f.outcome)).toEqual(['warn', 'warn', 'pass', 'pass']);
    expect(out.map((f) => f.actual)).toEqual([
      'the Bearer credential, raw, in the response body',
      'the Bearer credential, base64-encoded, in the x-echo header',
      undefined,
      undefined,
    ]);
    expect(out[0].title).toBe('Credential reflected in the response body (the configured key)');
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  test('Reflections names every place, the first form found in each.', () => {
    const found = reflections(
      { bodyText: `x${KEY}x`, headers: { a: 'clean', b: encodeURIComponent(KEY) } },
      credentialSecrets(`Bearer ${KEY}`),
    );
    expect(found.map((r) => `${r.where}: ${r.form}`)).toEqual(['the response body: raw', 'the b header: raw']);
  });
});

describe('A deprecation signal on an operation the spec does not deprecate', () => {
  const ex = (operation: string, headers: Record<string, string>) => exchange(`Bearer ${KEY}`, { headers }, operation);
  test.each([
    ['listPets', { deprecation: '@1735689600' }, ['warn']],
    ['createPet', { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, ['warn']],
    ['listPets', { link: '<https://x/docs>; rel="deprecation"' }, ['warn']],
    ['listPets', { link: '<https://x/v1/pets?status=available>; rel="successor-version"' }, ['pass']],
    ['listPets', {}, ['pass']],
    ['getPet', { deprecation: '@1735689600' }, []],
  ])('On %s with %j the check says %j.', (operation, headers, expected) => {
    expect(run(deprecationElsewhereCheck, [ex(operation, headers)]).map((f) => f.outcome)).toEqual(expected);
  });

  test('It warns once per operation, however many responses carry the signal.', () => {
    const signalled = (op: string) => ex(op, { deprecation: '@1735689600' });
    const out = run(deprecationElsewhereCheck, [
      signalled('listPets'),
      signalled('listPets'),
      signalled('createPet'),
      signalled('listPets'),
    ]);
    expect(out.map((f) => f.outcome)).toEqual(['warn', 'warn']);
    expect(out[0].message).toMatch(/^listPets answered 401 with Deprecation; the spec deprecates only getPet/);
  });
});
