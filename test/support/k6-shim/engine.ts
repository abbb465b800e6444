/**
 * The k6 engine of the self-tests: the k6 bundles run in the emulator (run.ts), in process, on a virtual clock,
 * against a reference app on the same clock — as the suite's k6 engine runs them (load/node/k6.ts), one emulated
 * k6 process per batch of keys.
 */
import type { App } from '../../../reference/app.ts';
import { reportBaseName } from '../../../src/core/load-report.ts';
import type { EngineResult, LoadEngine, LoadJob } from '../../../load/node/engine.ts';
import { asOne, batchEnv, bundlePath } from '../../../load/node/k6.ts';
import type { VirtualClock } from '../virtual.ts';
import { tempDir } from '../temp.ts';
import { reportOfRun, runK6VirtualSegments } from './run.ts';

/** The k6 bundles in the emulator, in process, on the virtual clock: the k6 engine of the self-tests. */
export class EmulatedK6 implements LoadEngine {
  readonly name = 'k6' as const;
  constructor(
    private readonly dist: string,
    private readonly app: App,
    private readonly clock: VirtualClock,
    private readonly segment?: string,
  ) {}

  async run(j: LoadJob): Promise<EngineResult> {
    return (await this.runBatch([j]))[0];
  }

  /** As the k6 engine does: the jobs' keys in one (emulated) k6 process, a k6 scenario per plan. */
  async runBatch(jobs: readonly LoadJob[]): Promise<EngineResult[]> {
    const dir = tempDir('k6v');
    const env = batchEnv(jobs, dir);
    const [r] = runK6VirtualSegments(bundlePath(jobs[0].scenario, this.dist), env, { app: this.app, clock: this.clock }, [this.segment]);
    return jobs.map((j) => {
      // completed with the log, as the k6 engine does
      // completed and, for several VUs of a paced scenario, judged as one, as the k6 engine does
      const tagged = !!env.ANIMAL_STORE_PLANS;
      const whole = reportOfRun(r, `/${reportBaseName(j.scenario, j.plan)}.json`, tagged);
      const report = whole && asOne(j, whole, r.log, env);
      if (!report) throw new Error(`emulated k6 exited ${r.exitCode} without a report for ${j.plan}: ${r.error ?? ''}`);
      return r.exitCode === 108 ? { report, unreachable: 'aborted in setup' } : { report };
    });
  }
}
