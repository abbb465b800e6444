/**
 * `--dry-run`: how many requests a run would send to the target, per operation,
 * and the budget — measured by running the specs in process against a private
 * embedded reference server. Nothing is sent to the target.
 */
import type { Config } from '../config/config.ts';
import { startEmbedded } from '../harness/embedded.ts';
import { runSpecs } from '../harness/runner.ts';
import { Session } from '../harness/session.ts';
import type { LoadScenario } from './profiles.ts';

export interface Plan {
  perOperation: Record<string, number>;
  conformance: number;
  load: Record<string, string>;
  loadMax: number;
  budget: number;
}

export function loadPlan(config: Config, scenarios: readonly LoadScenario[]): { text: Record<string, string>; max: number } {
  const limit = config.limits.perMinute ?? 0;
  const text: Record<string, string> = {};
  let max = 0;
  for (const s of scenarios) {
    if (s === 'ceiling') ((text[s] = `at most ${limit + 1} (Limit + 1), one at a time`), (max += limit + 1));
    else if (s === 'recovery') ((text[s] = 'one probe after Retry-After (a few more only if the server omits Retry-After)'), (max += 7));
    else if (s === 'sustained')
      ((text[s] = `about ${Math.round(limit * 0.9 * 1.5)} over 1.5 windows at 90% of the ceiling`), (max += Math.round(limit * 1.5)));
    else if (s === 'overload')
      ((text[s] = `up to ${limit * 3 * 2} over 2 windows at 3× the ceiling (pausing on every Retry-After)`), (max += limit * 6));
    else ((text[s] = `up to ${(config.limits.perDay ?? 0) + 1}: a whole day's quota`), (max += (config.limits.perDay ?? 0) + 1));
  }
  return { text, max };
}

export async function dryRun(config: Config, conformance: boolean, scenarios: readonly LoadScenario[]): Promise<Plan> {
  const perOperation: Record<string, number> = {};
  let total = 0;
  if (conformance) {
    const embedded = await startEmbedded('business');
    try {
      const session = new Session({
        config: {
          ...config,
          apiKey: embedded.apiKey,
          plan: 'business',
          limits: { plan: 'business', perMinute: 1000, perDay: 100000 },
          maxRequests: 100000,
        },
        baseUrl: embedded.baseUrl,
      });
      session.client.opts.onExchange = (ex) => {
        const k = `${ex.api.operation} (${ex.request.method})`;
        perOperation[k] = (perOperation[k] ?? 0) + 1;
      };
      total = (await runSpecs(session)).requests;
    } finally {
      await embedded.close();
    }
  }
  const load = loadPlan(config, scenarios);
  return { perOperation, conformance: total, load: load.text, loadMax: load.max, budget: config.maxRequests };
}

export function formatPlan(p: Plan, target: string): string {
  const lines = [`Dry run: nothing was sent to ${target}.`, '', 'Conformance requests by operation:'];
  for (const [op, n] of Object.entries(p.perOperation).sort()) lines.push(`  ${op.padEnd(24)} ${n}`);
  lines.push(`  ${'total'.padEnd(24)} ${p.conformance} (plus at most one retry per 429)`);
  if (Object.keys(p.load).length) {
    lines.push('', 'Rate-limit scenarios:');
    for (const [s, t] of Object.entries(p.load)) lines.push(`  ${s.padEnd(24)} ${t}`);
  } else lines.push('', 'Rate-limit scenarios: none');
  const worst = p.conformance + p.loadMax;
  lines.push(
    '',
    `Budget: ${p.budget} requests (ANIMAL_STORE_MAX_REQUESTS); this run needs at most about ${worst}${worst > p.budget ? ' — MORE THAN THE BUDGET: the run would stop when the budget is spent' : ''}.`,
  );
  return lines.join('\n');
}
