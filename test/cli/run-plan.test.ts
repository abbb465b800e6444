/**
 * The plan a conformance run prints as it starts (src/cli/run-plan.ts): bound by the key's rate or by the server's
 * latency, and about how long; the specs' request counts it assumes are the ones the specs send.
 */
import { describe, expect, test } from 'vitest';
import { planLine, runPlan, SPEC_REQUESTS } from '../../src/cli/run-plan.ts';
import { runSuiteAgainst } from '../support/suite.ts';

const facts = { writes: true, exploreBudget: 400, windowMs: 60_000 };

describe('runPlan', () => {
  test.each([
    { what: 'a fast server, unlimited', latencyMs: 2, perWindow: undefined, width: 1, boundBy: 'latency', within: [5_000, 10_000] },
    { what: 'a 1.5 s server, unlimited', latencyMs: 1500, perWindow: undefined, width: 16, boundBy: 'latency', within: [60_000, 90_000] },
    { what: 'a 1.5 s server, enterprise', latencyMs: 1500, perWindow: 1_000_000, width: 16, boundBy: 'latency', within: [60_000, 90_000] },
    { what: 'a fast server, a Pro key', latencyMs: 5, perWindow: 300, width: 1, boundBy: 'rate', within: [60_000, 60_000] },
    { what: 'a fast server, a Free key', latencyMs: 5, perWindow: 60, width: 1, boundBy: 'rate', within: [540_000, 540_000] },
  ] as const)(
    'For $what the run is bound by the $boundBy, $width request(s) at a time.',
    ({ latencyMs, perWindow, width, boundBy, within }) => {
      const p = runPlan({ ...facts, latencyMs, ...(perWindow ? { perWindow } : {}) });
      expect(p).toMatchObject({ width, boundBy, requests: SPEC_REQUESTS.writes + 400 });
      expect(p.ms).toBeGreaterThanOrEqual(within[0]);
      expect(p.ms).toBeLessThanOrEqual(within[1]);
    },
  );

  test('The line says the requests, the width, what binds the run and how long it takes.', () => {
    expect(planLine({ ...facts, latencyMs: 1500 })).toMatch(
      /^animal-store: plan of the specs and the exploration: about 557 requests; the server answered in 1500 ms, so up to 16 at a time; the key’s rate is not known: bound by the server’s latency, about \d+ s\.$/,
    );
    expect(planLine({ ...facts, latencyMs: 3, perWindow: 300 })).toMatch(
      /the key allows 300 requests per 60 s: bound by the key’s rate, about 60 s\.$/,
    );
  });

  test.each([
    { writes: true, expected: SPEC_REQUESTS.writes },
    { writes: false, expected: SPEC_REQUESTS.readOnly },
  ])(
    'The specs send about $expected requests with writes $writes, as the plan assumes (within 10 %).',
    async ({ writes, expected }) => {
      const r = await runSuiteAgainst({}, { env: { ANIMAL_STORE_ALLOW_WRITES: String(writes), ANIMAL_STORE_EXPLORE_BUDGET: '0' } });
      expect(Math.abs(r.requests - expected) / expected).toBeLessThanOrEqual(0.1);
    },
    90_000,
  );
});
