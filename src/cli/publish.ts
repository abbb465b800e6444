/**
 * Publishing a certification: every format is written into a run folder of its
 * own (reports/runs/<run id>/), then copied atomically to the top of reports/,
 * and reports/latest.json points at the run folder. Concurrent runs therefore
 * never corrupt each other: each run folder is complete and consistent, and every
 * top-level file is whole.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { RunReport } from '../results/types.ts';
import { writeFileAtomic } from '../results/writers/atomic.ts';
import { ALL_FORMATS, RENDERERS, type ReportFormat } from '../results/writers/index.ts';
import { redactDeep } from '../core/redact.ts';

const KEEP_RUNS = 20;

export interface Published {
  runDir: string;
  files: string[];
  banner: string;
}

export function runId(report: RunReport): string {
  return `${report.startedAt.replace(/[:.]/g, '-')}-${process.pid}`;
}

export function publishReports(
  report: RunReport,
  dir: string,
  redact: (s: string) => string,
  formats: readonly ReportFormat[] = ALL_FORMATS,
): Published {
  const root = resolve(dir);
  const id = runId(report);
  const runDir = join(root, 'runs', id);
  const clean = redactDeep(report, redact);
  const files: string[] = [];
  for (const f of formats) {
    const text = redact(RENDERERS[f](clean));
    writeFileAtomic(join(runDir, f), text);
    files.push(writeFileAtomic(join(root, f), text));
  }
  writeFileAtomic(
    join(root, 'latest.json'),
    `${JSON.stringify({ runId: id, dir: relative(root, runDir), verdict: report.verdict, endedAt: report.endedAt }, null, 2)}\n`,
  );
  prune(join(root, 'runs'));
  return { runDir, files, banner: banner(report, files, runDir) };
}

function prune(runsDir: string) {
  const runs = readdirSync(runsDir).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEEP_RUNS))) rmSync(join(runsDir, old), { recursive: true, force: true });
}

export function banner(report: RunReport, files: readonly string[], runDir: string): string {
  const c = report.counts;
  const head = report.interrupted ? 'INTERRUPTED' : report.verdict === 'pass' ? 'CERTIFIED' : 'NOT CONFORMANT';
  const failed = report.requirements
    .filter((r) => r.status === 'fail')
    .map((r) => `  ✗ ${r.id} (${r.level}) ${r.title}${r.findings[0] ? `\n      ${r.findings[0].message}` : ''}`);
  return [
    `animal-store certification: ${head} — ${report.target.baseUrl} (${report.target.env}, plan ${report.target.plan})`,
    `  ${c.pass} pass, ${c.fail} fail, ${c.warn} warn, ${c.skip} skip, ${c.waived} waived; ${report.requestsSent} requests`,
    ...(report.abort ? [`  run stopped early: ${report.abort}`] : []),
    ...failed.slice(0, 15),
    ...(failed.length > 15 ? [`  … and ${failed.length - 15} more`] : []),
    `  reports: ${files.map((f) => relative(process.cwd(), f)).join(', ')}`,
    `  this run: ${relative(process.cwd(), runDir)}`,
  ].join('\n');
}
