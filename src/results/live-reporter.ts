/**
 * The suite's own Vitest reporter for the console (Vitest's output only with
 * --verbose): one line the first time a cause fails or warns — the findings of a
 * test grouped by cause as the reports group them (causes.ts), so that a list
 * answering 500 is one line naming every requirement it breaks, not one line per
 * requirement, and a finding of the every-response checks is reported once per
 * cause, not once per test; a requirement a known cause breaks for the first time
 * gets a line naming that cause. A progress line whenever the run waits on a
 * window or a Retry-After. The verdict block comes at the end, from the CLI.
 */
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestCase } from 'vitest/node';
import { levelOf } from '../core/catalogue.ts';
import { groupCauses } from './causes.ts';
import type { CauseResult, Finding } from './types.ts';
import type { TestMeta } from './vitest-reporter.ts';
import { causeRequirementsText } from './writers/causes.ts';
import { oneLine } from './writers/common.ts';

/** Prefix of the console lines a conformance worker prints when it waits; this reporter turns them into progress lines. */
export const WAIT_LOG = '[animal-store:wait] ';

const mark = (status: CauseResult['status']) => (status === 'fail' ? 'FAIL' : 'WARN');

export class LiveReporter implements Reporter {
  /** The causes printed, by id, with the title they were printed under. */
  private readonly causes = new Map<string, string>();
  private readonly requirements = new Set<string>();

  constructor(private readonly out: (line: string) => void = (l) => process.stderr.write(l)) {}

  onTestCaseResult(testCase: TestCase): void {
    const findings = (testCase.meta() as TestMeta).findings ?? [];
    for (const c of groupCauses(findings).causes) this.cause(c);
    for (const f of findings) if (f.outcome === 'error') this.suiteError(f);
  }

  /** A new cause: one line with every requirement it breaks; a known one: a line per requirement it breaks anew. */
  private cause(c: CauseResult): void {
    const fresh = c.requirements.filter((q) => !this.requirements.has(q.id));
    for (const q of c.requirements) this.requirements.add(q.id);
    const title = this.causes.get(c.id);
    if (title === undefined) {
      this.causes.set(c.id, c.title);
      const f = c.primary;
      this.out(`  ${mark(c.status)} ${oneLine(c.title, 100)} — ${oneLine(causeRequirementsText(c), 200)}\n`);
      this.out(`       ${oneLine(`${f.title}: ${f.message}`, 150)}\n`);
      return;
    }
    for (const q of fresh)
      this.out(`  ${q.status === 'fail' ? 'FAIL' : 'WARN'} ${q.id} (${q.level}) — same cause: ${oneLine(title, 120)}\n`);
  }

  private suiteError(f: Finding): void {
    const key = `error ${f.requirement}`;
    if (this.requirements.has(key)) return;
    this.requirements.add(key);
    this.out(`  suite error ${f.requirement} (${levelOf(f.requirement)}) ${oneLine(`${f.title}: ${f.message}`, 150)}\n`);
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    if (log.content.startsWith(WAIT_LOG)) this.out(`  … ${log.content.slice(WAIT_LOG.length).trim()}\n`);
  }
}
