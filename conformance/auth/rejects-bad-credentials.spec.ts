/**
 * Authentication: a missing or invalid API key is answered 401 with an Error
 * body, on every operation. One table row per kind of bad credential.
 *
 * Near-misses of the configured key (last character changed, a suffix added,
 * the last character cut) catch servers that compare a prefix only. They are
 * sent to listPets alone: the rows above already prove every operation, and a
 * read cannot store a pet if the server wrongly accepts the key. Reports never
 * show these tokens: the Authorization header is always redacted in evidence,
 * and the key's value is redacted wherever it occurs (the key plus a suffix
 * contains it).
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answered, everyOperation, listPets } from '../../src/harness/ops.ts';
import type { ApiRequest, Credential } from '../../src/http/client.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { judgeBadCredential, type BadCredentialRequirement } from '../../src/core/sections/auth/rules.ts';

const bearer = (token: string): Credential => ({ authorization: `Bearer ${token}` });
/** A character other than `c`, also when compared case-insensitively. */
const other = (c: string) => (c.toLowerCase() === 'x' ? 'y' : 'x');
const listOnly = (_t: TestContext, auth: Credential): ApiRequest[] => [listPets({}, { auth })];

interface Case {
  title: string;
  requirement: BadCredentialRequirement;
  /** What the bad credential is, for messages (never its value). */
  what: string;
  credential: (key: string) => Credential;
  requests?: (t: TestContext, auth: Credential) => ApiRequest[];
}

const CASES: Case[] = [
  {
    title: 'A request without an Authorization header is answered 401 on every operation.',
    requirement: 'AUTH-MISSING-401',
    what: 'no Authorization header',
    credential: () => 'none',
  },
  {
    title: 'The key sent with the Basic scheme instead of Bearer is answered 401 on every operation.',
    requirement: 'AUTH-WRONG-SCHEME-401',
    what: 'the key under the Basic scheme',
    credential: (k) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` }),
  },
  {
    title: 'The key sent with a made-up Token scheme is answered 401 on every operation.',
    requirement: 'AUTH-WRONG-SCHEME-401',
    what: 'the key under a Token scheme',
    credential: (k) => ({ authorization: `Token ${k}` }),
  },
  {
    title: 'A Bearer header with an empty token is answered 401 on every operation.',
    requirement: 'AUTH-EMPTY-TOKEN-401',
    what: 'an empty Bearer token',
    credential: () => ({ authorization: 'Bearer ' }),
  },
  {
    title: 'A bare Bearer scheme with no token is answered 401 on every operation.',
    requirement: 'AUTH-EMPTY-TOKEN-401',
    what: 'a bare Bearer scheme',
    credential: () => ({ authorization: 'Bearer' }),
  },
  {
    title: 'An unknown key is answered 401 on every operation.',
    requirement: 'AUTH-UNKNOWN-KEY-401',
    what: 'an unknown key',
    credential: () => bearer(`unknown-${Math.random().toString(36).slice(2, 12)}`),
  },
  {
    title: 'The configured key with its last character changed is answered 401.',
    requirement: 'AUTH-UNKNOWN-KEY-401',
    what: 'the key with its last character changed',
    credential: (k) => bearer(k.slice(0, -1) + other(k.slice(-1))),
    requests: listOnly,
  },
  {
    title: 'The configured key followed by an extra character is answered 401.',
    requirement: 'AUTH-UNKNOWN-KEY-401',
    what: 'the key plus a suffix',
    credential: (k) => bearer(`${k}0`),
    requests: listOnly,
  },
  {
    title: 'The configured key without its last character is answered 401.',
    requirement: 'AUTH-UNKNOWN-KEY-401',
    what: 'the key truncated by one character',
    credential: (k) => bearer(k.slice(0, -1)),
    requests: listOnly,
  },
];

async function expect401(t: TestContext, c: Case) {
  const credential = c.credential(t.config.apiKey ?? 'no-key');
  for (const req of (c.requests ?? everyOperation)(t, credential)) {
    const ex = await t.request(req);
    t.judge(ex, [judgeBadCredential(answered(ex), c)]);
  }
}

export default defineSpec({
  operation: 'auth',
  behaviour: 'rejects-bad-credentials',
  tests: CASES.map((c) => ({
    title: c.title,
    requirements: [c.requirement],
    run: (t: TestContext) => expect401(t, c),
  })),
});
