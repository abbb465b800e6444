/**
 * The same question gets the same answer from either engine: every rate-limit
 * scenario runs on the Node engine and on the k6 bundles (in the emulator), on
 * the same simulated clock, against the same reference-server variants and
 * fault modes — a real 60-second window, independent of the machine's speed.
 * Valid servers pass with no failure and no warning (a server that bans a key
 * retried before Retry-After included: it is never provoked); each fault is
 * caught by the requirement its FAULTS entry names; and the two engines agree
 * on the outcome of every requirement.
 */
import { describe, expect, it } from 'vitest';
import type { AppOptions } from '../../reference/app.ts';
import { FAULTS, faultsFor, type FaultName } from '../../reference/faults.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { outcomesOf, runVirtual, T0, WINDOW_MS, type EngineKind } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';

const ALL: ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload'];

const VALID: Record<string, AppOptions> = {
  'the reference server': {},
  'Retry-After as an HTTP-date': { variants: { retryAfter: 'http-date' } },
  'a sliding-window limiter': { variants: { limiter: 'sliding' } },
  'a token-bucket limiter': { variants: { limiter: 'token-bucket' } },
  'a server that bans a key retried before Retry-After': { variants: { banOnEarlyRetry: true } },
  'headers counting the per-day quota': { variants: { rateLimitHeaders: 'day' } },
  'Retry-After padded 1 s beyond Reset, no Date, odd headers, problem+json errors': {
    variants: { retryAfterPaddingS: 1, wire: { noDate: true, contentType: 'problem', oddHeaders: true } },
  },
};

/** The scenarios that ask each fault's question (every scenario runs; these must catch it). */
const CATCHER: Partial<Record<FaultName, ScenarioName>> = {
  'never-429': 'ceiling',
  'throttle-503': 'ceiling',
  'unearned-ban': 'ceiling',
  'no-retry-after': 'ceiling',
  'retry-after-negative': 'ceiling',
  'remaining-negative-on-429': 'ceiling',
  'throttle-after-idle': 'ceiling',
  'retry-after-too-short': 'recovery',
  'throttle-early': 'ceiling',
  'window-10s': 'overload',
  'sustained-throttle': 'sustained',
  'remaining-on-429': 'ceiling',
  '429-body-not-error': 'ceiling',
  'reset-in-ms': 'ceiling',
  'reset-is-now': 'ceiling',
  'remaining-not-falling': 'ceiling',
  'limit-per-route': 'ceiling',
  'create-429-stored': 'recovery',
};
// The daily quota's faults have their own tests (below, and daily-quota.test.ts); a fault seen only with plans side by side is proven in plans.test.ts.
const LOAD_FAULTS = faultsFor('load').filter((f) => FAULTS[f].expect.requirement !== 'RL-DAILY-QUOTA' && !FAULTS[f].sideBySide);

const bundles = builtBundles('agree-dist');

// Writes on, as on staging: the ceiling and the recovery interleave the operations and send a POST at the limit.
const run = (kind: EngineKind, options: AppOptions, scenarios = ALL) =>
  runVirtual(kind, scenarios, options, { dist: bundles.dir, job: { allowWrites: true } });

async function both(options: AppOptions, scenarios = ALL) {
  const node = await run('node', options, scenarios);
  const k6 = await run('k6', options, scenarios);
  return { node, k6 };
}

function agreement(a: Awaited<ReturnType<typeof run>>, b: Awaited<ReturnType<typeof run>>) {
  const per = (r: typeof a) => Object.fromEntries(r.reports.map((x) => [x.scenario, outcomesOf(x.judgements)]));
  return { node: per(a), k6: per(b), notRun: [a.notRun.map((n) => n.scenario), b.notRun.map((n) => n.scenario)] };
}

describe('valid servers: both engines pass every scenario, and agree', () => {
  it.each(Object.keys(VALID))('%s passes every scenario on both engines with the same outcome per requirement.', async (name) => {
    const { node, k6 } = await both(VALID[name]);
    const a = agreement(node, k6);
    expect(a.k6).toEqual(a.node);
    for (const r of [...node.reports, ...k6.reports]) {
      expect(
        r.judgements.filter((j) => j.outcome === 'fail' || j.outcome === 'warn' || j.outcome === 'error'),
        `${r.engine} ${r.scenario}`,
      ).toEqual([]);
      expect(r.verdict, `${r.engine} ${r.scenario}`).toBe('pass');
      // never banned: no 429 asked to wait longer than a window
      for (const p of r.timeline) if (p.status === 429) expect(p.retryAfter ?? 0).toBeLessThanOrEqual(WINDOW_MS / 1000 + 2);
    }
    expect(node.notRun).toEqual([]);
  });
});

