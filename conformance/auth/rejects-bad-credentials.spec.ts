/**
 * Authentication: a missing or invalid API key is answered 401 with an Error
 * body, on every operation. One table row per kind of bad credential.
 *
 * Near-misses of the configured key, and the key in other channels, are
 * key-channels.spec.ts's.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import { answered, everyOperation } from '../../src/harness/ops.ts';
import type { ApiRequest, Credential } from '../../src/http/client.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { judgeBadCredential, type BadCredentialRequirement } from '../../src/core/sections/auth/rules.ts';

const bearer = (token: string): Credential => ({ authorization: `Bearer ${token}` });

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
