/**
 * Slow servers at each plan's ceiling, on simulated time: a correct limiter whose
 * every response takes 1.5 s (and one whose responses overtake one another) gets
 * its 429 within one window at 60, 300 and 1,000 a minute on both engines — each
 * sizes its requests in flight from the latency it observes — with at most one
 * request beyond the limit and nothing sent before a Retry-After; a server too
 * slow for its limit is told so in one line; the valid variants stay free of
 * false alarms and the ceiling's fault modes are still caught with many requests
 * in flight and responses counted out of order.
 */
import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT } from '../../load/lib/scenario-options.ts';
import { NodeEngine } from '../../load/node/engine.ts';
import { orchestrate } from '../../load/node/orchestrator.ts';
import type { AppOptions, Variants } from '../../reference/app.ts';
import type { FaultName } from '../../reference/faults.ts';
import { FAULTS } from '../../reference/faults.ts';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { PLANS } from '../../src/core/plans.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { job, outcomesOf, runVirtual, T0, virtualApp, WINDOW_MS, type EngineKind } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';

type Plan = keyof typeof PLANS;
const ENGINES: EngineKind[] = ['node', 'k6'];
/** Every response 1.5 s after its request. */
const SLOW: Partial<Variants> = { latencyMs: 1500 };
/** 1.5 to 2.5 s, up to half a second of it before the request is counted: counted out of send order, answered out of order. */
const OVERTAKING: Partial<Variants> = { latencyMs: 1500, latencyJitterMs: 1000 };

const bundles = builtBundles('slow-dist');

function runPlan(
  kind: EngineKind,
  plan: Plan,
  options: AppOptions,
  { scenarios = ['ceiling'], start = T0 }: { scenarios?: ScenarioName[]; start?: number } = {},
) {
  return runVirtual(kind, scenarios, options, { dist: bundles.dir, start, job: { plan, ...PLANS[plan], apiKey: DEMO_KEYS[plan] } });
}

const problems = (r: LoadReport) => r.judgements.filter((j) => j.outcome === 'fail' || j.outcome === 'warn' || j.outcome === 'error');
const spanMs = (r: LoadReport) => Date.parse(r.endedAt) - Date.parse(r.startedAt);

describe('a correct limiter answering in 1.5 s gets its 429 within one window at every plan’s limit', () => {
  const cases = ENGINES.flatMap((kind) =>
    (['free', 'pro', 'business'] as Plan[]).flatMap((plan) =>
      [
        ['1.5 s', SLOW],
        ['1.5–2.5 s, overtaking', OVERTAKING],
      ].map(([name, variants]) => [kind, plan, name as string, variants as Partial<Variants>] as const),
    ),
  );

  it.each(cases)('%s engine, plan %s, responses in %s: 429 at Limit + 1 within a window.', async (kind, plan, _name, variants) => {
    const { reports } = await runPlan(kind, plan, { variants });
    const r = reports[0];
    expect(problems(r)).toEqual([]);
    expect(outcomesOf(r.judgements)['RL-CEILING-429']).toBe('pass');
    expect(r.requestsSent).toBe(PLANS[plan].perMinute + 1);
    expect(r.timeline.filter((p) => p.status === 429)).toHaveLength(1);
    expect(spanMs(r)).toBeLessThan(WINDOW_MS);
  });
});

describe('a window that ends with dozens of requests in flight', () => {
  it.each(ENGINES)(
    'The %s engine, starting 40 s into a window on a business key, uses its rest, then gets the 429 in the next window without a false alarm.',
    async (kind) => {
      const { reports } = await runPlan(
        kind,
        'business',
        { variants: OVERTAKING },
        { scenarios: ['ceiling', 'recovery'], start: T0 + 40_000 },
      );
      for (const r of reports) expect(problems(r), `${r.scenario}`).toEqual([]);
      const r = reports[0];
      expect(outcomesOf(r.judgements)['RL-CEILING-429']).toBe('pass');
      expect(r.requestsSent).toBeGreaterThan(PLANS.business.perMinute + 1);
      expect(r.requestsSent).toBeLessThanOrEqual(2 * PLANS.business.perMinute + 1);
      expect(r.timeline.filter((p) => p.status === 429)).toHaveLength(1);
      expect(spanMs(r)).toBeLessThan(20_000 + WINDOW_MS);
    },
  );
});

