/**
 * RL-LIMIT-CONSTANT: X-RateLimit-Limit is "the request limit in force". A server may show whichever of the plan's two
 * limits is in force — the minute's, or the day's once its quota refuses — so a move between them is no change.
 */
import { describe, expect, test } from 'vitest';
import { limitConstantRule } from '../../../src/core/sections/rate-limit-headers/rules.ts';
import { planLimits } from '../../../src/core/plans.ts';

const free = planLimits('free');
const outcome = (first: number, now: number, limits = free) => limitConstantRule(first, now, limits).outcome;

describe('RL-LIMIT-CONSTANT', () => {
  test('passes the same limit, and a move between the plan’s per-day and per-minute numbers (a day spent, then a fresh one)', () => {
    expect(outcome(60, 60)).toBe('pass');
    expect(outcome(1000, 60)).toBe('pass');
    expect(outcome(60, 1000)).toBe('pass');
  });

  test('passes such a move without a plan when the two numbers are a spec plan’s pair, and fails any other change', () => {
    expect(limitConstantRule(1000, 60, undefined).outcome).toBe('pass');
    expect(limitConstantRule(60, 120, undefined).outcome).toBe('fail');
  });

  test('fails a limit that changes to another number (twice the plan’s limit, another plan’s)', () => {
    expect(outcome(60, 120)).toBe('fail');
    expect(outcome(60, 300)).toBe('fail');
  });
});
