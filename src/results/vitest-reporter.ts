/**
 * A Vitest reporter that gathers the findings every conformance test leaves in
 * its `meta`. It only collects: the CLI builds the report and the writers write it.
 */
import type { Reporter, TestCase } from 'vitest/node';
import type { Finding } from './types.ts';

export interface TestMeta {
  findings?: Finding[];
  requests?: number;
  abort?: string;
  abortReason?: string;
  diagnosis?: string;
  notes?: Record<string, string>;
}

export class FindingsCollector implements Reporter {
  findings: Finding[] = [];
  requests = 0;
  abort?: { reason: string; message: string; diagnosis?: string };
  tests = { passed: 0, failed: 0, skipped: 0 };
  errors: string[] = [];
  /** The run's notes, keyed: a later test's note replaces an earlier one with the same key. */
  readonly notes: Record<string, string> = {};

  onTestCaseResult(testCase: TestCase): void {
    const meta = testCase.meta() as TestMeta;
    if (meta.findings) this.findings.push(...meta.findings);
    this.requests += meta.requests ?? 0;
    Object.assign(this.notes, meta.notes);
    if (meta.abort && !this.abort)
      this.abort = { reason: meta.abortReason ?? 'aborted', message: meta.abort, ...(meta.diagnosis ? { diagnosis: meta.diagnosis } : {}) };
    const state = testCase.result().state;
    if (state === 'passed') this.tests.passed++;
    else if (state === 'failed') this.tests.failed++;
    else this.tests.skipped++;
  }

  onTestRunEnd(_modules: unknown, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandledErrors) this.errors.push(e.message ?? JSON.stringify(e));
  }
}
