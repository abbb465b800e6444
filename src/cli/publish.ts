/**
 * Publishing a certification: every format, and the run's traffic as HAR
 * (traffic.har), is written into a run folder of its
 * own (reports/runs/<run id>/), then copied atomically to the top of reports/,
 * and reports/latest.json points at the run folder. Concurrent runs therefore
 * never corrupt each other: each run folder is complete and consistent, and every
 * top-level file is whole.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { RunReport } from '../results/types.ts';
import { copyFileAtomic, writeFileAtomic } from '../results/writers/atomic.ts';
import { ALL_FORMATS, RENDERERS, type ReportFormat } from '../results/writers/index.ts';
import { harRunOf, writeHar } from '../results/writers/har.ts';
import { HAR_FILE, type TrafficLine } from '../results/har-lines.ts';
import { redactDeep } from '../core/redact.ts';
import { RUNS_DIR } from '../results/compare.ts';

const KEEP_RUNS = 20;

export interface Published {
  runDir: string;
  files: string[];
}

export function runId(report: RunReport): string {
  return `${report.startedAt.replace(/[:.]/g, '-')}-${process.pid}`;
}

/**
 * Every format (or `formats`), and the run's traffic as HAR (from the lines the conformance worker recorded, if it
 * ran): the report links it.
 */
export function publishReports(
  report: RunReport,
  dir: string,
  redact: (s: string) => string,
  { formats = ALL_FORMATS, traffic }: { formats?: readonly ReportFormat[]; traffic?: () => Iterable<TrafficLine> } = {},
): Published {
  const root = resolve(dir);
  const id = runId(report);
  const runDir = join(root, RUNS_DIR, id);
  const har = writeHar(join(runDir, HAR_FILE), traffic, harRunOf(report), redact);
  const clean = redactDeep({ ...report, traffic: har }, redact);
  const files: string[] = [];
  for (const f of formats) {
    const text = redact(RENDERERS[f](clean));
    writeFileAtomic(join(runDir, f), text);
    files.push(writeFileAtomic(join(root, f), text));
  }
  files.push(copyFileAtomic(join(runDir, HAR_FILE), join(root, HAR_FILE)));
  writeFileAtomic(
    join(root, 'latest.json'),
    `${JSON.stringify({ runId: id, dir: relative(root, runDir), outcome: report.outcome, endedAt: report.endedAt }, null, 2)}\n`,
  );
  prune(join(root, RUNS_DIR));
  return { runDir, files };
}

function prune(runsDir: string) {
  const runs = readdirSync(runsDir).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEEP_RUNS))) rmSync(join(runsDir, old), { recursive: true, force: true });
}
