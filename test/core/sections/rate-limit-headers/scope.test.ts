/**
 * The limiter's scope: Remaining falls by one per request whatever the operation. A limiter keyed per route counts
 * each operation apart (fail), a limiter mounted twice on a route counts its requests twice (fail); another client on
 * the key, a rollover or a refilling limiter do not fail; whether a request without a valid key counts against the
 * key is observed, never failed.
 */
import { describe, expect, it } from 'vitest';
import {
  judgeCountPerOperation,
  judgeKeyScope,
  observeUnauthenticated,
  type ScopedStep,
} from '../../../../src/core/sections/rate-limit-headers/scope.ts';

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

/** The burst with writes allowed (conformance/rate-limit-headers/remaining-decrements.spec.ts). */
const WRITES = 'list list get get create list create get';

describe('judgeCountPerOperation', () => {
  it.each<[string, ScopedStep[], string]>([
    ['one countdown, one per request', burst(WRITES, [50, 49, 48, 47, 46, 45, 44, 43]), 'pass'],
    ['every createPet counted twice', burst(WRITES, [50, 49, 48, 47, 45, 44, 42, 41]), 'fail'],
    ['every createPet counted three times', burst(WRITES, [50, 49, 48, 47, 44, 43, 40, 39]), 'fail'],
    ['every getPet counted twice (writes off)', burst(OPS, [50, 49, 47, 45, 44, 42]), 'fail'],
    ['another client once, at one of the creates', burst(WRITES, [50, 49, 48, 47, 45, 44, 43, 42]), 'pass'],
    ['another client at two changes of operation', burst(WRITES, [50, 49, 48, 46, 45, 44, 42, 41]), 'pass'],
    ['another client spending as fast as the burst (every step by two: the sequential rule)', burst(OPS, [50, 48, 46, 44, 42, 40]), 'pass'],
    ['a sliding window releasing a slot at a create', burst(WRITES, [50, 49, 48, 47, 47, 46, 45, 44]), 'pass'],
    ['a token bucket refilling as fast as sent', burst(WRITES, [50, 50, 49, 49, 49, 48, 48, 48]), 'pass'],
    [
      'a window that rolled over before the second create',
      burst(WRITES, [50, 49, 48, 47, 46, 45, 59, 58], [R, R, R, R, R, R, R + 60, R + 60]),
      'pass',
    ],
    [
      'a create counted twice, the window rolled over at the second (one step into createPet: not told from another client)',
      burst(WRITES, [50, 49, 48, 47, 45, 44, 58, 57], [R, R, R, R, R, R, R + 60, R + 60]),
      'pass',
    ],
    ['too few steps into any operation', burst('list get', [5, 4]), 'skip'],
  ])('%s: %s', (...[, seq, outcome]) => {
    expect(judgeCountPerOperation(seq).outcome).toBe(outcome);
  });

  it('names the operation counted more than once and shows the sequence', () => {
    const j = judgeCountPerOperation(burst(WRITES, [50, 49, 48, 47, 45, 44, 42, 41]));
    expect(j.title).toBe('Requests of one operation counted more than once');
    expect(j.message).toContain('fell by 2, 2 on each create');
    expect(j.message).toContain('get 47 → create 45');
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
