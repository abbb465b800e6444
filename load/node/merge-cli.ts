/**
 * `npm run load:merge -- <share files…> [k6 logs…] [--reports-dir DIR]`
 *
 * Merges the share reports of one distributed run (each k6 instance of a
 * sustained or overload run with ANIMAL_STORE_LOAD_DISTRIBUTED=yes writes
 * load-<scenario>-<plan>.share-<segment>.json, and its requests into k6's log:
 * load/lib/k6-log.ts) into one report judged on every
 * request of the run, writes it into a run folder of its own
 * (reports/load/merged-<id>/) and prints one verdict line.
 * Exit codes: 0 passed (or passed with requirements not exercised), 1 a MUST
 * requirement failed, 2 usage error or shares that cannot be merged.
 */
import { EXIT, ignoreClosedPipes } from '../../src/config/exit.ts';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shownPath } from '../../src/config/command-config.ts';
import { loadJunit, loadSummaryText } from '../lib/report-text.ts';
import { reportBaseName, type LoadReport } from '../../src/core/load-report.ts';
import { envKeys } from '../../src/settings/plan-keys.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { completeReport, logMessages, METRICS_ONLY_NOTE } from '../lib/k6-log.ts';
import { mergeShares, readShare } from '../lib/merge.ts';

export const MERGE_USAGE = `Usage: npm run load:merge -- <share report>… <k6 log>… [--reports-dir DIR]

Merges the shares of one distributed sustained or overload run (one report per
k6 instance, written with ANIMAL_STORE_LOAD_DISTRIBUTED=yes, and each instance's
k6 log, e.g. k6 run … 2> instance-1.log, which carries its requests) into one verdict
judged on every request of the run: successes per window and RL-NOT-EARLY across
the shares. Shares of different runs, or two shares of one segment, are refused.

Exit codes: 0 passed (or passed with requirements not exercised), 1 a MUST
requirement failed, 2 usage error or shares that cannot be merged.`;

/** Largest share file read (a share of the daily scenario of a business plan is a few MB). */
export const MAX_SHARE_BYTES = 256 * 1024 * 1024;

type Out = { say(s: string): void; warn(s: string): void };

export function mergeMain(argv: readonly string[], out: Out): number {
  const args = argsOf(argv);
  if (args === 'help') {
    out.say(`${MERGE_USAGE}\n`);
    return EXIT.ok;
  }
  if (typeof args === 'string') return usage(out, args);
  const inputs = readInputs(args.files);
  if (typeof inputs === 'string') return usage(out, inputs);
  const completed = completedShares(inputs.shares, inputs.logLines);
  if (typeof completed === 'string') return usage(out, completed);
  const merged = mergeShares(completed);
  if (!merged.report) return usage(out, `cannot merge: ${merged.refused}`);
  const report = merged.report;
  const folder = writeMerged(report, args.dir, out);
  out.say(`reports: ${shownPath(folder)}\n${verdictLine(report, inputs.shares.length)}\n`);
  return report.verdict === 'fail' ? EXIT.notConformant : EXIT.ok;
}

/** The files to read and the reports folder; 'help', or a usage error in words. */
function argsOf(argv: readonly string[]): { files: string[]; dir: string } | string {
  const files: string[] = [];
  let dir = process.env.ANIMAL_STORE_REPORTS_DIR || 'reports';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--reports-dir' && argv[i + 1]) dir = argv[++i];
    else if (a.startsWith('--reports-dir=')) dir = a.slice('--reports-dir='.length);
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else files.push(a);
  }
  if (!files.length) return 'name the share reports to merge';
  return { files, dir };
}

/** Each file read as a share report, or as a k6 log (the messages it carries); why not, in words. */
function readInputs(files: readonly string[]): { shares: LoadReport[]; logLines: string[] } | string {
  const shares: LoadReport[] = [];
  const logLines: string[] = [];
  for (const f of files) {
    let value: unknown;
    try {
      if (statSync(f).size > MAX_SHARE_BYTES) return `${f}: larger than ${MAX_SHARE_BYTES} bytes`;
      const text = readFileSync(f, 'utf8');
      const carried = logMessages(text);
      if (carried.length && !/^\s*\{\s*"scenario"/.test(text)) {
        logLines.push(...carried);
        continue;
      }
      value = JSON.parse(text);
    } catch (e) {
      return `${f}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    const r = readShare(value, f);
    if (typeof r === 'string') return r;
    shares.push(r);
  }
  return { shares, logLines };
}

/** A share as handleSummary wrote it has its requests in its instance's log: completed from the logs given (why not, in words). */
function completedShares(shares: readonly LoadReport[], logLines: readonly string[]): LoadReport[] | string {
  const metricsOnly = (s: LoadReport) => (s.notes || []).some((n) => n === METRICS_ONLY_NOTE);
  const completed = shares.map((s) => {
    if (!metricsOnly(s)) return s;
    const untagged = completeReport(s, logLines, false);
    return untagged !== s ? untagged : completeReport(s, logLines, true);
  });
  const bare = completed.find(metricsOnly);
  if (bare)
    return `the share of segment ${bare.share?.segment || '0:1'} carries no request: give the k6 log of each instance too (k6 run … 2> instance.log), its requests travel there`;
  return completed;
}

/** The merged report's JSON and JUnit files in a run folder of their own, its summary on stdout; returns the folder. */
function writeMerged(report: LoadReport, dir: string, out: Out): string {
  // The shares were redacted by k6; whatever key this environment holds is redacted again.
  const redact = makeRedactor(envKeys(process.env));
  const folder = join(dir, 'load', `merged-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  const base = join(folder, reportBaseName(report.scenario, report.plan));
  writeFileSync(`${base}.json`, redact(JSON.stringify(report, null, 2)) + '\n');
  writeFileSync(`${base}.junit.xml`, redact(loadJunit(report)));
  out.say(redact(loadSummaryText(report)));
  return folder;
}

/** The one verdict line of the merge. */
function verdictLine(report: LoadReport, shares: number): string {
  const tail = `${shares} shares, ${report.requestsSent} requests`;
  return report.verdict === 'fail'
    ? `load:merge: FAIL — ${report.scenario} failed a MUST requirement (${tail})`
    : report.verdict === 'incomplete'
      ? `load:merge: PASSED, INCOMPLETE — ${report.scenario} left MUST requirements not exercised (${tail})`
      : `load:merge: PASS — ${report.scenario} passed (${tail})`;
}

function usage(out: { warn(s: string): void }, message: string): number {
  out.warn(`load:merge: ${message}\n(see npm run load:merge -- --help)\n`);
  return EXIT.usage;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ignoreClosedPipes();
  process.exitCode = mergeMain(process.argv.slice(2), { say: (s) => process.stdout.write(s), warn: (s) => process.stderr.write(s) });
}
