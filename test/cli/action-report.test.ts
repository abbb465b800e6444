/**
 * The GitHub Action's report step (src/cli/action-report.ts): the job summary is the certificate's headline and
 * failures, rendered from certification.json as summary.md is; with no certificate, the exit code and its meaning;
 * the outputs name the verdict and the files; the key of the environment never reaches the summary or the outputs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionReport, EXIT_MEANING, exitText, writeActionReport } from '../../src/cli/action-report.ts';
import { EXIT } from '../../src/config/exit.ts';
import { renderSummary } from '../../src/results/writers/markdown.ts';
import type { RunReport } from '../../src/results/types.ts';
import { certifiedReport, incompleteReport, unthrottledReport } from '../support/report-fixtures.ts';
import { tempDir } from '../support/temp.ts';

/** A reports folder holding this certification.json (and badge.svg when asked). */
function reportsWith(report: RunReport | string, badge = true): string {
  const dir = tempDir('action-report');
  writeFileSync(join(dir, 'certification.json'), typeof report === 'string' ? report : JSON.stringify(report));
  if (badge) writeFileSync(join(dir, 'badge.svg'), '<svg/>');
  return dir;
}

describe('The job summary and outputs of a run that wrote its certificate', () => {
  const cases: [string, () => RunReport, string, string][] = [
    ['certified', certifiedReport, '0', 'certified'],
    ['passed but incomplete', incompleteReport, '0', 'incomplete'],
    ['not conformant', unthrottledReport, '1', 'not-conformant'],
  ];
  it.each(cases)('A %s run: summary.md’s text, the verdict and the paths of the files.', (_name, make, code, verdict) => {
    const report = make();
    const dir = reportsWith(report);
    const r = actionReport(dir, code);
    expect(r.summary.startsWith(renderSummary(report))).toBe(true);
    expect(r.outputs).toEqual({
      verdict,
      'exit-code': code,
      certification: join(dir, 'certification.json'),
      badge: join(dir, 'badge.svg'),
      reports: dir,
    });
  });

  it('A failing run’s summary lists the failed MUST requirements under its headline, and says what the exit code means.', () => {
    const r = actionReport(reportsWith(unthrottledReport()), '1');
    expect(r.summary).toMatch(/^## ❌ animal-store certification: \*\*NOT CONFORMANT\*\*/);
    expect(r.summary).toContain('RL-CEILING-429');
    expect(r.summary).toContain('The certification exited with code 1 (not conformant: a MUST requirement failed).');
  });

  it('A refused key is the verdict key-refused, whatever the outcome; no badge written is an empty output.', () => {
    const r = actionReport(reportsWith({ ...incompleteReport(), keyRefused: true }, false), '5');
    expect([r.outputs.verdict, r.outputs.badge]).toEqual(['key-refused', '']);
  });
});

describe('The job summary of a run that wrote no certificate', () => {
  it.each([
    ['3', 'exited with code 3 (the target was unreachable) before its reports'],
    ['2', 'exited with code 2 (usage or configuration error) before its reports'],
    ['77', 'exited with code 77 (unexpected exit code) before its reports'],
    ['', 'did not run (see the first failed step)'],
  ])('Exit code %j: the summary says the certification %s, the verdict is none.', (code, words) => {
    const r = actionReport(tempDir('action-report'), code);
    expect(r.summary).toContain(words);
    expect(r.outputs).toMatchObject({ verdict: 'none', 'exit-code': code, certification: '', badge: '' });
  });

  it('A certification.json that is no JSON (a run killed while writing) counts as none.', () => {
    expect(actionReport(reportsWith('{"kind":'), '130').outputs.verdict).toBe('none');
  });

  it('Every exit code of the suite has its meaning.', () => {
    for (const code of Object.values(EXIT)) expect(exitText(String(code))).not.toContain('unexpected');
    expect(Object.keys(EXIT_MEANING).length).toBe(Object.keys(EXIT).length);
  });
});

describe('What the step writes', () => {
  it('It appends the summary to $GITHUB_STEP_SUMMARY and the outputs to $GITHUB_OUTPUT, the key of the environment redacted from both.', () => {
    const key = 'sk_action_5b1f0e9d7c3a2468';
    const dir = tempDir('action-report');
    mkdirSync(join(dir, key));
    const [summary, output] = [join(dir, 'summary'), join(dir, 'output')];
    writeFileSync(summary, 'before\n');
    const r = actionReport(join(dir, key), '3');
    writeActionReport(
      { ...r, summary: `${r.summary}echoed ${key}\n` },
      { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, ANIMAL_STORE_API_KEY: key },
    );
    const written = readFileSync(summary, 'utf8');
    expect(written.startsWith('before\n## ❌ animal-store certification: no certificate')).toBe(true);
    expect(readFileSync(output, 'utf8')).toBe(
      'verdict=none\nexit-code=3\ncertification=\nbadge=\nreports=' + join(dir, '[REDACTED]') + '\n',
    );
    expect(written + readFileSync(output, 'utf8')).not.toContain(key);
  });
});
