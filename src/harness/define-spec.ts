/**
 * `defineSpec` — how a conformance spec file declares its tests. Under Vitest it
 * registers one `test` per entry (findings travel in `task.meta`); in
 * collection mode (the self-tests, the benchmark) it only records the
 * definitions so `runSpecs` can execute them in process.
 */
import { describe, test } from 'vitest';
import { requirement as lookup, type RequirementId } from '../core/catalogue.ts';
import type { Finding } from '../results/types.ts';
import type { TestContext } from './context.ts';
import { COLLECT, type Collector } from './collect.ts';

export { executeTest, type TestOutcome } from './execute.ts';
export { collectSpecs } from './collect.ts';

export interface SpecTest {
  /** A full sentence saying what the server must do. */
  title: string;
  /** Catalogue ids this test judges. */
  requirements: readonly RequirementId[];
  /** The test creates pets (skipped when writes are not allowed). */
  writes?: boolean;
  /**
   * The test runs with no other request in flight, after the tests that run together (schedule.ts): it counts
   * X-RateLimit-Remaining one request at a time, or paces itself on the whole key.
   */
  alone?: boolean;
  /** The test's body: asynchronous when it sends requests. */
  run(t: TestContext): void | Promise<void>;
}

export interface SpecFile {
  operation: 'auth' | 'listPets' | 'createPet' | 'getPet' | 'rate-limit-headers' | 'versioning' | 'exploration';
  behaviour: string;
  tests: readonly SpecTest[];
}

/** An error without a stack: Vitest then shows the finding, not a code frame of the harness. */
function plainError(message: string): Error {
  const e = new Error(message);
  e.stack = `${e.name}: ${message}`;
  return e;
}

export function mustFailures(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.outcome === 'fail' && lookup(f.requirement).level === 'MUST');
}

export function defineSpec(file: SpecFile): SpecFile {
  const collector = (globalThis as Record<symbol, unknown>)[COLLECT] as Collector | undefined;
  if (collector) {
    collector.push(file);
    return file;
  }
  describe(`${file.operation} › ${file.behaviour}`, () => {
    for (const st of file.tests) {
      test(st.title, async ({ task, skip }) => {
        const { vitestSession } = await import('./vitest-session.ts');
        const { scheduled } = await import('./vitest-schedule.ts');
        const session = await vitestSession();
        const out = await scheduled(session, { file, st }, task.file.filepath);
        Object.assign(task.meta, {
          findings: out.findings,
          requests: out.requests,
          abort: out.abort?.message,
          abortReason: out.abort?.reason,
          diagnosis: out.abort?.diagnosis,
          requirements: st.requirements,
          notes: out.notes,
        });
        if (out.skipped) skip(out.skipped);
        // The test fails for its own requirements only: what the every-response checks find is reported once per requirement, by the suite's reporter.
        const failed = mustFailures(out.findings.filter((f) => (st.requirements as readonly string[]).includes(f.requirement)));
        if (failed.length) throw plainError(failed.map((f) => `${f.requirement}: ${f.title} — ${f.message}`).join('\n'));
      });
    }
  });
  return file;
}
