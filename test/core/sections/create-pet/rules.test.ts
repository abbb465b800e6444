/**
 * The createPet rules the spec files call once they gathered their facts (conformance/create-pet/): an id sent by the
 * client, the ids of the created pets, a long name, the default status. A passing and a failing case at least.
 */
import { describe, expect, test } from 'vitest';
import {
  judgeClientIdIgnored,
  judgeCreatedIdsDistinct,
  judgeDefaultStatus,
  judgeEarlierListUnavailable,
  judgeIdsNotReused,
  judgeLongNameAnswer,
  judgeLongNameKept,
} from '../../../../src/core/sections/create-pet/rules.ts';

const SENT = '4242424242424242';

describe('CREATE-ID-SERVER-ASSIGNED: the id a client sends', () => {
  test.each([
    [{ status: 400 }, 'pass', 'client id rejected with 400'],
    [{ status: 201, id: '7' }, 'pass', 'client id ignored (assigned 7)'],
    [{ status: 201, id: SENT }, 'fail', 'Client-sent id became the pet id'],
    [{ status: 201 }, 'fail', 'Client-sent id became the pet id'],
    [{ status: 500 }, 'fail', 'Client-sent id became the pet id'],
  ])('%j: %s (%s)', (answer, outcome, title) => {
    const j = judgeClientIdIgnored({ sent: SENT, shown: `HTTP ${answer.status}`, ...answer });
    expect([j.requirement, j.outcome, j.title]).toEqual(['CREATE-ID-SERVER-ASSIGNED', outcome, title]);
    expect(j.evidence === undefined).toBe(outcome === 'pass');
  });
});

describe('CREATE-ID-UNIQUE: the ids of the pets created, and the pets listed before', () => {
  test.each([
    [['1', '2', '3'], 'pass', '3 distinct ids'],
    [['1', '2', '1'], 'fail', 'Two pets share an id'],
    [['1'], 'skip', 'Could not be judged'],
  ])('created %j: %s (%s)', (ids, outcome, title) => {
    expect(judgeCreatedIdsDistinct(ids)).toMatchObject({ requirement: 'CREATE-ID-UNIQUE', outcome, title });
  });

  test('no created id held by another listed pet passes; one that is fails, naming the pet it was listed as', () => {
    expect(judgeIdsNotReused({ reused: [], created: 4, listed: 9 })).toMatchObject({
      outcome: 'pass',
      title: 'no created id was already used by one of the 9 pets listed before creation',
      message: '4 created ids, none among the 9 listed before',
    });
    const j = judgeIdsNotReused({ reused: [{ id: '5', listedAs: 'Rex' }], created: 4, listed: 9 });
    expect(j).toMatchObject({ outcome: 'fail', title: 'A created pet reuses the id of an existing pet' });
    expect(j.message).toBe('created ids already held by other pets: 5 (listed as "Rex")');
    expect(judgeEarlierListUnavailable('HTTP 503')).toMatchObject({
      outcome: 'skip',
      message: 'the list of existing pets was not available (HTTP 503)',
    });
  });
});

describe('a long name: how it is answered (observed), and kept whole once accepted (CREATE-201-PET)', () => {
  const name = 'long-' + 'x'.repeat(1000);
  test.each([
    [name, 'pass', 'name echoed whole'],
    [name.slice(0, 255), 'fail', 'a 1005-character name was answered 201 with a 255-character name (truncated);'],
    [null, 'fail', 'answered 201 with null;'],
  ])('answered with %#: %s', (got, outcome, message) => {
    const j = judgeLongNameKept(name, got);
    expect([j.requirement, j.outcome]).toEqual(['CREATE-201-PET', outcome]);
    expect(j.message).toContain(message);
  });

  test('the answer to it is only observed: the maximum is not shown', () => {
    expect(judgeLongNameAnswer(1005, 'HTTP 400')).toMatchObject({ requirement: 'CREATE-NAME-MAX-LENGTH', outcome: 'observe' });
  });
});

test.each([
  [{ id: 1, name: 'a', status: 'available' }, 'a pet created without status has status "available"'],
  [{ id: 1, name: 'a' }, 'a pet created without status has no status field'],
])('CREATE-DEFAULT-STATUS is observed: %j', (pet, message) => {
  expect(judgeDefaultStatus(pet)).toMatchObject({ requirement: 'CREATE-DEFAULT-STATUS', outcome: 'observe', message });
});
