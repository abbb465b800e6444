/**
 * Waivers: a checked-in file of known gaps (`waivers.json`:
 * `[{ "id": "…", "reason": "…", "expires": "YYYY-MM-DD" }]`) that turns those
 * failures (and warnings) into "waived" in the verdict and the certificate.
 *
 * - A waiver is valid up to and including its expiry day (UTC); after that the
 *   failure counts again and a note says the waiver expired.
 * - Only SHOULD/INFO requirements can be waived, unless `allowMustWaivers`
 *   (--allow-must-waivers) is given; the report then records it in a note.
 * - The outcome and the counts are recomputed; a waived MUST requirement is not
 *   a passed one, so a run with one is never certified (it is incomplete).
 */
import { readFileSync } from 'node:fs';
import { isRequirementId } from '../core/catalogue.ts';
import { countStatuses, finalize, outcomeOf } from './aggregate.ts';
import type { PlanResult, RunReport } from './types.ts';
import { MUST_WAIVERS_NOTE_PREFIX } from './writers/common.ts';

export interface Waiver {
  id: string;
  reason: string;
  /** Last day (UTC) the waiver is valid, YYYY-MM-DD. */
  expires: string;
}

export interface ApplyWaiversOptions {
  now?: Date;
  allowMustWaivers?: boolean;
}

export class WaiverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WaiverError';
  }
}

/** Days before expiry from which a note warns that a waiver is about to expire. */
export const EXPIRY_WARNING_DAYS = 14;

const KEYS = ['id', 'reason', 'expires'];

export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Validates the parsed content of a waivers file; throws one WaiverError listing every problem. */
export function validateWaivers(value: unknown, source = 'waivers.json'): Waiver[] {
  if (!Array.isArray(value)) throw new WaiverError(`${source}: expected a JSON array of { id, reason, expires }`);
  const problems: string[] = [];
  const seen = new Set<string>();
  const out: Waiver[] = [];
  value.forEach((w: unknown, i) => {
    const at = `${source}[${i}]`;
    if (typeof w !== 'object' || w === null || Array.isArray(w)) return void problems.push(`${at}: expected an object`);
    const o = w as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => !KEYS.includes(k));
    if (extra.length) problems.push(`${at}: unknown field(s) ${extra.join(', ')}`);
    const { id, reason, expires } = o;
    if (typeof id !== 'string' || !id) problems.push(`${at}: id must be a requirement id`);
    else if (!isRequirementId(id)) problems.push(`${at}: unknown requirement id ${JSON.stringify(id)}`);
    else if (seen.has(id)) problems.push(`${at}: duplicate waiver for ${id}`);
    if (typeof reason !== 'string' || !reason.trim()) problems.push(`${at}: reason must be a non-empty string`);
    if (typeof expires !== 'string' || !isValidDate(expires))
      problems.push(`${at}: expires must be a date YYYY-MM-DD, got ${JSON.stringify(expires)}`);
    if (typeof id === 'string') seen.add(id);
    if (typeof id === 'string' && typeof reason === 'string' && typeof expires === 'string')
      out.push({ id, reason: reason.trim(), expires });
  });
  if (problems.length) throw new WaiverError(`Invalid waivers:\n  ${problems.join('\n  ')}`);
  return out;
}

/** Parses the text of a waivers file. */
export function parseWaivers(text: string, source = 'waivers.json'): Waiver[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new WaiverError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  return validateWaivers(value, source);
}

/** Reads and validates a waivers file. */
export function loadWaivers(path: string): Waiver[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new WaiverError(`Cannot read waivers file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseWaivers(text, path);
}

const today = (now: Date) => now.toISOString().slice(0, 10);

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Returns a new report with the waivers applied, the counts and the verdict recomputed. */
export function applyWaivers(report: RunReport, waivers: readonly Waiver[], options: ApplyWaiversOptions = {}): RunReport {
  const day = today(options.now ?? new Date());
  const allowMust = options.allowMustWaivers === true;
  const byId = new Map(waivers.map((w) => [w.id, w]));
  const notes = [...report.notes];
  let mustWaived = 0;
  const requirements = report.requirements.map((r) => {
    const w = byId.get(r.id);
    if (!w) return r;
    if (r.status === 'pass') {
      notes.push(`Waiver for ${r.id} is unused: the requirement passed; remove it from waivers.json.`);
      return r;
    }
    if (r.status !== 'fail' && r.status !== 'warn') return r;
    if (w.expires < day) {
      notes.push(`Waiver for ${r.id} expired on ${w.expires}; the ${r.status === 'fail' ? 'failure' : 'warning'} counts again.`);
      return r;
    }
    if (r.level === 'MUST' && !allowMust) {
      notes.push(`Waiver for ${r.id} ignored: MUST requirements can be waived only with --allow-must-waivers.`);
      return r;
    }
    const left = daysBetween(day, w.expires);
    if (left <= EXPIRY_WARNING_DAYS)
      notes.push(`Waiver for ${r.id} expires on ${w.expires} (${left === 0 ? 'today' : `in ${left} day${left === 1 ? '' : 's'}`}).`);
    if (r.level === 'MUST') mustWaived++;
    return { ...r, status: 'waived' as const, waiver: { reason: w.reason, expires: w.expires } };
  });
  if (allowMust)
    notes.push(
      `${MUST_WAIVERS_NOTE_PREFIX} (--allow-must-waivers): ${mustWaived} MUST requirement${mustWaived === 1 ? '' : 's'} waived by this run.`,
    );
  // Several plans: the same waivers (as they applied above) on each plan's statuses, and each plan's outcome again.
  const applied = new Set(requirements.filter((r) => r.status === 'waived').map((r) => r.id));
  const plans = report.plans?.map((p) => waivePlan(report.kind, p, applied));
  return finalize({ ...report, requirements, notes, ...(plans ? { plans } : {}) });
}

function waivePlan(kind: RunReport['kind'], p: PlanResult, applied: ReadonlySet<string>): PlanResult {
  // A plan stopped early is incomplete whatever its statuses say: keep that.
  const stopped = p.outcome === 'incomplete' && outcomeOf(kind, p.requirements, false) === 'certified';
  const requirements = p.requirements.map((r) =>
    applied.has(r.id) && (r.status === 'fail' || r.status === 'warn') ? { ...r, status: 'waived' as const } : r,
  );
  return { ...p, requirements, outcome: outcomeOf(kind, requirements, stopped), counts: countStatuses(requirements) };
}
