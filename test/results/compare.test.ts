/**
 * Run-to-run comparison: a run compares itself with the previous certification
 * of the same reports folder (or a --baseline file): new problems, fixed, still
 * failing, and flapping (a status going back and forth over the runs the folder
 * keeps); a folder without history gives no comparison.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compareWithBaseline } from '../../src/results/compare.ts';
import type { RunReport, Status } from '../../src/results/types.ts';
import { tempDir } from '../support/temp.ts';

function report(startedAt: string, statuses: Record<string, Status>): RunReport {
  return {
    kind: 'certification',
    suiteVersion: '1',
    specSha256: 'x',
    target: { env: 'local', baseUrl: 'http://x/v1', plan: 'pro', embedded: false },
    startedAt,
    endedAt: startedAt,
    interrupted: false,
    outcome: Object.values(statuses).includes('fail') ? 'not-conformant' : 'certified',
    counts: { pass: 0, fail: 0, warn: 0, skip: 0, waived: 0, observed: 0 },
    notExercised: [],
    requestsSent: 1,
    requirements: Object.entries(statuses).map(([id, status]) => ({
      id,
      level: 'MUST',
      title: id,
      section: 's',
      quote: 'q',
      area: 'a',
      status,
      counts: { pass: 0, fail: 0, warn: 0, skip: 0, observe: 0, error: 0 },
      findings: [],
      observations: [],
    })),
    suiteErrors: [],
    notes: [],
  };
}

function folder(history: Record<string, Status>[]): string {
  const dir = tempDir('compare');
  history.forEach((statuses, i) => {
    const at = `2030-01-0${i + 1}T03:17:00.000Z`;
    mkdirSync(join(dir, 'runs', `${at.replace(/[:.]/g, '-')}-1`), { recursive: true });
    writeFileSync(join(dir, 'runs', `${at.replace(/[:.]/g, '-')}-1`, 'certification.json'), JSON.stringify(report(at, statuses)));
  });
  return dir;
}

describe('run-to-run comparison', () => {
  test('New problems, fixed, still failing and flapping are told apart against the previous night.', () => {
    const dir = folder([
      { A: 'pass', B: 'fail', C: 'fail', D: 'pass' },
      { A: 'pass', B: 'fail', C: 'fail', D: 'fail' },
      { A: 'pass', B: 'fail', C: 'fail', D: 'pass' },
    ]);
    const now = compareWithBaseline(report('2030-01-09T03:17:00.000Z', { A: 'fail', B: 'pass', C: 'fail', D: 'fail' }), dir);
    expect(now.comparison).toMatchObject({ newProblems: ['A', 'D'], fixed: ['B'], stillFailing: ['C'], flapping: ['D'] });
    expect(now.comparison?.baseline.startedAt).toBe('2030-01-03T03:17:00.000Z');
  });

  test('A --baseline file wins over the folder; a folder without history gives no comparison.', () => {
    const base = join(tempDir('baseline'), 'certification.json');
    writeFileSync(base, JSON.stringify(report('2030-01-01T00:00:00.000Z', { A: 'fail' })));
    expect(compareWithBaseline(report('2030-01-09T00:00:00.000Z', { A: 'pass' }), folder([]), base).comparison?.fixed).toEqual(['A']);
    expect(compareWithBaseline(report('2030-01-09T00:00:00.000Z', { A: 'pass' }), folder([])).comparison).toBeUndefined();
  });
});
