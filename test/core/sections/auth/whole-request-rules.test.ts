/** The rules of the whole request (issue 39): methods without a key, the key's channel, methods a path does not take, ids outside int64. */
import { describe, expect, test } from 'vitest';
import { judgeKeyChannel, judgeMethodWithoutKey } from '../../../../src/core/sections/auth/rules.ts';
import { judgeMethodNotTaken } from '../../../../src/core/sections/responses/rules.ts';
import { judgeIdOutsideInt64 } from '../../../../src/core/sections/get-pet/rules.ts';
import { judgeHeadAsGet } from '../../../../src/core/sections/responses/head.ts';

const shown = (status: number) => `HTTP ${status}`;

describe('AUTH-EVERY-METHOD', () => {
  test.each([
    ['HEAD', 200, 'fail'],
    ['DELETE', 204, 'fail'],
    ['FROBNICATE', 200, 'fail'],
    ['HEAD', 401, 'pass'],
    ['PUT', 405, 'pass'],
    ['TRACE', 404, 'pass'],
    ['OPTIONS', 204, 'observe'],
    ['OPTIONS', 401, 'pass'],
  ] as const)('%s answered %i without a key is %s.', (method, status, outcome) => {
    expect(judgeMethodWithoutKey({ method, path: '/pets', status, shown: shown(status) }, 'without a key').outcome).toBe(outcome);
  });

  test('No answer at all is not a pass.', () => {
    expect(judgeMethodWithoutKey({ method: 'HEAD', path: '/pets', status: undefined, shown: 'timeout' }, 'without a key').outcome).toBe(
      'fail',
    );
  });
});

describe('AUTH-KEY-CHANNEL and AUTH-KEY-IN-URL', () => {
  test.each([
    [200, 'AUTH-KEY-CHANNEL', 'fail'],
    [401, 'AUTH-KEY-CHANNEL', 'pass'],
    [400, 'AUTH-KEY-CHANNEL', 'pass'],
    [200, 'AUTH-KEY-IN-URL', 'warn'],
    [401, 'AUTH-KEY-IN-URL', 'pass'],
  ] as const)('The key elsewhere answered %i is %s under %s.', (status, requirement, outcome) => {
    const j = judgeKeyChannel({ operation: 'listPets', status, shown: shown(status) }, 'a query parameter', requirement);
    expect([j.requirement, j.outcome]).toEqual([requirement, outcome]);
  });
});

describe('METHOD-405-ALLOW and METHOD-405-DETAILS', () => {
  const base = { method: 'QUERY', path: '/pets', documented: ['GET', 'POST'], errorBody: true };
  const outcomes = (a: Partial<Parameters<typeof judgeMethodNotTaken>[0]> & { status: number }) =>
    judgeMethodNotTaken({ ...base, shown: shown(a.status), ...a }).map((j) => `${j.requirement} ${j.outcome}`);

  test('A 405 with a complete Allow and an Error body passes both.', () =>
    expect(outcomes({ status: 405, allow: 'GET, POST, HEAD' })).toEqual([
      'METHOD-405-ALLOW pass',
      'METHOD-405-DETAILS pass',
      'METHOD-405-DETAILS pass',
    ]));
  test('A 405 without Allow fails the MUST (RFC 9110 §15.5.6).', () =>
    expect(outcomes({ status: 405 })).toEqual(['METHOD-405-ALLOW fail']));
  test('A 405 whose Allow omits a documented method warns (SHOULD).', () =>
    expect(outcomes({ status: 405, allow: 'GET' })).toContain('METHOD-405-DETAILS warn'));
  test('A 405 without an Error body warns (SHOULD), its Allow passing.', () =>
    expect(outcomes({ status: 405, allow: 'GET, POST', errorBody: false })).toEqual([
      'METHOD-405-ALLOW pass',
      'METHOD-405-DETAILS pass',
      'METHOD-405-DETAILS warn',
    ]));
  test.each([404, 401, 400, 501])('A %i is a refusal and passes.', (status) =>
    expect(outcomes({ status })).toEqual(['METHOD-405-ALLOW pass']),
  );
  test('A 2xx is observed: an operation the spec does not show.', () =>
    expect(outcomes({ status: 200 })).toEqual(['METHOD-405-ALLOW observe']));
  test('A 500 warns (SHOULD).', () => expect(outcomes({ status: 500 })).toEqual(['METHOD-405-DETAILS warn']));
});

describe('An id outside int64', () => {
  test('A 200 is another animal: GET-404-UNKNOWN fails.', () => {
    const j = judgeIdOutsideInt64('18446744073709551623', { status: 200, body: { id: 7, name: 'x', categoryId: 1 } }, 'GET /pets/…');
    expect([j.requirement, j.outcome, j.title]).toEqual(['GET-404-UNKNOWN', 'fail', 'Another pet returned for an id']);
  });
  test.each([
    [404, 'pass'],
    [400, 'pass'],
    [500, 'warn'],
  ] as const)('A %i is judged as a petId that is no int64: %s.', (status, outcome) => {
    const j = judgeIdOutsideInt64('18446744073709551623', { status }, 'GET /pets/…');
    expect([j.requirement, j.outcome]).toEqual(['GET-NON-INTEGER-ID-4XX', outcome]);
  });
});

describe('METHOD-HEAD-AS-GET', () => {
  const answer = (status: number, mediaType?: string) => ({ status, shown: shown(status), ...(mediaType ? { mediaType } : {}) });
  test.each([
    [200, 404, 'fail'],
    [200, 401, 'fail'],
    [404, 404, 'pass'],
    [405, 200, 'pass'],
    [501, 404, 'pass'],
    [401, 401, 'pass'],
  ] as const)('HEAD answered %i where GET answers %i is %s.', (head, get, outcome) => {
    expect(judgeHeadAsGet('/pets/1', 'with the key', answer(head), answer(get)).map((j) => j.outcome)).toEqual([outcome]);
  });
  test("A served HEAD whose Content-Type is not GET's warns (RFC 9110 §9.3.2: SHOULD); the same one passes.", () => {
    const get = answer(200, 'application/json');
    expect(judgeHeadAsGet('/pets', 'with the key', answer(200, 'text/html'), get)[0].outcome).toBe('warn');
    expect(judgeHeadAsGet('/pets', 'with the key', answer(200, 'Application/JSON'), get)[0].outcome).toBe('pass');
  });
  test('No answer to either is no judgement.', () => {
    expect(judgeHeadAsGet('/pets', 'with the key', { status: undefined, shown: 'timeout' }, answer(200))).toEqual([]);
  });
});
