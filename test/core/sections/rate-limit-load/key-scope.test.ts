/**
 * The limiter's scope under load (src/core/sections/rate-limit-load/key-scope.ts): Remaining counted per operation fails
 * RL-REMAINING-DECREMENTS by name; a limiter that refills in step with the operations, requests in flight together and a
 * single operation do not.
 */
import { describe, expect, it } from 'vitest';
import type { LoadOp } from '../../../../src/core/sample.ts';
import { perOperation } from '../../../../src/core/sections/rate-limit-load/key-scope.ts';
import { rl, s, T0 } from '../../../support/samples.ts';

const OPS: Record<string, LoadOp> = { l: 'listPets', g: 'getPet', c: 'createPet' };

/** Successes `l19 l18 g19 …` (operation, Remaining), one every 10 ms, each sent once the one before it was answered unless `overlap`. */
function seq(text: string, overlap = false) {
  return text.split(' ').map((x, i) => {
    const sample = s(i, T0 + 10 * i, 200, rl(Number(x.slice(1)), undefined, 20));
    const op = OPS[x[0]];
    return { ...sample, ...(op !== 'listPets' ? { op } : {}), sentAt: overlap ? T0 : sample.sentAt };
  });
}

describe('perOperation', () => {
  it.each([
    ['counted per route (list, list, get)', 'l19 l18 l17 l16 c19 g19 l15 l14 g18 l13 l12 g17 l11 l10 g16', 'fail'],
    ['counted per key', 'l19 l18 l17 l16 c15 g14 l13 l12 g11 l10 l9 g8 l7 l6 g5', undefined],
    // a token bucket refilling one slot every other request, in step with the pattern (a false alarm seen at 250 ms round trips)
    ['a refill in step with the pattern', 'l19 l18 l18 l17 c17 g16 l16 l15 g15 l14 l14 g13 l13 l12 g12 l11 l11 g10 l10 l9 g9', undefined],
    ['one operation', 'l19 l18 l17 l16 l15 l14', undefined],
  ])('%s: %s → %s', (_name, text, outcome) => {
    const j = perOperation(seq(text));
    expect(j?.outcome).toBe(outcome);
    if (j) expect(j.title).toBe('Remaining counted per operation, not per key');
  });

  it('Requests in flight together are no steps: the order the server counted them in is unknown.', () => {
    expect(perOperation(seq('l19 l18 l17 l16 c19 g19 l15 l14 g18 l13 l12 g17 l11 l10 g16', true))).toBeUndefined();
  });
});
