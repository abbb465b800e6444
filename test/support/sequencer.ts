/**
 * The order of `npm test`: the files that take longest on the wall clock (child processes, real rate-limit windows
 * and timeouts) start first, so the workers finish together instead of one of them starting a 25-second file last.
 * Vitest orders by the durations of an earlier run, which a fresh CI clone does not have (it falls back to file size).
 * The rest keep Vitest's order. test/support/sequencer.test.ts keeps the list pointing at files that exist.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOW_FIRST = [
  // Longest first, as measured by `npm run test:cost` (wall time of each file on the shared 2-core machine, 2026-11-28):
  // a file of a minute started last would hold the run up long after the other workers ran dry.
  'test/explore/faults.test.ts',
  'test/conformance/reference-passes.test.ts',
  'test/libraries/rate-limit-libraries.test.ts',
  'test/cli/certify.test.ts',
  'test/cli/full-profile.test.ts',
  'test/cli/default-run.test.ts',
  // 2026-12-05 (issue 37): about 26 s of wall time each at a load average of 2 to 6, and not in the list before.
  'test/load/limiters.test.ts',
  'test/explore/request-forms.test.ts',
  // npm pack, an install from npm's cache and a certification run (2026-12-05: about 30 s of wall time, mostly waits).
  'test/package/package.test.ts',
  'test/workflows/run-memory.test.ts',
  'test/cli/hostile-servers.test.ts',
  'test/load/slow-server.test.ts',
  'test/cli/network.test.ts',
  'test/load/network-routes.test.ts',
  'test/conformance/fault-modes.test.ts',
  'test/cli/interrupt-and-concurrency.test.ts',
  'test/results/html-browser-plans.test.ts',
  'test/cli/k6-versions.test.ts',
  'test/load/cli.test.ts',
  'test/explore/replay.test.ts',
  'test/results/consistency.test.ts',
  'test/results/html-browser.test.ts',
];

const rank = (moduleId: string): number => {
  const i = SLOW_FIRST.findIndex((f) => moduleId.endsWith(`/${f}`));
  return i < 0 ? SLOW_FIRST.length : i;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files);
    return byVitest
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f.moduleId) - rank(b.f.moduleId) || a.i - b.i)
      .map(({ f }) => f);
  }
}
