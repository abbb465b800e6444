/**
 * The rate-limit-headers rules the spec files call (conformance/rate-limit-headers/): the status a request was meant
 * to produce and did not, the headers observed by status, and Remaining over a burst of sequential requests.
 */
import { expect, test } from 'vitest';
import { judgeSequentialDecrements } from '../../../../src/core/sections/rate-limit-headers/decrements.ts';
import { judgeHeadersByStatus, judgeNoStatusToInspect } from '../../../../src/core/sections/rate-limit-headers/rules.ts';

test.each([
  [[10, 9, 8, 7], 'pass', undefined],
  [[10, 9, 10, 9], 'pass', undefined],
  [[10, 8, 6, 4], 'fail', '10 → 8 → 6 → 4'],
  [[10, 10, 10], 'fail', '10 → 10 → 10'],
])('RL-REMAINING-DECREMENTS over %j: %s', (remaining, outcome, actual) => {
  const j = judgeSequentialDecrements(remaining);
  expect([j.requirement, j.outcome]).toEqual(['RL-REMAINING-DECREMENTS', outcome]);
  expect(j.message).toContain(`; sequence ${remaining.join(' → ')}`);
  expect(j.evidence?.actual).toBe(actual);
  if (outcome === 'fail') expect(j.title).toBe('Remaining does not fall by one per request');
});

test('RL-REMAINING-DECREMENTS with fewer than two values is not judged', () => {
  expect(judgeSequentialDecrements([7])).toMatchObject({ outcome: 'skip', title: 'Could not be judged' });
  expect(judgeSequentialDecrements([])).toMatchObject({ outcome: 'skip' });
});

test('a status not produced skips RL-HEADERS-PRESENT; the headers of one produced are observed (RL-SCOPE)', () => {
  expect(judgeNoStatusToInspect(400, 'HTTP 201')).toEqual({
    requirement: 'RL-HEADERS-PRESENT',
    outcome: 'skip',
    title: 'No 400 to inspect',
    message: 'expected a 400, got HTTP 201',
  });
  const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' };
  expect(judgeHeadersByStatus(404, headers)).toMatchObject({
    requirement: 'RL-SCOPE',
    outcome: 'observe',
    title: 'Rate-limit headers by status',
    message: '404: Limit 60, Remaining 59, Reset -',
  });
});
