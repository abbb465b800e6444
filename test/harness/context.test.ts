/**
 * What a spec test says goes through `t.judge`: judgements built by the requirement's section, recorded with the
 * exchange they are about; an exchange that could not be judged (a transport failure, a 429 after the retry) makes
 * each requirement a skip instead, and a judgement that is already a skip keeps its own reason.
 */
import { describe, expect, test } from 'vitest';
import { AUTH } from '../../src/core/sections/auth/requirements.ts';
import { CREATE_PET } from '../../src/core/sections/create-pet/requirements.ts';
import { DEPRECATION } from '../../src/core/sections/deprecation/requirements.ts';
import { LIST_PETS } from '../../src/core/sections/list-pets/requirements.ts';
import type { Judgement } from '../../src/core/sections/define.ts';
import { makeContext } from '../../src/harness/context.ts';
import type { Session } from '../../src/harness/session.ts';
import type { ApiExchange } from '../../src/http/client.ts';

/** A session that only keeps what is recorded, and which exchange each judgement was about. */
function recording() {
  const recorded: { j: Judgement; ex?: ApiExchange }[] = [];
  const session = { config: {}, record: (j: Judgement, from: { ex?: ApiExchange }) => recorded.push({ j, ex: from.ex }) };
  return { t: makeContext(session as unknown as Session, 'a test'), recorded };
}

const answered = (status: number) => ({ api: { operation: 'listPets' }, response: { status, headers: {} } }) as unknown as ApiExchange;
const failed = { api: { operation: 'listPets' }, error: { kind: 'timeout', message: 'no answer in 3000 ms' } } as unknown as ApiExchange;

const unauthorised = (ok: boolean) =>
  AUTH.judge('AUTH-MISSING-401', { ok, args: { operation: 'listPets' }, message: `listPets without a key: ${ok ? 401 : 200}` });
const fullPage = (ok: boolean) => LIST_PETS.judge('LIST-LIMIT-FILLS-PAGE', { ok, args: { limit: 20 }, message: 'm' });

describe('t.judge', () => {
  test('The judgements of a usable answer are recorded as they are, with the exchange; it returns whether none failed or warned.', () => {
    const { t, recorded } = recording();
    const ex = answered(401);
    expect(t.judge(ex, [unauthorised(true)])).toBe(true);
    expect(t.judge(ex, [fullPage(false)])).toBe(false); // a SHOULD violated: a warning
    expect(t.judge(ex, [unauthorised(false)])).toBe(false);
    expect(recorded.map((r) => [r.j.requirement, r.j.outcome, r.j.title, r.ex])).toEqual([
      ['AUTH-MISSING-401', 'pass', 'listPets answered 401', ex],
      ['LIST-LIMIT-FILLS-PAGE', 'warn', 'Page shorter than limit though more animals exist', ex],
      ['AUTH-MISSING-401', 'fail', 'Bad credential not rejected with 401', ex],
    ]);
  });

  test.each([
    ['a 429 after the retry', answered(429), 'rate limited (429) even after honouring Retry-After; the operation could not be judged'],
    ['a transport failure', failed, 'transport failure (timeout): no answer in 3000 ms'],
  ])('After %s, each requirement judged is one skip saying why, whatever the judgements said.', (_, ex, why) => {
    const { t, recorded } = recording();
    const unique = (ok: boolean) => CREATE_PET.judge('CREATE-ID-UNIQUE', { ok, pass: 'page-distinct', args: { limit: 1 }, message: 'm' });
    expect(t.judge(ex, [unauthorised(false), unique(true), unique(false)])).toBe(false);
    expect(recorded.map((r) => r.j)).toEqual([
      { requirement: 'AUTH-MISSING-401', outcome: 'skip', title: 'Could not be judged', message: why },
      { requirement: 'CREATE-ID-UNIQUE', outcome: 'skip', title: 'Could not be judged', message: why },
    ]);
    expect(recorded.every((r) => r.ex === ex)).toBe(true);
  });

  test('A skip about an exchange that could not be judged keeps its own reason.', () => {
    const { t, recorded } = recording();
    const skip = DEPRECATION.judge('DEPRECATION-SIGNALLED', { outcome: 'skip', title: 'not-judged', message: 'no pet to fetch' });
    t.judge(answered(429), [skip]);
    expect(recorded.map((r) => r.j)).toEqual([skip]);
  });

  test('A judgement about no exchange (the configuration) is recorded as it is.', () => {
    const { t, recorded } = recording();
    expect(t.judge(undefined, [unauthorised(false)])).toBe(false);
    expect(recorded).toEqual([{ j: unauthorised(false), ex: undefined }]);
  });
});
