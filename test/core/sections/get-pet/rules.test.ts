/** What getPet's spec files say when the list gives them nothing to read (conformance/get-pet/): not judged, and why. */
import { expect, test } from 'vitest';
import { judgeNothingToReadBack } from '../../../../src/core/sections/get-pet/rules.ts';
import { judgeSignalledUnseen } from '../../../../src/core/sections/deprecation/rules.ts';

test.each([
  [false, 'the list returned no pet to fetch'],
  [true, 'the listed pet has no integer id'],
])('GET-ROUND-TRIP without a pet to read back (listed: %s) is not judged: %s', (listed, message) => {
  expect(judgeNothingToReadBack(listed)).toEqual({ requirement: 'GET-ROUND-TRIP', outcome: 'skip', title: 'Could not be judged', message });
});

test('DEPRECATION-SIGNALLED without a pet to fetch is not judged (never passed: no 200 was seen)', () => {
  expect(judgeSignalledUnseen()).toEqual({
    requirement: 'DEPRECATION-SIGNALLED',
    outcome: 'skip',
    title: 'Could not be judged',
    message: 'no pet to fetch: the list was empty or failed',
  });
});
