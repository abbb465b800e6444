/**
 * The limiter's scope: Remaining falls by one per request whatever the operation. A limiter keyed per route counts
 * each operation apart (fail); another client on the key, a rollover or a refilling limiter do not fail; whether a
 * request without a valid key counts against the key is observed, never failed.
 */
import { describe, expect, it } from 'vitest';
import { judgeKeyScope, observeUnauthenticated, type ScopedStep } from '../../../../src/core/sections/rate-limit-headers/scope.ts';

const R = 1_900_000_000;
/** A burst: operations and the Remaining each said, in one window (Reset R) unless told. */
const burst = (ops: string, rems: number[], resets: number[] = []): ScopedStep[] =>
  ops.split(' ').map((op, i) => ({ operation: op, remaining: rems[i], reset: resets[i] ?? R }));
const OPS = 'list list get get list get';

describe('judgeKeyScope', () => {
  it.each<[string, ScopedStep[], string]>([
    ['one countdown across operations', burst(OPS, [50, 49, 48, 47, 46, 45]), 'pass'],
    ['a countdown per route, getPet fresher than listPets', burst(OPS, [50, 49, 59, 58, 48, 57]), 'fail'],
    ['a countdown per route, getPet more used than listPets', burst(OPS, [50, 49, 30, 29, 48, 28]), 'fail'],
    ['a countdown per route whose counts happen to meet once', burst(OPS, [50, 49, 49, 48, 48, 47]), 'fail'],
    ['with createPet, per route', burst('list list get get create list get', [50, 49, 59, 58, 59, 48, 57]), 'fail'],
    ['another client spending the key at two changes of operation', burst(OPS, [50, 49, 46, 45, 43, 42]), 'pass'],
    [
      'a window that rolled over at a change of operation',
      burst(OPS, [2, 1, 59, 58, 57, 56], [R, R, R + 60, R + 60, R + 60, R + 60]),
      'pass',
    ],
    ['a refilling limiter that freed one slot at a change of operation', burst(OPS, [50, 49, 49, 48, 47, 46]), 'pass'],
    ['too few changes of operation to tell', burst('list list list get', [5, 4, 3, 9]), 'skip'],
  ])('%s: %s', (...[, seq, outcome]) => {
    expect(judgeKeyScope(seq).outcome).toBe(outcome);
  });

  it('names the kind of failure and shows the sequence', () => {
    const j = judgeKeyScope(burst(OPS, [50, 49, 59, 58, 48, 57]));
    expect(j.title).toBe('Remaining counted per operation, not per key');
    expect(j.message).toContain('list 50 → list 49 → get 59');
  });
});

describe('observeUnauthenticated', () => {
  it.each<[string, Parameters<typeof observeUnauthenticated>[0], string]>([
    ['not counted against the key', { before: 40, after: 39, status: 401, limit: 60, remaining: 59 }, 'not counted against the key'],
    [
      'counted against the key (one bucket per address)',
      { before: 40, after: 38, status: 401, limit: 60, remaining: 39 },
      'counted against the key',
    ],
    ['told apart by nothing (a rollover)', { before: 2, after: 59, status: 401 }, 'not told apart'],
  ])('%s', (...[, facts, counted]) => {
    const j = observeUnauthenticated(facts);
    expect([j.outcome, j.title]).toEqual(['observe', `A request without a valid key: ${counted}`]);
  });
});
