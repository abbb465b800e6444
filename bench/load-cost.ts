/**
 * Cost to certify one plan's ceiling (the recovery scenario: the ceiling, its
 * 429, one probe after Retry-After), as `npm run load -- --engine node
 * --scenario recovery --plan <plan>` runs it against the embedded server:
 * requests sent — goal Limit + 3 at most — and wall time — goal at most two
 * windows. Windows are scaled down; the plans keep their numbers (60, 300,
 * 1,000). The three plans run at once, each on a server of its own, from
 * the start of a window (windowStart).
 */
import { NodeEngine } from '../load/node/engine.ts';
import { runRateLimits } from '../load/node/run.ts';
import { PLANS } from '../src/core/plans.ts';
import { closeTransport } from '../src/http/transport.ts';
import { openTarget } from '../src/target/target.ts';
import { benchConfig, windowStart, type BenchLine } from './load-common.ts';

export async function benchLoadCeilingCost(windowMs = 5000): Promise<BenchLine[]> {
  const plans = ['free', 'pro', 'business'] as const;
  const targets = await Promise.all(plans.map((plan) => openTarget(benchConfig({ plan, 'window-ms': String(windowMs), engine: 'node' }))));
  await windowStart(windowMs);
  const results = await Promise.all(
    plans.map(async (plan, i) => {
      const target = targets[i];
      try {
        const t0 = performance.now();
        const run = await runRateLimits(target, ['recovery'], {
          engine: new NodeEngine({}, () => undefined),
          budget: target.config.maxRequests,
        });
        return { plan, ms: performance.now() - t0, report: run.reports[0] };
      } finally {
        await target.close();
      }
    }),
  );
  await closeTransport();
  const lines: BenchLine[] = [];
  for (const { plan, ms, report } of results) {
    const limit = PLANS[plan].perMinute;
    lines.push({
      name: `ceiling certification cost, ${plan} (limit ${limit}): requests`,
      value: report.requestsSent,
      unit: 'requests',
      goal: `<= ${limit + 3}`,
      met: report.requestsSent <= limit + 3,
      detail: `verdict ${report.verdict}`,
    });
    lines.push({
      name: `ceiling certification cost, ${plan}: wall time`,
      value: Math.round(ms),
      unit: 'ms',
      goal: `<= ${2 * windowMs} ms (two windows)`,
      met: ms <= 2 * windowMs,
      detail: `window scaled to ${windowMs} ms`,
    });
  }
  return lines;
}

if (process.argv[1] && import.meta.filename === process.argv[1])
  for (const l of await benchLoadCeilingCost()) console.log(JSON.stringify(l));
