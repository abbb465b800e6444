/**
 * The listPets observations the spec files call (conformance/list-pets/): how an out-of-range limit was handled, and
 * which pagination controls a page carries. Observations: never a failure, whatever the server does.
 */
import { expect, test } from 'vitest';
import { judgeOutOfRangeHandling, judgePaginationControls } from '../../../../src/core/sections/list-pets/rules.ts';

test.each([
  [{ status: 200, body: [1, 2, 3] }, 'limit="1000" → 200 (clamped/ignored, 3 animals)'],
  [{ status: 400, body: { code: 400, message: 'bad limit' } }, 'limit="1000" → 400 (rejected)'],
  [{ status: 500 }, 'limit="1000" → 500 (rejected)'],
])('LIST-LIMIT-OUT-OF-RANGE-HANDLING is observed: %j', (answer, message) => {
  expect(judgeOutOfRangeHandling(answer, 'limit="1000"')).toMatchObject({
    requirement: 'LIST-LIMIT-OUT-OF-RANGE-HANDLING',
    outcome: 'observe',
    message,
  });
});

test.each([
  [{ 'content-type': 'application/json' }, 'no Link or paging headers on the page'],
  [{ link: '</pets?page=2>; rel="next"' }, 'Link: </pets?page=2>; rel="next"; headers: -'],
  [{ 'x-total-count': '42', 'X-Next': 'abc', 'x-ratelimit-limit': '60' }, 'Link: -; headers: x-total-count, X-Next'],
])('LIST-PAGINATION-CONTROLS is observed: %j', (headers, message) => {
  expect(judgePaginationControls(headers)).toMatchObject({ requirement: 'LIST-PAGINATION-CONTROLS', outcome: 'observe', message });
});
