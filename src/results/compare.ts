/**
 * Run-to-run comparison: this run against the previous certification in the
 * same reports folder (or a `--baseline` certification.json) — new problems
 * first, then fixed, still failing, and flapping (a requirement whose status
 * changed back and forth over the last runs the folder keeps) — and the causes
 * new or fixed since, by their stable ids.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CauseRef, Comparison, RunReport, Status } from './types.ts';

/** How many earlier certifications the comparison reads (flapping is judged over them). */
export const HISTORY = 5;
/** Where a reports folder keeps each run's files: `<reports>/runs/<run id>/`. */
export const RUNS_DIR = 'runs';
/** The file of an earlier run the comparison reads. */
export const HISTORY_FILE = 'certification.json';

/** A cause of an earlier run, as the comparison needs it. */
interface PastCause extends CauseRef {
  requirements: string[];
}

interface Past {
  file: string;
  startedAt: string;
  outcome: RunReport['outcome'];
  statuses: Record<string, Status>;
  /** The causes it failed or warned for (absent: a report written before causes existed). */
  causes?: PastCause[];
}

/** The causes of an earlier report that failed or warned, as far as its file is readable. */
function pastCauses(r: Partial<RunReport>): PastCause[] | undefined {
  if (!Array.isArray(r.causes)) return undefined;
  return r.causes
    .filter((c) => c && typeof c.id === 'string' && c.status !== 'waived')
    .map((c) => ({ id: c.id, title: String(c.title), requirements: (c.requirements ?? []).map((q) => q.id) }));
}

function read(file: string): Past | undefined {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunReport>;
    if (!Array.isArray(r.requirements) || typeof r.startedAt !== 'string') return undefined;
    const statuses: Record<string, Status> = {};
    for (const q of r.requirements) statuses[q.id] = q.status;
    const causes = pastCauses(r);
    return {
      file,
      startedAt: r.startedAt,
      outcome: r.outcome ?? 'incomplete',
      statuses,
      ...(causes ? { causes } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Causes by their stable id: new (failing or warning now, not before) and fixed (gone, every requirement they broke
 * passing now). Nothing when either run has no causes (a report written before causes existed).
 */
function compareCauses(report: RunReport, prev: Past): Pick<Comparison, 'newCauses' | 'fixedCauses'> {
  if (!prev.causes || !report.causes) return {};
  const now = report.causes.filter((c) => c.status !== 'waived');
  const before = new Set(prev.causes.map((c) => c.id));
  const ids = new Set(now.map((c) => c.id));
  const status = new Map(report.requirements.map((r) => [r.id, r.status]));
  const passing = (id: string) => status.get(id) === 'pass' || status.get(id) === 'observed';
  return {
    newCauses: now.filter((c) => !before.has(c.id)).map((c) => ({ id: c.id, title: c.title })),
    fixedCauses: prev.causes
      .filter((c) => !ids.has(c.id) && c.requirements.length > 0 && c.requirements.every(passing))
      .map((c) => ({ id: c.id, title: c.title })),
  };
}

/** The earlier certifications of a reports folder, newest first. */
export function history(reportsDir: string, before: string): Past[] {
  const runs = join(reportsDir, RUNS_DIR);
  if (!existsSync(runs)) return [];
  return readdirSync(runs)
    .sort()
    .reverse()
    .map((d) => read(join(runs, d, HISTORY_FILE)))
    .filter((p): p is Past => !!p && p.startedAt < before)
    .slice(0, HISTORY);
}

const problem = (s: Status | undefined) => s === 'fail' || s === 'warn';

export function compare(report: RunReport, past: readonly Past[]): Comparison | undefined {
  const prev = past[0];
  if (!prev) return undefined;
  const now: Record<string, Status> = {};
  for (const r of report.requirements) now[r.id] = r.status;
  const ids = report.requirements.map((r) => r.id);
  const flapping = ids.filter((id) => {
    const seq = [now[id], ...past.map((p) => p.statuses[id])].filter((s): s is Status => s !== undefined && s !== 'skip');
    let changes = 0;
    for (let i = 1; i < seq.length; i++) if (problem(seq[i]) !== problem(seq[i - 1])) changes++;
    return changes >= 2;
  });
  return {
    baseline: { startedAt: prev.startedAt, outcome: prev.outcome, file: prev.file },
    newProblems: ids.filter((id) => problem(now[id]) && !problem(prev.statuses[id])),
    fixed: ids.filter((id) => problem(prev.statuses[id]) && now[id] === 'pass'),
    stillFailing: ids.filter((id) => problem(now[id]) && problem(prev.statuses[id])),
    flapping,
    ...compareCauses(report, prev),
  };
}

/** The report with its comparison against the baseline file, or the previous run of the folder. */
export function compareWithBaseline(report: RunReport, reportsDir: string, baselineFile?: string): RunReport {
  const past = baselineFile ? [read(baselineFile)].filter((p): p is Past => !!p) : history(reportsDir, report.startedAt);
  const comparison = compare(report, past);
  return comparison ? { ...report, comparison } : report;
}
