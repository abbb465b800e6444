/**
 * Run-to-run comparison: this run against the previous certification in the
 * same reports folder (or a `--baseline` certification.json) — new problems
 * first, then fixed, still failing, and flapping (a requirement whose status
 * changed back and forth over the last runs the folder keeps).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Comparison, RunReport, Status } from './types.ts';

/** How many earlier certifications the comparison reads (flapping is judged over them). */
export const HISTORY = 5;
/** Where a reports folder keeps each run's files: `<reports>/runs/<run id>/`. */
export const RUNS_DIR = 'runs';
/** The file of an earlier run the comparison reads. */
export const HISTORY_FILE = 'certification.json';

interface Past {
  file: string;
  startedAt: string;
  outcome: RunReport['outcome'];
  statuses: Record<string, Status>;
}

function read(file: string): Past | undefined {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunReport>;
    if (!Array.isArray(r.requirements) || typeof r.startedAt !== 'string') return undefined;
    const statuses: Record<string, Status> = {};
    for (const q of r.requirements) statuses[q.id] = q.status;
    return { file, startedAt: r.startedAt, outcome: r.outcome ?? 'incomplete', statuses };
  } catch {
    return undefined;
  }
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
  };
}

/** The report with its comparison against the baseline file, or the previous run of the folder. */
export function compareWithBaseline(report: RunReport, reportsDir: string, baselineFile?: string): RunReport {
  const past = baselineFile ? [read(baselineFile)].filter((p): p is Past => !!p) : history(reportsDir, report.startedAt);
  const comparison = compare(report, past);
  return comparison ? { ...report, comparison } : report;
}
