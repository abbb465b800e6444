/**
 * How a run's spec tests are scheduled: in the run's order, as many at once as the client's flight is wide
 * (src/http/flight.ts: as many as the server's latency needs, a polite cap, never more than X-RateLimit-Remaining
 * allows) — one at a time on a fast server, so its run sends what it always sent, in the same order. Order is kept
 * inside each test (a read-back after its create) and by the fixtures tests share (`Session.once`: the pets created
 * once, awaited by every test that reads them); a test that must run alone (`SpecTest.alone`: one that counts Remaining
 * one request at a time, the exploration's parts) starts once every test before it is done, and none starts with it.
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
 * Start a run's tests, in order, at most `width()` at a time (asked again as each one ends), each alone one by itself.
 * Returns each test's outcome, in the order of `plan` (executeTest never throws).
 */
export function schedule(session: Session, plan: readonly Planned[], width = () => session.client.flight.width()): Promise<TestOutcome>[] {
  const outcomes = plan.map(() => {
    let settle!: (o: TestOutcome) => void;
    const promise = new Promise<TestOutcome>((r) => (settle = r));
    return { promise, settle };
  });
  let next = 0;
  let running = 0;
  let aloneRunning = false;
  const startMore = (): void => {
    while (next < plan.length && !aloneRunning) {
      const { st, file } = plan[next];
      if (st.alone ? running > 0 : running >= width()) return;
      const i = next++;
      running++;
      aloneRunning = !!st.alone;
      void executeTest(session, st, file).then((out) => {
        running--;
        aloneRunning = false;
        outcomes[i].settle(out);
        startMore();
      });
    }
  };
  // A request that came back may have widened the flight (its latency measured): more tests may start then.
  session.client.flight.onBack = startMore;
  startMore();
  return outcomes.map((o) => o.promise);
}
