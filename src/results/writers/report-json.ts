/**
 * certification.json / conformance.json: the RunReport itself, machine-readable
 * and readable (small objects on one line). Its shape is documented by
 * schemas/certification.schema.json.
 */
import { join, resolve } from 'node:path';
import type { RunReport } from '../types.ts';
import { redactDeep } from '../../core/redact.ts';
import { writeFileAtomic } from './atomic.ts';

type Redact = (s: string) => string;

/** An object or array of plain values that fits this many characters is written on one line (a timeline point, counts). */
const INLINE_MAX = 120;

/** JSON text, 2-space indented, with every small object or array of plain values on one line. */
function pretty(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const list = Array.isArray(value);
  const entries: [string | undefined, unknown][] = list ? value.map((v) => [undefined, v]) : Object.entries(value);
  if (entries.every(([, v]) => v === null || typeof v !== 'object')) {
    const line = JSON.stringify(value);
    if (line.length <= INLINE_MAX) return line;
  }
  const inner = `${indent}  `;
  const items = entries.map(([k, v]) => `${inner}${k === undefined ? '' : `${JSON.stringify(k)}: `}${pretty(v, inner)}`);
  return list ? `[\n${items.join(',\n')}\n${indent}]` : `{\n${items.join(',\n')}\n${indent}}`;
}

/**
 * The JSON text of a report (trailing newline; BigInts as strings): 2-space indented, with each small object or
 * array of plain values on one line — a timeline point, a count — so a long timeline is one line a request.
 */
export function renderJson(report: RunReport): string {
  const plain: unknown = JSON.parse(JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  return `${pretty(plain, '')}\n`;
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
