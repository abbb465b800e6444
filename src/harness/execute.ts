/**
 * How one spec test runs on a session: in its own scope (its findings, its page of the HAR, its requests), skipped
 * when the run was aborted or the test needs writes that are off, a run abort or a defect of the suite turned into
 * what its requirements report. Never throws.
 */
import { judgeAny } from '../core/catalogue.ts';
import { RunAborted } from '../http/client.ts';
import type { Finding } from '../results/types.ts';
import { makeContext } from './context.ts';
import type { SpecFile, SpecTest } from './define-spec.ts';
import type { Session, TestScope } from './session.ts';

export interface TestOutcome {
  findings: Finding[];
  skipped?: string;
  abort?: RunAborted;
  requests: number;
  /** The session's notes for the report (keyed; a later test's note replaces an earlier one with the same key). */
  notes?: Record<string, string>;
}

/**
 * Run one spec test of `file` on a session and return what it found. Never throws. Tests may run in flight together
 * (schedule.ts): each has its own scope — its findings, its page of the HAR, its count of requests.
 */
export function executeTest(session: Session, st: SpecTest, file?: Pick<SpecFile, 'operation' | 'behaviour'>): Promise<TestOutcome> {
  const page = session.traffic?.page(file ? `${file.operation} › ${file.behaviour}: ${st.title}` : st.title);
  const scope: TestScope = { findings: [], requests: 0, ...(page ? { page } : {}) };
  return session.inScope(scope, () => runTest(session, st, scope));
}

async function runTest(session: Session, st: SpecTest, scope: TestScope): Promise<TestOutcome> {
  const findings = scope.findings;
  const source = `spec: ${st.title}`;
  const skipAll = (why: string, remedy?: string) => {
    for (const requirement of st.requirements)
      session.record(judgeAny(requirement, { outcome: 'skip', title: 'skipped', message: why, remedy }), { source });
    return { findings, skipped: why, requests: 0 };
  };
  if (session.aborted) return skipAll(`run aborted: ${session.aborted.message}`);
  if (st.writes && !session.config.allowWrites)
    return skipAll(
      'writes are off (the default in production, or --allow-writes false, or ANIMAL_STORE_ALLOW_WRITES=false); this test creates pets',
      'allow the run to create pets: --allow-writes (or ANIMAL_STORE_ALLOW_WRITES=true), or --profile full',
    );
  try {
    await st.run(makeContext(session, st.title));
  } catch (e) {
    if (e instanceof RunAborted) {
      session.aborted ??= e;
      return { ...skipAll(`run aborted: ${e.message}`), abort: e, requests: scope.requests };
    }
    // A defect of the suite, never of the server: the test's requirements count as not exercised.
    for (const requirement of st.requirements)
      session.record(
        judgeAny(requirement, {
          outcome: 'error',
          title: 'suite-error',
          message: `the spec test could not complete: ${(e as Error).message}`,
        }),
        { source },
      );
  }
  return { findings, requests: scope.requests, ...notesOf(session) };
}

function notesOf(session: Session): { notes?: Record<string, string> } {
  return session.notes.size ? { notes: Object.fromEntries(session.notes) } : {};
}
