/**
 * `--dry-run`: what a run would send and how long it would take, sending
 * nothing to the target. Conformance requests are counted per operation by
 * running the specs in process against a private embedded reference server;
 * the rate-limit scenarios' costs come from their own caps (load/lib).
 */
import { costLines } from '../../load/node/run.ts';
import { runSpecs } from '../harness/in-process-runner.ts';
import { Session } from '../harness/session.ts';
import { embeddedNote, openTarget, type Target } from '../target/target.ts';
import { coverageDrafts, coverageReserve } from '../explore/coverage.ts';
import { EXPLORE_TIME_MS } from '../explore/explorer.ts';
import type { Profile } from './profiles.ts';
import { networkText } from '../core/target-info.ts';

export interface Plan {
  perOperation: Record<string, number>;
  conformance: number;
  load: string[];
  loadMax: number;
  /** Rough duration of the whole run (pacing on the plan's limit, then the scenarios and the waits between them). */
  typicalMs: number;
  /** The longest it may take when the daily scenario first waits a whole quota day (the embedded server's short one). */
  longestMs?: number;
  /** A real target: the daily scenario waits for a fresh quota day only when one starts within --max-wait-ms. */
  dayWaitOptional?: boolean;
  budget: number;
  /** The exploration phase: its request budget (0: off) and whether it may create pets. */
  exploration: { budget: number; writes: boolean; seed: number };
  /** The embedded server's short world, in words (absent for a real target). */
  world?: string;
  /** The route, protocol and TLS the run would take, in words. */
  network?: string;
}

export async function dryRun(target: Target, profile: Profile): Promise<Plan> {
  const perOperation: Record<string, number> = {};
  let total = 0;
  if (profile.conformance) {
    const embedded = await openTarget({ ...profile.config, baseUrl: undefined, apiKey: undefined, plan: 'business', limits: undefined });
    try {
      const session = new Session({
        config: { ...embedded.config, allowWrites: profile.config.allowWrites, maxRequests: 100000 },
        baseUrl: embedded.info.baseUrl,
      });
      session.client.opts.onExchange = (ex) => {
        const k = `${ex.api.operation} (${ex.request.method})`;
        perOperation[k] = (perOperation[k] ?? 0) + 1;
      };
      // The exploration phase spends its budget, whatever it meets: its cost is that budget, not a rehearsal.
      total = (await runSpecs(session, undefined, (f) => f.operation !== 'exploration')).requests;
    } finally {
      await embedded.close();
    }
  }
  const c = profile.config;
  const exploration = { budget: profile.conformance ? c.explore.budget : 0, writes: c.allowWrites, seed: c.explore.seed };
  const perMinute = c.limits?.perMinute;
  const pacingMs = perMinute ? Math.floor((total + exploration.budget) / perMinute) * target.windowMs : 0;
  const load = profile.scenarios.length ? costLines(target, profile.scenarios) : { lines: [], maxRequests: 0, typicalMs: 0 };
  // The key rests about a window before each scenario after the first (a Retry-After, or a fresh window).
  const rests = Math.max(0, profile.scenarios.length - 1) * target.windowMs;
  const typicalMs = pacingMs + load.typicalMs + rests;
  // On the embedded server the daily scenario first waits for a fresh quota day: half a day on average, a day at most —
  // on its daily key, only when the current day leaves less than it needs (key-rest.ts): at most that need, need²/2day on average.
  // On a real target only when the next day (as the suite counts days) starts within --max-wait-ms.
  const daily = profile.scenarios.includes('daily');
  const need = Math.max(0, ...Object.values(target.dailyKeys ?? {}).map((k) => k?.dayNeededMs ?? target.dayMs));
  const dayWait = !daily
    ? 0
    : target.info.embedded
      ? Math.min(target.dayMs, need || target.dayMs)
      : Math.min(target.dayMs, target.config.maxWaitMs);
  const usualWait = target.info.embedded || target.dayMs <= target.config.maxWaitMs ? (dayWait * dayWait) / (2 * target.dayMs) : 0;
  return {
    perOperation,
    conformance: total,
    load: load.lines,
    loadMax: load.maxRequests,
    typicalMs: typicalMs + usualWait,
    ...(dayWait ? { longestMs: typicalMs + dayWait, dayWaitOptional: !target.info.embedded } : {}),
    budget: target.config.maxRequests,
    exploration,
    ...(embeddedNote(target) ? { world: embeddedNote(target) } : {}),
    ...(target.info.network ? { network: networkText(target.info.network, target.info.baseUrl) } : {}),
  };
}

/** How many of the exploration's requests are its coverage cases, sent in every run when the budget affords them. */
function coverageText(x: { budget: number; writes: boolean }): string {
  const cases = coverageDrafts({ writes: x.writes, embedded: false }).length + (x.writes ? 4 : 0);
  return cases <= x.budget - coverageReserve(x.budget)
    ? `${cases} of them the coverage cases (every class of every parameter, body field, header, body's bytes and query shape), sent in every run`
    : `the coverage cases (${cases}) more than it affords: a seed-dependent share of them each run (raise --explore-budget to ${Math.ceil((cases + 1) / 0.8)})`;
}

export function formatPlan(p: Plan, target: string): string {
  const lines = [
    `Dry run: nothing was sent to ${target}.`,
    ...(p.network ? [`Network: ${p.network}.`] : []),
    ...(p.world ? [p.world] : []),
    '',
    'Conformance requests by operation:',
  ];
  for (const [op, n] of Object.entries(p.perOperation).sort()) lines.push(`  ${op.padEnd(24)} ${n}`);
  lines.push(`  ${'total'.padEnd(24)} ${p.conformance} (plus at most one retry per 429)`);
  const x = p.exploration;
  lines.push(
    '',
    x.budget
      ? `Exploration (generated inputs, after the specs): at most ${x.budget} requests (--explore-budget)${x.writes ? ', creating pets named with the prefix' : ', GET only (writes are off)'}, ${coverageText(x)}; at most ${EXPLORE_TIME_MS / 1000} s of the server's time, as many at once as its latency needs (up to 16, never more than X-RateLimit-Remaining); seed ${x.seed} (--seed ${x.seed} sends the same ones).`
      : 'Exploration (generated inputs): off (--explore-budget 0).',
  );
  lines.push('', ...(p.load.length ? p.load : ['Rate-limit scenarios: none']));
  const worst = p.conformance + x.budget + p.loadMax;
  lines.push(
    '',
    `Cost: about ${worst} requests at most; expected duration about ${Math.max(1, Math.round(p.typicalMs / 1000))} s${p.longestMs ? ` (at most about ${Math.round(p.longestMs / 1000)} s: the daily scenario first waits for a fresh quota day${p.dayWaitOptional ? ' when one starts within --max-wait-ms' : ''})` : ''}.`,
    `Budget: ${p.budget} requests (ANIMAL_STORE_MAX_REQUESTS); this run needs at most about ${worst}${worst > p.budget ? ' — MORE THAN THE BUDGET: the run would be refused' : ''}.`,
  );
  return lines.join('\n');
}