describe('fault modes: caught by the expected requirement, the same on both engines', () => {
  it('Every load fault of the reference server has a scenario that asks its question.', () => {
    expect(LOAD_FAULTS.filter((f) => !CATCHER[f])).toEqual([]);
  });

  it.each(LOAD_FAULTS)('%s is caught, and the two engines agree on every requirement.', async (fault) => {
    const { node, k6 } = await both({ faults: [fault] });
    const a = agreement(node, k6);
    expect(a.k6).toEqual(a.node);
    expect(a.notRun[1]).toEqual(a.notRun[0]);
    const expected = FAULTS[fault].expect;
    const scenario = CATCHER[fault] as ScenarioName;
    for (const r of [node, k6]) {
      const report = r.reports.find((x) => x.scenario === scenario);
      expect(report, `${fault}: ${scenario} ran`).toBeDefined();
      expect(outcomesOf(report!.judgements)[expected.requirement], `${fault} on ${report!.engine}`).toBe(expected.outcome);
    }
  });
});

describe('a throttle answered with another status', () => {
  it('throttle-503 fails RL-CEILING-429 by name in every scenario that meets it (ceiling, recovery, overload), on both engines.', async () => {
    const { node, k6 } = await both({ faults: ['throttle-503'] }, ['ceiling', 'recovery', 'overload']);
    for (const r of [node, k6])
      for (const scenario of ['ceiling', 'recovery', 'overload']) {
        const report = r.reports.find((x) => x.scenario === scenario);
        const j = report?.judgements.find((x) => x.requirement === 'RL-CEILING-429' && x.outcome === 'fail');
        expect(j?.title, `${scenario} on ${report?.engine}`).toBe('Throttled with 503, the spec says 429');
      }
  });
});

describe('the daily quota (opt-in)', () => {
  const DAY = 20 * WINDOW_MS;
  const daily: AppOptions = { dayMs: DAY, enterprise: { perMinute: 20, perDay: 30 } };
  const dailyRun = (kind: EngineKind, options: AppOptions) =>
    runVirtual(
      kind,
      ['daily'],
      { ...daily, ...options },
      { dist: bundles.dir, start: Math.floor(T0 / DAY) * DAY + 30, job: { perDay: 30, dayMs: DAY } },
    );

  it.each(['node', 'k6'] as EngineKind[])(
    'A server enforcing 30 requests a day passes on the %s engine, which stops at the quota.',
    async (kind) => {
      const r = await dailyRun(kind, {});
      const rep = r.reports[0];
      expect(outcomesOf(rep.judgements)['RL-DAILY-QUOTA']).toBe('pass');
      expect(rep.requestsSent).toBeLessThanOrEqual(32);
    },
  );

  it.each(['node', 'k6'] as EngineKind[])(
    "A free key whose server keeps a quota of its own (the embedded server's short day: 30, not the plan's 1,000) passes on the %s engine: the bundle is told the server's quota.",
    async (kind) => {
      const free = { plan: 'free' as const, perMinute: 60, perDay: 30, dayMs: DAY, apiKey: 'as_demo_free_5f1c9e27a8b34d60' };
      const r = await runVirtual(
        kind,
        ['daily'],
        { dayMs: DAY, dayQuotas: { free: 30 } },
        { dist: bundles.dir, start: Math.floor(T0 / DAY) * DAY + 30, job: free },
      );
      const j = r.reports[0].judgements.find((x) => x.requirement === 'RL-DAILY-QUOTA');
      expect([j?.outcome, j?.message]).toEqual(['pass', expect.stringMatching(/after 30 successes \(quota 30;/)]);
    },
  );

  it('daily-ignored fails RL-DAILY-QUOTA on both engines.', async () => {
    for (const kind of ['node', 'k6'] as EngineKind[]) {
      const r = await dailyRun(kind, { faults: ['daily-ignored'] });
      expect(outcomesOf(r.reports[0].judgements)['RL-DAILY-QUOTA'], kind).toBe('fail');
    }
  });
});
