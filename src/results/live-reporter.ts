/**
 * The suite's own Vitest reporter for the console (Vitest's output only with
 * --verbose): one line the first time a requirement fails or warns — a finding
 * of the every-response checks is therefore reported once per requirement, not
 * once per test — and a progress line whenever the run waits on a window or a
 * Retry-After. The verdict block comes at the end, from the CLI.
 */
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestCase } from 'vitest/node';
import { levelOf } from '../core/catalogue.ts';
import type { TestMeta } from './vitest-reporter.ts';
import { oneLine } from './writers/common.ts';

/** Prefix of the console lines a conformance worker prints when it waits; this reporter turns them into progress lines. */
export const WAIT_LOG = '[animal-store:wait] ';

export class LiveReporter implements Reporter {
  private seen = new Set<string>();

  constructor(private readonly out: (line: string) => void = (l) => process.stderr.write(l)) {}

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as TestMeta;
    for (const f of meta.findings ?? []) {
      if (f.outcome !== 'fail' && f.outcome !== 'warn' && f.outcome !== 'error') continue;
      if (this.seen.has(f.requirement)) continue;
      this.seen.add(f.requirement);
      const mark = f.outcome === 'error' ? 'suite error' : f.outcome === 'fail' ? 'FAIL' : 'WARN';
      this.out(`  ${mark} ${f.requirement} (${levelOf(f.requirement)}) ${oneLine(`${f.title}: ${f.message}`, 150)}\n`);
    }
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    if (log.content.startsWith(WAIT_LOG)) this.out(`  … ${log.content.slice(WAIT_LOG.length).trim()}\n`);
  }
}
