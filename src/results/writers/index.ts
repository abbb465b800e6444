/**
 * Writes the reports of a run. Each file is written atomically (temporary file
 * in the same directory, then rename). When a redactor is given, the report is
 * redacted before rendering (so escaping cannot disguise a secret) and the final
 * text of every file is redacted again (defence in depth).
 */
import { join, resolve } from 'node:path';
import type { RunReport } from '../types.ts';
import { redactDeep } from '../../core/redact.ts';
import { writeFileAtomic } from './atomic.ts';
import { renderBadge } from './badge.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './report-json.ts';
import { renderJunit } from './junit.ts';
import { renderSummary } from './markdown.ts';

export type ReportFormat = 'index.html' | 'certification.json' | 'conformance.json' | 'junit.xml' | 'summary.md' | 'badge.svg';

/** The formats of a certification run. */
export const ALL_FORMATS: readonly ReportFormat[] = ['index.html', 'certification.json', 'junit.xml', 'summary.md', 'badge.svg'];
/** The formats of a conformance-only run. */
export const CONFORMANCE_FORMATS: readonly ReportFormat[] = ['conformance.json', 'junit.xml'];

export const RENDERERS: Readonly<Record<ReportFormat, (report: RunReport) => string>> = {
  'index.html': renderHtml,
  'certification.json': renderJson,
  'conformance.json': renderJson,
  'junit.xml': renderJunit,
  'summary.md': renderSummary,
  'badge.svg': renderBadge,
};

/** Renders every format first, then writes them; returns the absolute paths in the order of `formats`. */
export function writeReports(
  report: RunReport,
  dir: string,
  formats: readonly ReportFormat[] = ALL_FORMATS,
  redact?: (s: string) => string,
): string[] {
  const unknown = formats.filter((f) => !(f in RENDERERS));
  if (unknown.length) throw new Error(`Unknown report format(s): ${unknown.join(', ')}`);
  const clean = redact ? redactDeep(report, redact) : report;
  const texts = formats.map((f) => {
    const text = RENDERERS[f](clean);
    return redact ? redact(text) : text;
  });
  const root = resolve(dir);
  return formats.map((f, i) => writeFileAtomic(join(root, f), texts[i]));
}

export { renderBadge, renderHtml, renderJson, renderJunit, renderSummary };
export { writeCertificationJson, writeConformanceJson } from './report-json.ts';
