/**
 * The GitHub Action's report step (action.yml): `node bin/run.mjs src/cli/action-report.ts <reports-dir> <exit-code>`
 * appends the certificate's headline and failures (summary.md's text, rendered from certification.json) to the job
 * summary ($GITHUB_STEP_SUMMARY), or, when the run wrote no certificate, its exit code and what that means; and gives
 * the action's outputs ($GITHUB_OUTPUT): verdict, exit-code, certification (the path of certification.json), badge and reports.
 * Everything it writes goes through the redactor of the keys in the environment, as every report does.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRedactor } from '../core/redact.ts';
import { envKeys } from '../settings/plan-keys.ts';
import { renderSummary } from '../results/writers/markdown.ts';
import type { RunReport } from '../results/types.ts';
import { EXIT } from '../config/exit.ts';

/** What each exit code of the suite means (README's table of exit codes). */
export const EXIT_MEANING: Readonly<Record<number, string>> = {
  [EXIT.ok]: 'certified, or passed but incomplete',
  [EXIT.notConformant]: 'not conformant: a MUST requirement failed',
  [EXIT.usage]: 'usage or configuration error',
  [EXIT.unreachable]: 'the target was unreachable',
  [EXIT.incomplete]: 'incomplete under --require-complete',
  [EXIT.keyRefused]: 'the API key was refused',
  [EXIT.stopped]: 'stopped early: deadline, request budget, or a wait longer than --max-wait-ms',
  [EXIT.interrupted]: 'interrupted',
};

export type Verdict = RunReport['outcome'] | 'key-refused' | 'none';

export interface ActionReport {
  /** The job summary's Markdown. */
  summary: string;
  outputs: { verdict: Verdict; 'exit-code': string; certification: string; badge: string; reports: string };
}

/** The meaning of an exit code as the summary says it: `code 3 (the target was unreachable)`. */
export function exitText(exitCode: string): string {
  const meaning = /^\d+$/.test(exitCode) ? EXIT_MEANING[Number(exitCode)] : undefined;
  return `code ${exitCode} (${meaning ?? 'unexpected exit code'})`;
}

function readReport(file: string): RunReport | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  } catch {
    return undefined;
  }
}

/** The summary and the outputs of a run that wrote its reports in `reportsDir` (or none) and exited with `exitCode`. */
export function actionReport(reportsDir: string, exitCode: string): ActionReport {
  const certification = resolve(reportsDir, 'certification.json');
  const badge = resolve(reportsDir, 'badge.svg');
  const report = readReport(certification);
  if (!report) {
    const why = exitCode
      ? `the certification exited with ${exitText(exitCode)} before its reports; its log says why.`
      : 'the certification did not run (see the first failed step).';
    return {
      summary: `## ❌ animal-store certification: no certificate\n\nNo certification.json was written: ${why}\n`,
      outputs: { verdict: 'none', 'exit-code': exitCode, certification: '', badge: '', reports: resolve(reportsDir) },
    };
  }
  const verdict: Verdict = report.keyRefused ? 'key-refused' : report.outcome;
  const exit = exitCode && exitCode !== String(EXIT.ok) ? `\n> The certification exited with ${exitText(exitCode)}.\n` : '';
  return {
    summary: `${renderSummary(report)}${exit}`,
    outputs: { verdict, 'exit-code': exitCode, certification, badge: existsSync(badge) ? badge : '', reports: resolve(reportsDir) },
  };
}

/** Appends the summary and the outputs to the files GitHub gives the step (stdout when a variable is unset). */
export function writeActionReport(r: ActionReport, env: NodeJS.ProcessEnv = process.env): void {
  const redact = makeRedactor(envKeys(env));
  const outputs = Object.entries(r.outputs).map(([k, v]) => `${k}=${redact(v)}\n`);
  const put = (file: string | undefined, text: string) => (file ? appendFileSync(file, text) : process.stdout.write(text));
  put(env.GITHUB_STEP_SUMMARY, redact(r.summary));
  put(env.GITHUB_OUTPUT, outputs.join(''));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [reportsDir = 'reports', exitCode = ''] = process.argv.slice(2);
  writeActionReport(actionReport(reportsDir, exitCode));
}
