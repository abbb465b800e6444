/**
 * certification.json / conformance.json: the RunReport itself, machine-readable.
 * Its shape is documented by schemas/certification.schema.json.
 */
import { join, resolve } from 'node:path';
import type { RunReport } from '../types.ts';
import { redactDeep } from '../../core/redact.ts';
import { writeFileAtomic } from './atomic.ts';

type Redact = (s: string) => string;

/** The JSON text of a report (2-space indented, trailing newline; BigInts as strings). */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}

function write(report: RunReport, dir: string, name: string, redact?: Redact): string {
  const clean = redact ? redactDeep(report, redact) : report;
  const text = renderJson(clean);
  return writeFileAtomic(join(resolve(dir), name), redact ? redact(text) : text);
}

/** Writes `conformance.json` into `dir` and returns its path. */
export function writeConformanceJson(report: RunReport, dir: string, redact?: Redact): string {
  return write(report, dir, 'conformance.json', redact);
}

/** Writes `certification.json` into `dir` and returns its path. */
export function writeCertificationJson(report: RunReport, dir: string, redact?: Redact): string {
  return write(report, dir, 'certification.json', redact);
}
