import { describe, expect, it } from 'vitest';
import { BADGE_AMBER, BADGE_GREEN, BADGE_RED, badgeMessage, renderBadge, textWidth } from '../../src/results/writers/badge.ts';
import type { RunReport } from '../../src/results/types.ts';
import {
  aborted,
  certifiedReport,
  conformanceOnly,
  failingReport,
  HOSTILE,
  incompleteReport,
  interrupted,
  withoutPlan,
  withStatus,
} from '../support/report-fixtures.ts';
import { xmlProblems } from './xml-check.ts';
import { allPlansCertified, cutShortPro, mixedPlans, onePlan, threeOfFourCertified } from './plan-fixtures.ts';

/** The badge of `report` says `message` (also to a screen reader) on `color`, as well-formed XML. */
function expectBadge(report: RunReport, message: string, color: string): void {
  const svg = renderBadge(report);
  expect(badgeMessage(report)).toBe(message);
  expect(svg).toContain(`aria-label="animal-store: ${message}"`);
  expect(svg).toContain(`fill="${color}"`);
  expect(xmlProblems(svg)).toEqual([]);
}

describe('badge.svg', () => {
  const cases: [string, RunReport, string, string][] = [
    ['certified run', certifiedReport(), 'certified · free · 2025-06-01', BADGE_GREEN],
    [
      'conformance-only run that passed every MUST in scope',
      conformanceOnly(certifiedReport()),
      'conformant · free · 2025-06-01',
      BADGE_GREEN,
    ],
    ['incomplete run', incompleteReport(), 'passed, incomplete (3 MUSTs not exercised) · free · 2025-06-01', BADGE_AMBER],
    [
      'run whose only gap is a waived MUST',
      withStatus(certifiedReport(), ['SCHEMA-PET'], 'waived'),
      'passed, incomplete · free · 2025-06-01',
      BADGE_AMBER,
    ],
    ['not-conformant run', failingReport(), 'not conformant · free · 2025-06-01', BADGE_RED],
    ['interrupted run', interrupted(certifiedReport()), 'interrupted · free · 2025-06-01', BADGE_AMBER],
    ['aborted run', aborted(certifiedReport()), 'stopped early · free · 2025-06-01', BADGE_AMBER],
    ['aborted run with a failed MUST', aborted(failingReport()), 'not conformant · free · 2025-06-01', BADGE_RED],
    [
      'run whose plan was not given',
      withoutPlan(incompleteReport()),
      'passed, incomplete (3 MUSTs not exercised) · plan not given · 2025-06-01',
      BADGE_AMBER,
    ],
  ];
  it.each(cases)('The badge of a %s reads "%s" on the right colour.', (_name, report, message, color) =>
    expectBadge(report, message, color),
  );

  it('Only a certified run gets the green colour and the word certified.', () => {
    for (const [, report, , color] of cases) {
      const svg = renderBadge(report);
      const certified = report.outcome === 'certified' && !report.abort && !report.interrupted;
      expect(svg.includes(BADGE_GREEN)).toBe(certified);
      if (!certified) expect(badgeMessage(report)).not.toMatch(/^certified|^conformant/);
      expect(color === BADGE_GREEN).toBe(certified);
    }
  });

  it('The width grows with the text.', () => {
    const width = (r: RunReport) => Number(/<svg [^>]*width="(\d+(?:\.\d+)?)"/.exec(renderBadge(r))![1]);
    expect(width(incompleteReport())).toBeGreaterThan(width(certifiedReport()));
    expect(textWidth('conformant')).toBeGreaterThan(textWidth('iiii'));
  });

  it('A hostile plan name is escaped.', () => {
    const r = certifiedReport();
    const svg = renderBadge({ ...r, target: { ...r.target, plan: HOSTILE.script } });
    expect(svg).not.toContain('<script');
    expect(xmlProblems(svg)).toEqual([]);
  });
});

describe('badge.svg of a run over several plans', () => {
  const cases: [string, RunReport, string, string][] = [
    ['run that certified every plan', allPlansCertified(), '4 plans certified · 2025-06-01', BADGE_GREEN],
    ['run with one plan incomplete', threeOfFourCertified(), '3 of 4 plans certified · 2025-06-01', BADGE_AMBER],
    ['run of two plans with one incomplete', cutShortPro(), '1 of 2 plans certified · 2025-06-01', BADGE_AMBER],
    ['run with one plan not conformant', mixedPlans(), '1 of 4 plans certified · 2025-06-01', BADGE_RED],
    [
      'run interrupted after every plan had passed',
      interrupted(allPlansCertified()),
      'interrupted · 0 of 4 plans certified · 2025-06-01',
      BADGE_AMBER,
    ],
    ['run stopped early', aborted(allPlansCertified()), 'stopped early · 0 of 4 plans certified · 2025-06-01', BADGE_AMBER],
  ];
  it.each(cases)('The badge of a %s reads "%s" on the right colour.', (_name, report, message, color) =>
    expectBadge(report, message, color),
  );

  it('A single-plan run that carries its one plan in plans keeps its single-plan badge.', () => {
    for (const quick of [false, true]) {
      const { withPlans, without } = onePlan(quick);
      expect(renderBadge(withPlans)).toBe(renderBadge(without));
    }
    expect(badgeMessage(onePlan().withPlans)).toBe('certified · free · 2025-06-01');
  });
});
