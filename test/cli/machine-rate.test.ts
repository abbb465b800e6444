/**
 * The machine's rate before a run (src/cli/machine-rate.ts) is the median of a second's slices: one stall, or one lucky
 * slice, does not decide the short world's window. The measurement itself depends on the machine: the bench measures it
 * (`npm run bench -- --only first-command-busy`), no test times it.
 */
import { describe, expect, test } from 'vitest';
import { measureMachineRate, medianRate } from '../../src/cli/machine-rate.ts';

describe('the machine rate', () => {
  test('The median of an even count of slices is the mean of the middle two, whatever their order.', () => {
    expect(medianRate([400, 40, 380, 420])).toBe(390);
  });

  test('The median of an odd count is the middle one: a stalled slice and a lucky one change nothing.', () => {
    expect(medianRate([0, 300, 5000])).toBe(300);
  });

  test('Measured against a throwaway embedded server, it reports a rate, its span and the requests in flight.', async () => {
    const m = await measureMachineRate({ ms: 200, inFlight: 4, samples: 2, warmUp: { responses: 20, maxMs: 500 } });
    // How many came depends on the machine (a stalled slice may count none): only that it is a rate.
    expect(Number.isFinite(m.perS) && m.perS >= 0).toBe(true);
    expect(m.ms).toBeGreaterThanOrEqual(200);
    expect(m.inFlight).toBe(4);
  });
});
