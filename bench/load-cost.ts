/**
 * Cost to certify one plan's ceiling (the recovery scenario: the ceiling, its
 * 429, one probe after Retry-After): requests sent — goal Limit + 3 at most —
 * and wall time — goal at most two windows. Windows are scaled down; the plans
 * keep their numbers (60, 300, 1,000).
 */
import { buildApp } from '../reference/app.ts';
import { listen } from '../reference/server.ts';
import { runScenario } from '../load/node/engine.ts';
import { PLANS } from '../src/core/plans.ts';
import type { BenchLine } from './load-common.ts';

export async function benchLoadCeilingCost(windowMs = 5000): Promise<BenchLine[]> {
  const plans = ['free', 'pro', 'business'] as const;
  const results = await Promise.all(
    plans.map(async (plan) => {
      const app = buildApp({ windowMs });
      const server = await listen(app, { host: '127.0.0.1', port: 0 });
      try {
        const t0 = performance.now();
        const r = await runScenario('recovery', {
          plan,
          baseUrl: server.url,
          apiKey: app.keys[plan],
          windowMs,
          reportsDir: false,
          progress: false,
        });
        return { plan, ms: performance.now() - t0, r };
      } finally {
        await server.close();
      }
    }),
  );
  const lines: BenchLine[] = [];
  for (const { plan, ms, r } of results) {
    const limit = PLANS[plan].perMinute;
    lines.push({
      name: `ceiling certification cost, ${plan} (limit ${limit}): requests`,
      value: r.report.requestsSent,
      unit: 'requests',
      goal: `<= ${limit + 3}`,
      met: r.report.requestsSent <= limit + 3,
      detail: `verdict ${r.report.verdict}`,
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