describe('the key stays safe with many requests in flight', () => {
  it('A ban-on-early-retry server answering slowly and out of order passes ceiling then recovery on both engines, never banned.', async () => {
    for (const kind of ENGINES) {
      const { reports } = await runPlan(
        kind,
        'business',
        { variants: { ...OVERTAKING, banOnEarlyRetry: true } },
        { scenarios: ['ceiling', 'recovery'] },
      );
      for (const r of reports) {
        expect(problems(r), `${kind} ${r.scenario}`).toEqual([]);
        for (const p of r.timeline) if (p.status === 429) expect(p.retryAfter ?? 0).toBeLessThanOrEqual(WINDOW_MS / 1000 + 2);
      }
      expect(outcomesOf(reports[1].judgements)['RL-RECOVERY'], kind).toBe('pass');
    }
  });

  it('After a 429 that comes while dozens of requests are in flight, nothing is sent until its Retry-After has passed.', async () => {
    const clock = new VirtualClock(T0);
    const app = virtualApp({ faults: ['throttle-early'], variants: OVERTAKING }, clock);
    const send = virtualSend(app, clock);
    const sent: number[] = [];
    const refusals: Array<{ at: number; until: number }> = [];
    const recording: typeof send = async (req) => {
      sent.push(clock.now());
      const ex = await send(req);
      const ra = ex.response?.status === 429 ? Number(ex.response.headers['retry-after']) : NaN;
      if (!Number.isNaN(ra)) refusals.push({ at: clock.now(), until: clock.now() + ra * 1000 });
      return ex;
    };
    const engine = new NodeEngine({ send: recording, clock }, () => undefined);
    const jobs = (['ceiling', 'recovery'] as ScenarioName[]).map((s) =>
      job(s, { plan: 'business', ...PLANS.business, apiKey: app.keys.business, deadlineAt: T0 + 3_600_000 }),
    );
    const out = await clock.run(() => orchestrate(jobs, { engine, clock }));
    expect(outcomesOf(out.reports[0].judgements)['RL-NOT-EARLY']).toBe('fail');
    // The early 429 found dozens in flight (each refused too, having been sent before it came)…
    expect(refusals.length).toBeGreaterThan(1);
    // …and after each refusal arrived, nothing went out before its Retry-After.
    for (const r of refusals) expect(sent.filter((t) => t > r.at && t < r.until)).toEqual([]);
  });
});

describe('a server too slow for its limit', () => {
  it.each(ENGINES)(
    'The %s engine says in one line what latency it measured and how many requests in flight the limit needs, within its caps.',
    async (kind) => {
      const { reports } = await runPlan(kind, 'business', { variants: { latencyMs: 5000 } });
      const r = reports[0];
      const j = r.judgements.find((x) => x.requirement === 'RL-CEILING-429')!;
      expect(j).toMatchObject({ outcome: 'skip', title: 'Limit not reached at this latency' });
      expect(j.message).toMatch(
        /^responses took 5\.0 s on average .*: reaching 1000 in one 60 s window needs 84 in flight \(Little's law\); this run held [\d.]+ on average, 64 at most$/,
      );
      expect(j.message).not.toContain('\n');
      expect(j.remedy).toBe(`responses within 3.8 s on average (at the ${MAX_IN_FLIGHT} in flight this run held at most)`);
      expect(r.verdict).toBe('incomplete');
      expect(r.requestsSent).toBeLessThanOrEqual(2 * PLANS.business.perMinute + 4);
      expect(problems(r)).toEqual([]);
    },
  );

  it('A server that reaches its limit is never called too slow, nor one stopped before a window passed.', async () => {
    const { reports } = await runPlan('node', 'free', { variants: { latencyMs: 5000 } });
    expect(outcomesOf(reports[0].judgements)['RL-CEILING-429']).toBe('pass');
  });
});

describe('no false alarm with many requests in flight counted out of order', () => {
  const VALID: Record<string, Partial<Variants>> = {
    'Retry-After as an HTTP-date': { retryAfter: 'http-date' },
    'a sliding-window limiter': { limiter: 'sliding' },
    'a token-bucket limiter': { limiter: 'token-bucket' },
    'headers counting the per-day quota': { rateLimitHeaders: 'day' },
    'Retry-After padded 1 s, no Date, odd headers, problem+json errors': {
      retryAfterPaddingS: 1,
      wire: { noDate: true, contentType: 'problem', oddHeaders: true },
    },
  };
  it.each(Object.keys(VALID))(
    '%s, answering in 1.5–2.5 s on a business key, passes ceiling and recovery on both engines.',
    async (name) => {
      for (const kind of ENGINES) {
        const { reports } = await runPlan(
          kind,
          'business',
          { variants: { ...OVERTAKING, ...VALID[name] } },
          { scenarios: ['ceiling', 'recovery'] },
        );
        for (const r of reports) expect(problems(r), `${kind} ${r.scenario}`).toEqual([]);
      }
    },
  );

  const CEILING_FAULTS: FaultName[] = [
    'never-429',
    'no-retry-after',
    'retry-after-negative',
    'remaining-negative-on-429',
    'throttle-early',
    'retry-after-too-short',
    'remaining-on-429',
    'reset-is-now',
    'remaining-not-falling',
  ];
  it.each(CEILING_FAULTS)('%s is still caught on a business key answering in 1.5–2.5 s, on both engines alike.', async (fault) => {
    const expected = FAULTS[fault].expect;
    const seen: Record<string, string | undefined> = {};
    for (const kind of ENGINES) {
      const { reports } = await runPlan(
        kind,
        'business',
        { faults: [fault], variants: OVERTAKING },
        { scenarios: ['ceiling', 'recovery'] },
      );
      const outcomes = reports.map((r) => outcomesOf(r.judgements)[expected.requirement]);
      seen[kind] = outcomes.find((x) => x === expected.outcome) ?? outcomes.join(',');
    }
    expect(seen).toEqual({ node: expected.outcome, k6: expected.outcome });
  });
});
