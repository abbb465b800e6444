/** The curl line of a wrong credential makes it from the key's variable, and bash makes the very token the client sent. */
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { editKey, type KeyEdit } from '../../src/core/credentials.ts';
import { credentialArgs, urlWithKey } from '../../src/results/writers/key-shell.ts';
import { REDACTED } from '../../src/core/redact.ts';

const KEY = 'as_demo_business_3e7a0c58d21f94b6';
const EDITS: KeyEdit[] = [
  { edit: 'case', at: 0 },
  { edit: 'case', at: 13 },
  { edit: 'case-all' },
  { edit: 'prefix', n: 17 },
  { edit: 'prefix', n: 8 },
  { edit: 'prefix', n: 64 },
  { edit: 'cut', n: 2 },
  { edit: 'cut', n: 30 },
  { edit: 'suffix', text: 'a9' },
  { edit: 'words', words: ['x', 'Yz'] },
];

test.each(EDITS.map((e) => [JSON.stringify(e), e] as const))('The curl argument of %s gives the token the client sends.', (_, e) => {
  const [flag, header] = credentialArgs({ near: e }, 'K');
  expect(flag).toBe('-H');
  expect(header).not.toContain(KEY);
  const made = execFileSync('bash', ['-c', `printf %s ${header}`], { env: { K: KEY, PATH: process.env.PATH } }).toString();
  expect(made).toBe(`Authorization: Bearer ${editKey(KEY, e)}`);
});

test('The key in a header, a cookie, the Basic scheme or the URL is the variable, never the key.', () => {
  expect(credentialArgs({ headers: ['x-api-key', 'cookie'] }, 'K')).toEqual(['-H', '"x-api-key: $K"', '-H', '"cookie: api_key=$K"']);
  expect(credentialArgs({ basic: 'password' }, 'K')).toEqual(['-u', '"user:$K"']);
  expect(urlWithKey(`'http://h/v1/pets?api_key=${REDACTED}'`, 'K')).toBe(`'http://h/v1/pets?api_key='"$K"''`);
});
