/**
 * Authentication: a missing or invalid API key is answered 401 with an Error
 * body, on every operation. One table row per kind of bad credential.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { describeStatus, everyOperation } from '../../src/harness/ops.ts';
import type { Credential } from '../../src/http/client.ts';
import type { TestContext } from '../../src/harness/context.ts';

const CASES: { title: string; requirement: string; credential: (key: string) => Credential }[] = [
  { title: 'A request without an Authorization header is answered 401 on every operation.', requirement: 'AUTH-MISSING-401', credential: () => 'none' },
  { title: 'The key sent with the Basic scheme instead of Bearer is answered 401 on every operation.', requirement: 'AUTH-WRONG-SCHEME-401', credential: (k) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` }) },
  { title: 'The key sent with a made-up Token scheme is answered 401 on every operation.', requirement: 'AUTH-WRONG-SCHEME-401', credential: (k) => ({ authorization: `Token ${k}` }) },
  { title: 'A Bearer header with an empty token is answered 401 on every operation.', requirement: 'AUTH-EMPTY-TOKEN-401', credential: () => ({ authorization: 'Bearer ' }) },
  { title: 'A bare Bearer scheme with no token is answered 401 on every operation.', requirement: 'AUTH-EMPTY-TOKEN-401', credential: () => ({ authorization: 'Bearer' }) },
  { title: 'An unknown key is answered 401 on every operation.', requirement: 'AUTH-UNKNOWN-KEY-401', credential: () => ({ authorization: `Bearer unknown-${Math.random().toString(36).slice(2, 12)}` }) },
];

async function expect401(t: TestContext, requirement: string, credential: Credential) {
  for (const req of everyOperation(t, credential)) {
    const ex = await t.request(req);
    t.check(requirement, ex.response?.status === 401, ex, {
      pass: `${req.operation} answered 401`,
      fail: 'Bad credential not rejected with 401',
      message: `${req.operation} with a bad credential: ${describeStatus(ex)}`,
      expected: '401',
      actual: describeStatus(ex),
    });
  }
}

export default defineSpec({
  operation: 'auth',
  behaviour: 'rejects-bad-credentials',
  tests: CASES.map((c) => ({
    title: c.title,
    requirements: [c.requirement],
    run: (t: TestContext) => expect401(t, c.requirement, c.credential(t.config.apiKey ?? 'no-key')),
  })),
});
