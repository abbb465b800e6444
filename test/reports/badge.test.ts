import { describe, expect, it } from 'vitest';
import { BADGE_GREEN, BADGE_RED, badgeMessage, renderBadge, textWidth } from '../../src/results/writers/badge.ts';
import type { RunReport } from '../../src/results/types.ts';
import { aborted, failingReport, HOSTILE, interrupted, passingReport } from './fixtures.ts';
import { xmlProblems } from './xml-check.ts';

describe('badge.svg', () => {
  const cases: [string, RunReport, string, string][] = [
    ['passing', passingReport(), 'conformant · free · 2025-06-01', BADGE_GREEN],
    ['failing', failingReport(), 'not conformant · free · 2025-06-01', BADGE_RED],
    ['interrupted', interrupted(passingReport()), 'not conformant · free · 2025-06-01', BADGE_RED],
    ['aborted', aborted(passingReport()), 'not conformant · free · 2025-06-01', BADGE_RED],
  ];
  it.each(cases)('The badge of the %s run reads "%s" on the right colour.', (_name, report, message, color) => {
    const svg = renderBadge(report);
    expect(badgeMessage(report)).toBe(message);
    expect(svg).toContain(`aria-label="animal-store: ${message}"`);
    expect(svg).toContain(`fill="${color}"`);
    expect(xmlProblems(svg)).toEqual([]);
  });

  it('The width grows with the text.', () => {
    const width = (r: RunReport) => Number(/<svg [^>]*width="(\d+(?:\.\d+)?)"/.exec(renderBadge(r))![1]);
    expect(width(failingReport())).toBeGreaterThan(width(passingReport()));
    expect(textWidth('conformant')).toBeGreaterThan(textWidth('iiii'));
  });

  it('A hostile plan name is escaped.', () => {
    const r = passingReport();
    const svg = renderBadge({ ...r, target: { ...r.target, plan: HOSTILE.script } });
    expect(svg).not.toContain('<script');
    expect(xmlProblems(svg)).toEqual([]);
  });
});
