/**
 * Several plans and distributed runs:
 * - wall time of the quick rate-limit scenarios (ceiling, recovery) for all four
 *   plans side by side, each on its own key of the embedded server, next to the
 *   slowest plan alone (business: 1,000 a window) — goal at most 1.2×;
 * - verdict agreement between one k6 process and two on execution segments
 *   0:1/2 and 1/2:1 merged (`npm run load:merge`), for the distributed scenarios
 *   (sustained, overload) on every rate-limit fault mode and valid variant —
 *   goal 100 %. The k6 instances are the self-tests' emulator on simulated time
 *   (deterministic; the real-k6 self-test checks the same on k6 v1.0 and v2.2).
 */
import { rmSync } from 'node:fs';
import { buildLoad } from '../load/build.ts';
import { mergeShares } from '../load/lib/merge.ts';
import { NodeEngine } from '../load/node/engine.ts';
import { bundlePath, jobEnv } from '../load/node/k6.ts';
import { runRateLimits } from '../load/node/run.ts';
import type { AppOptions } from '../reference/app.ts';
import { FAULTS, faultsFor } from '../reference/faults.ts';
import type { LoadReport } from '../src/core/load-report.ts';
import { QUICK_SCENARIOS, type ScenarioName } from '../src/core/scenarios.ts';
import { closeTransport } from '../src/http/transport.ts';
import { openTarget } from '../src/target/target.ts';
import { job, outcomesOf, T0, virtualApp } from './support/load-jobs.ts';
import { reportOfRun, runK6Virtual, runK6VirtualSegments, type K6Run } from './support/k6-virtual.ts';
import { VirtualClock } from './support/virtual.ts';
import { benchConfig, windowStart, type BenchLine } from './load-common.ts';
import { tempDir } from './support/temp.ts';

/** Wall time of the quick scenarios on the embedded server for `plans` side by side (Node engine). */
async function quickRun(plans: string, windowMs: number): Promise<{ ms: number; verdicts: string[] }> {
  const rpm: Record<string, string> = plans.includes('enterprise') ? { rpm: '200' } : {};
  const target = await openTarget(benchConfig({ plans, ...rpm, 'window-ms': String(windowMs), engine: 'node' }));
  try {
    await windowStart(windowMs);
    const t0 = performance.now();
    const run = await runRateLimits(target, QUICK_SCENARIOS, {
      engine: new NodeEngine({}, () => undefined),
      budget: target.config.maxRequests,
    });
    return { ms: performance.now() - t0, verdicts: run.reports.map((r) => `${r.scenario} ${r.plan} ${r.verdict}`) };
  } finally {
    await target.close();
  }
}

export async function benchPlansSideBySide(windowMs = 5000): Promise<BenchLine[]> {
  const one = await quickRun('business', windowMs);
  const four = await quickRun('free,pro,business,enterprise', windowMs);
  await closeTransport();
  const ratio = four.ms / one.ms;
  const failed = four.verdicts.filter((v) => !v.endsWith(' pass'));
  return [
    {
      name: 'four plans side by side vs the slowest plan alone (ceiling + recovery, embedded server): wall time ratio',
      value: Math.round(ratio * 100) / 100,
      unit: '×',
      goal: '<= 1.2',
      met: ratio <= 1.2 && !failed.length,
      detail: `4 plans ${Math.round(four.ms)} ms, business alone ${Math.round(one.ms)} ms; window ${windowMs} ms${failed.length ? `; not passed: ${failed.join(', ')}` : ''}`,
    },
  ];
}

const VALID: Record<string, AppOptions> = {
  reference: {},
  'retryAfter=http-date': { variants: { retryAfter: 'http-date' } },
  'limiter=sliding': { variants: { limiter: 'sliding' } },
  'limiter=token-bucket': { variants: { limiter: 'token-bucket' } },
  'rateLimitHeaders=day': { variants: { rateLimitHeaders: 'day' } },
  'retryAfterPaddingS=1': { variants: { retryAfterPaddingS: 1 } },
  banOnEarlyRetry: { variants: { banOnEarlyRetry: true } },
};

/** The report a k6 process wrote, completed with its log (a share's requests travel there). */
const reportOf = (r: K6Run): LoadReport => reportOfRun(r)!;

function outcomes(dist: string, scenario: ScenarioName, options: AppOptions, segments?: string[]): Record<string, string> | undefined {
  const clock = new VirtualClock(T0);
  const app = virtualApp(options, clock);
  const env = jobEnv(job(scenario, { apiKey: app.keys.enterprise, distributed: !!segments }), tempDir('bench-merge'));
  if (!segments) return outcomesOf(reportOf(runK6Virtual(bundlePath(scenario, dist), env, app, clock)).judgements);
  const merged = mergeShares(runK6VirtualSegments(bundlePath(scenario, dist), env, { app, clock }, segments).map(reportOf));
  return merged.report ? outcomesOf(merged.report.judgements) : undefined;
}

export async function benchMergeAgreement(): Promise<BenchLine[]> {
  const dist = tempDir('bench-merge-dist');
  try {
    await buildLoad(dist);
    const cases: Array<[string, AppOptions]> = [
      ...Object.entries(VALID),
      ...faultsFor('load')
        .filter((f) => f !== 'daily-ignored' && !FAULTS[f].sideBySide)
        .map((f): [string, AppOptions] => [f, { faults: [f] }]),
    ];
    let agree = 0;
    const differ: string[] = [];
    for (const scenario of ['sustained', 'overload'] as const)
      for (const [name, options] of cases) {
        const single = outcomes(dist, scenario, options);
        const merged = outcomes(dist, scenario, options, ['0:1/2', '1/2:1']);
        if (JSON.stringify(single) === JSON.stringify(merged)) agree++;
        else differ.push(`${scenario}/${name}`);
      }
    const total = 2 * cases.length;
    return [
      {
        name: 'merged shares (0:1/2 + 1/2:1) vs one process: verdict agreement per requirement, sustained and overload',
        value: Math.round((1000 * agree) / total) / 10,
        unit: '%',
        goal: '100 %',
        met: agree === total,
        detail: `${agree} of ${total} runs (${Object.keys(VALID).length} valid variants, ${cases.length - Object.keys(VALID).length} fault modes, each on both scenarios), emulated k6 on simulated time${differ.length ? `; differ: ${differ.join(', ')}` : ''}`,
      },
    ];
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
