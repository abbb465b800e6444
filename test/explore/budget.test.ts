/**
 * Found in every run, not eventually: at the default budget of every environment the coverage part sends every one of
 * its cases — every class of every parameter, body field, header, body's bytes and query shape — in a fixed order; and
 * the phase is bounded in time as well as in requests: against a server answering in 1.5 s it sends as many at once as
 * that latency needs (never more than X-RateLimit-Remaining allows) and stops after 45 s of the server's time.
 */
import { describe, expect, test } from 'vitest';
import { coverageDrafts, coverageReserve } from '../../src/explore/coverage.ts';
import { heldIdNearMisses } from '../../src/explore/values.ts';
import { requestFormCases, requestFormShare } from '../../src/explore/request-forms.ts';
import { BASE_URL_EXPLORE_BUDGET, EMBEDDED_EXPLORE_BUDGET, PRODUCTION_EXPLORE_BUDGET } from '../../src/settings/read-config.ts';
import type { SpecFile } from '../../src/harness/define-spec.ts';
import { runSuiteAgainst } from '../support/suite.ts';

describe('the default budgets', () => {
  test.each([
    ['the embedded server', EMBEDDED_EXPLORE_BUDGET, true, true],
    ['staging or a base URL', BASE_URL_EXPLORE_BUDGET, true, false],
    ['production (GET only)', PRODUCTION_EXPLORE_BUDGET, false, false],
  ])(
    'On %s every coverage case fits in the budget, with its reserve for generated inputs and sequences.',
    (_env, budget, writes, embedded) => {
      // The baselines (4 pages) and the near misses of a held id come with writes.
      const cases = coverageDrafts({ writes, embedded }).length + (writes ? 4 + heldIdNearMisses('12').length : 0);
      expect(cases).toBeLessThanOrEqual(budget - coverageReserve(budget));
    },
  );
});

describe('the method and the credential (issue 39 §4)', () => {
  test.each([
    ['the embedded server', EMBEDDED_EXPLORE_BUDGET, true],
    ['staging or a base URL', BASE_URL_EXPLORE_BUDGET, true],
    ['production (GET only)', PRODUCTION_EXPLORE_BUDGET, false],
  ])('On %s their coverage cases take at most a tenth of the budget (with writes on, all of them fit).', (_env, budget, writes) => {
    const cases = requestFormCases({ writes, key: 'as_demo_pro_8b2d4a61c97e3f05', seed: 1 }).length;
    expect(Math.min(cases, requestFormShare(budget))).toBeLessThanOrEqual(budget / 10);
    if (writes) expect(cases).toBeLessThanOrEqual(requestFormShare(budget));
  });
});

const exploringOnly = (f: SpecFile) => f.operation === 'exploration';
const summaryOf = (notes: readonly string[]) => notes.find((n) => n.startsWith('Exploration (generated inputs)'))!;

describe('a slow server', () => {
  test('Answering in 1.5 s, it costs the phase at most 45 s of its time: every coverage case sent, many at a time, the stop said.', async () => {
    const run = await runSuiteAgainst({ variants: { latencyMs: 1500 } }, { specs: exploringOnly });
    const summary = summaryOf(run.notes);
    const seconds = Number(/ in (\d+) s of the server's time/.exec(summary)![1]);
    expect(seconds).toBeLessThanOrEqual(46);
    expect(Number(/up to (\d+) requests at a time/.exec(summary)![1])).toBeGreaterThan(8);
    expect(summary).toMatch(/coverage (\d+) cases/);
    const held = heldIdNearMisses('12').length;
    const methodsAndKeys = requestFormCases({ writes: true, key: 'as_demo_business_3e7a0c58d21f94b6', seed: 1 }).length;
    expect(Number(/coverage (\d+) cases/.exec(summary)![1])).toBe(
      coverageDrafts({ writes: true, embedded: true }).length + methodsAndKeys + held,
    );
    expect(run.problems()).toEqual([]);
  });

  test('On a Free key it never sends more at once than X-RateLimit-Remaining allows: no 429 however slow the server.', async () => {
    const statuses: string[] = [];
    const run = await runSuiteAgainst(
      { variants: { latencyMs: 1500 } },
      { plan: 'free', specs: exploringOnly, onRequest: (r) => statuses.push(r.url) },
    );
    expect(run.findings.filter((f) => /\b429\b/.test(f.message) && f.outcome !== 'pass')).toEqual([]);
    expect(run.problems()).toEqual([]);
    expect(statuses.length).toBeGreaterThan(60);
  });
});
