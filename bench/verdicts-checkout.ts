/**
 * The checkout whose verdicts `npm run bench:verdicts` collects (`--root <dir>`, default this one): its modules
 * imported from its own files, typed as this checkout's (an older checkout with the same APIs is driven in process;
 * one without them fails here, with the file it lacks, and is driven through its command line: the cli group).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

async function at<T>(root: string, file: string): Promise<T> {
  const path = join(root, file);
  if (!existsSync(path))
    throw new Error(`the checkout at ${root} has no ${file}: collect its verdicts through its command line (--only cli)`);
  return (await import(pathToFileURL(path).href)) as T;
}

/** What names the runs: the fault table, the valid variants and the valid servers of the self-tests. */
export async function tablesOf(root: string) {
  return {
    faults: await at<typeof import('../reference/faults.ts')>(root, 'reference/faults.ts'),
    variants: await at<typeof import('../reference/variants.ts')>(root, 'reference/variants.ts'),
    options: await at<typeof import('../reference/options.ts')>(root, 'reference/options.ts'),
    valid: await at<typeof import('./support/valid-servers.ts')>(root, 'bench/support/valid-servers.ts'),
  };
}
export type Tables = Awaited<ReturnType<typeof tablesOf>>;

/** The conformance suite in process (bench/support/suite.ts), its aggregation and the reference server. */
export async function suiteOf(root: string) {
  return {
    suite: await at<typeof import('./support/suite.ts')>(root, 'bench/support/suite.ts'),
    aggregate: await at<typeof import('../src/results/aggregate.ts')>(root, 'src/results/aggregate.ts'),
    transport: await at<typeof import('../src/http/transport.ts')>(root, 'src/http/transport.ts'),
    app: await at<typeof import('../reference/app.ts')>(root, 'reference/app.ts'),
    server: await at<typeof import('../reference/server.ts')>(root, 'reference/server.ts'),
    catalogue: await at<typeof import('../src/core/catalogue.ts')>(root, 'src/core/catalogue.ts'),
  };
}
export type SuiteApi = Awaited<ReturnType<typeof suiteOf>>;

/** The load side: both engines, the orchestrator, the k6 bundles' build and the emulator on simulated time. */
export async function loadOf(root: string) {
  return {
    ...(await suiteOf(root)),
    engine: await at<typeof import('../load/node/engine.ts')>(root, 'load/node/engine.ts'),
    k6: await at<typeof import('../load/node/k6.ts')>(root, 'load/node/k6.ts'),
    orchestrator: await at<typeof import('../load/node/orchestrator.ts')>(root, 'load/node/orchestrator.ts'),
    clock: await at<typeof import('../load/node/clock.ts')>(root, 'load/node/clock.ts'),
    loadReport: await at<typeof import('../src/core/load-report.ts')>(root, 'src/core/load-report.ts'),
    plans: await at<typeof import('../src/core/plans.ts')>(root, 'src/core/plans.ts'),
    k6Virtual: await at<typeof import('./support/k6-virtual.ts')>(root, 'bench/support/k6-virtual.ts'),
    jobs: await at<typeof import('./support/load-jobs.ts')>(root, 'bench/support/load-jobs.ts'),
    virtual: await at<typeof import('./support/virtual.ts')>(root, 'bench/support/virtual.ts'),
  };
}
export type LoadApi = Awaited<ReturnType<typeof loadOf>>;

/** The k6 bundles of the checkout, built into `dist` (a folder of the sweep's own: never a stale load/dist). */
export async function buildBundles(root: string, dist: string): Promise<void> {
  await (await at<typeof import('../load/build.ts')>(root, 'load/build.ts')).buildLoad(dist);
}
