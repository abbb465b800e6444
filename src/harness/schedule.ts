/**
 * How a run's spec tests are scheduled: independent tests in flight together — their requests share the client's
 * flight (src/http/flight.ts: a polite cap, never more than X-RateLimit-Remaining allows), order kept inside each test
 * (a read-back after its create) and by the fixtures tests share (`Session.once`: the pets created once, awaited by
 * every test that reads them) — then each test that must run alone (`SpecTest.alone`: one that counts Remaining one
 * request at a time, the exploration's parts), one after another, in the run's order, with nothing else in flight.
 * The Vitest run and the in-process runner schedule the same way.
 */
import type { SpecFile, SpecTest } from './define-spec.ts';
import { executeTest, type TestOutcome } from './execute.ts';
import type { Session } from './session.ts';

/** One spec test of a run, with its file. */
export interface Planned {
  file: Pick<SpecFile, 'operation' | 'behaviour'>;
  st: SpecTest;
}

/**
 * Start a run's tests: every test not alone at once, then each alone test, in order, once all before it are done.
 * Returns each test's outcome, in the order of `plan` (executeTest never throws).
 */
export function schedule(session: Session, plan: readonly Planned[]): Promise<TestOutcome>[] {
  const outcomes = new Map<Planned, Promise<TestOutcome>>();
  for (const p of plan) if (!p.st.alone) outcomes.set(p, executeTest(session, p.st, p.file));
  let done: Promise<unknown> = Promise.all(outcomes.values());
  for (const p of plan) {
    if (!p.st.alone) continue;
    const out = done.then(() => executeTest(session, p.st, p.file));
    outcomes.set(p, out);
    done = out;
  }
  return plan.map((p) => outcomes.get(p)!);
}
