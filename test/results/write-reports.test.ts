import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/core/redact.ts';
import { ALL_FORMATS, CONFORMANCE_FORMATS, writeReports, type ReportFormat } from '../../src/results/writers/index.ts';
import { failingReport, certifiedReport, SECRET_KEY } from '../support/report-fixtures.ts';
import { tempDir } from '../support/temp.ts';

const root = tempDir('write-reports');
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `run-${++n}`, 'reports');

describe('writeReports', () => {
  const sets: [string, readonly ReportFormat[] | undefined, string[]][] = [
    ['the default (certification) formats', undefined, ['index.html', 'certification.json', 'junit.xml', 'summary.md', 'badge.svg']],
    ['the conformance-only formats', CONFORMANCE_FORMATS, ['conformance.json', 'junit.xml']],
  ];
  it.each(sets)('It writes %s into a directory it creates and returns their paths.', (_name, formats, files) => {
    const dir = freshDir();
    const paths = writeReports(certifiedReport(), dir, formats);
    expect(paths.map((p) => basename(p))).toEqual(files);
    expect(readdirSync(dir).sort()).toEqual([...files].sort());
  });

  it('It leaves no temporary file behind and replaces an earlier report.', () => {
    const dir = freshDir();
    writeReports(failingReport(), dir);
    writeReports(certifiedReport(), dir);
    expect(readdirSync(dir).sort()).toEqual([...ALL_FORMATS].sort());
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('CERTIFIED');
  });

  it('With the run’s redactor, no file contains the API key in any encoding.', () => {
    const dir = freshDir();
    const paths = writeReports(failingReport(), dir, ALL_FORMATS, makeRedactor([SECRET_KEY]));
    for (const p of paths) {
      const text = readFileSync(p, 'utf8');
      expect(text, basename(p)).not.toContain(SECRET_KEY);
      expect(text, basename(p)).not.toContain(btoa(SECRET_KEY).replace(/=+$/, ''));
    }
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('Bearer [REDACTED]');
  });

  it('Without a redactor the content is written as given (the report is assumed redacted upstream).', () => {
    const [json] = writeReports(failingReport(), freshDir(), ['certification.json']);
    expect(readFileSync(json, 'utf8')).toContain(SECRET_KEY);
  });

  it('An unknown format is an error and nothing is written.', () => {
    const dir = freshDir();
    expect(() => writeReports(certifiedReport(), dir, ['report.pdf' as ReportFormat])).toThrow(/Unknown report format\(s\): report.pdf/);
    expect(() => readdirSync(dir)).toThrow();
  });
});
