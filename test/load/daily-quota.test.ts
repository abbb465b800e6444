/**
 * The daily scenario after other requests on the same key, on simulated time and
 * on both engines (the k6 bundles learn what the run sent before through __ENV):
 * the requests a run sends on a real target's key before the daily scenario —
 * the conformance run, earlier scenarios — count against the same quota day, so
 * the quota is refused that many successes early. The judgement counts them
 * (and the load report records them); what they cannot explain is still a
 * warning, and on a server whose days are known (the embedded one: a fresh day,
 * a key only the run uses) a quota below the plan's is a failure. A real target
 * with a short day (--day-ms) gets a fresh day when waiting for it is allowed.
 */
import { describe, expect, it } from 'vitest';
import { NodeEngine, type LoadEngine, type LoadJob } from '../../load/node/engine.ts';
import { orchestrateLanes } from '../../load/node/orchestrator.ts';
import { DAILY_KEYS } from '../../reference/keys.ts';
import { runRateLimits } from '../../load/node/run.ts';
import type { AppOptions } from '../../reference/app.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import { dryRun, formatPlan } from '../../src/cli/dry-run.ts';
import { profileFor } from '../../src/cli/profiles.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { openTarget } from '../../src/target/target.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { job, runVirtual, T0, virtualApp, WINDOW_MS, type EngineKind } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';

const bundles = builtBundles('daily-dist');
const ENGINES: EngineKind[] = ['node', 'k6'];

const DAY = 20 * WINDOW_MS;
const QUOTA = 60;
const WORLD: AppOptions = { dayMs: DAY, enterprise: { perMinute: 20, perDay: QUOTA } };
/** 30 ms into a quota day: the whole run fits in it. */
const EARLY_IN_DAY = Math.floor(T0 / DAY) * DAY + 30;
const nextDayAt = (now: number) => Math.ceil(now / DAY) * DAY;

const quotaOf = (r: LoadReport) => r.judgements.find((j) => j.requirement === 'RL-DAILY-QUOTA')!;

describe.each(ENGINES)('on the %s engine', (kind) => {
  /** The ceiling, then the daily scenario, on one key of a server enforcing QUOTA a day. */
  const ceilingThenDaily = (options: AppOptions = {}, job: Partial<LoadJob> = {}) =>
    runVirtual(
      kind,
      ['ceiling', 'daily'],
      { ...WORLD, ...options },
      {
        dist: bundles.dir,
        start: EARLY_IN_DAY,
        job: { perDay: QUOTA, dayMs: DAY, maxWaitMs: 70_000, ...job },
      },
    );

  it("After the ceiling on the same key and day, the daily quota is refused early and still passes: the judgement counts the run's earlier requests, and the report records them.", async () => {
    const r = await ceilingThenDaily();
    const [ceiling, daily] = r.reports;
    expect(daily.earlierRequests).toBe(ceiling.requestsSent);
    expect(quotaOf(daily)).toMatchObject({
      outcome: 'pass',
      title: "Daily quota enforced, counting this run's earlier requests",
      message: expect.stringMatching(
        new RegExp(`after ${QUOTA - 20} successes \\(quota ${QUOTA};.*this run sent up to ${ceiling.requestsSent} requests on the key`),
      ),
    });
  });

  it('A refusal for the day answered 503 with Retry-After (fault throttle-503) fails RL-CEILING-429 by name, and the quota is judged on it.', async () => {
    const r = await runVirtual(
      kind,
      ['daily'],
      { ...WORLD, faults: ['throttle-503'] },
      {
        dist: bundles.dir,
        start: EARLY_IN_DAY,
        job: { perDay: QUOTA, dayMs: DAY, maxWaitMs: 70_000 },
      },
    );
    const [daily] = r.reports;
    expect(daily.judgements.find((j) => j.requirement === 'RL-CEILING-429')).toMatchObject({
      outcome: 'fail',
      message: expect.stringMatching(/throttled with 503 .*the spec says 429/),
    });
    expect(quotaOf(daily).outcome).toBe('pass');
  });

  it('A server enforcing three quarters of its quota (daily-quota-low) is still caught: a warning that asks whether the key was used earlier that day.', async () => {
    const r = await ceilingThenDaily({ faults: ['daily-quota-low'] });
    expect(quotaOf(r.reports[1])).toMatchObject({
      outcome: 'warn',
      message: expect.stringMatching(/even counting this run's earlier requests — was the key used earlier today\?/),
    });
  });

  it('On a server whose days are known the daily scenario starts on a fresh day: the quota passes exactly, and daily-quota-low fails.', async () => {
    const known = { maxWaitMs: 2 * DAY, nextDayAt };
    const good = (await ceilingThenDaily({}, known)).reports[1];
    expect(quotaOf(good)).toMatchObject({ outcome: 'pass', title: 'Daily quota enforced' });
    expect(quotaOf(good).message).toMatch(/it started on a fresh quota day, after this run's 21 earlier requests on the key/);
    const low = (await ceilingThenDaily({ faults: ['daily-quota-low'] }, known)).reports[1];
    expect(quotaOf(low)).toMatchObject({ outcome: 'fail', title: 'Daily quota below the plan’s' });
  });

  it('Plans side by side (one k6 process with a scenario per plan): each daily scenario counts the earlier requests on its own key only.', async () => {
    const clock = new VirtualClock(EARLY_IN_DAY);
    const app = virtualApp({ ...WORLD, dayQuotas: { free: 200, pro: 900 } }, clock);
    const engine: LoadEngine =
      kind === 'node' ? new NodeEngine({ send: virtualSend(app, clock), clock }, () => undefined) : new EmulatedK6(bundles.dir, app, clock);
    const lane = (plan: 'free' | 'pro', perMinute: number, perDay: number) =>
      (['ceiling', 'daily'] as const).map((s) =>
        job(s, { plan, apiKey: app.keys[plan], perMinute, perDay, dayMs: DAY, dedicatedKey: true, deadlineAt: clock.now() + 3_600_000 }),
      );
    // The conformance run's 10 requests went on the free key (the first lane's).
    const lanes = await clock.run(() =>
      orchestrateLanes([lane('free', 60, 200), lane('pro', 300, 900)], { engine, clock, earlierRequests: [10, 0] }),
    );
    const daily = lanes.map((l) => l.reports[1]);
    expect(daily.map((r) => [r.plan, r.earlierRequests])).toEqual([
      ['free', 10 + lanes[0].reports[0].requestsSent],
      ['pro', lanes[1].reports[0].requestsSent],
    ]);
    for (const r of daily) expect(quotaOf(r).outcome, r.plan).toBe('pass');
  });

  it('A daily scenario on a key of its own (ownKey: the embedded server’s daily key) counts nothing the lane sent before, and spends its whole quota.', async () => {
    const clock = new VirtualClock(EARLY_IN_DAY);
    const app = virtualApp({ ...WORLD, dayQuotas: { pro: 900 }, dailyKeyQuotas: { pro: 400 } }, clock);
    const engine: LoadEngine =
      kind === 'node' ? new NodeEngine({ send: virtualSend(app, clock), clock }, () => undefined) : new EmulatedK6(bundles.dir, app, clock);
    const common = { plan: 'pro' as const, perMinute: 300, dayMs: DAY, nextDayAt, maxWaitMs: 2 * DAY, deadlineAt: clock.now() + 3_600_000 };
    const jobs = [
      job('ceiling', { ...common, apiKey: app.keys.pro, perDay: 900 }),
      job('daily', { ...common, apiKey: DAILY_KEYS.pro, perDay: 400, ownKey: true }),
    ];
    // The conformance run's 50 requests, then the ceiling's, went on the run's key: none on the daily key.
    const [lane] = await clock.run(() => orchestrateLanes([jobs], { engine, clock, earlierRequests: [50] }));
    expect(lane.notRun).toEqual([]);
    const [ceiling, daily] = lane.reports;
    expect(ceiling.timeline.some((p) => p.status === 429)).toBe(true);
    expect(daily.earlierRequests).toBe(0);
    expect(quotaOf(daily)).toMatchObject({ outcome: 'pass', title: 'Daily quota enforced', evidence: { actual: '400' } });
  });

  /** The rate-limit half of a run against a real target (a base URL), after `before` requests on its key. */
  async function afterConformance(before: number, flags: Record<string, string> = {}) {
    const clock = new VirtualClock(EARLY_IN_DAY);
    const app = virtualApp(WORLD, clock);
    const send = virtualSend(app, clock);
    const url = 'http://127.0.0.1:4010/v1';
    const config = readConfig(
      { ANIMAL_STORE_API_KEY: app.keys.enterprise },
      {
        'base-url': url,
        plan: 'enterprise',
        rpm: '20',
        rpd: String(QUOTA),
        'window-ms': String(WINDOW_MS),
        'day-ms': String(DAY),
        'allow-daily': true,
        ...flags,
      },
      'start',
    );
    const target = await openTarget({ ...config, output: { ...config.output, progress: false } });
    const engine: LoadEngine = kind === 'node' ? new NodeEngine({ send, clock }, () => undefined) : new EmulatedK6(bundles.dir, app, clock);
    const seen: number[] = [];
    return clock.run(async () => {
      for (let i = 0; i < before; i++)
        await send({ method: 'GET', url: `${url}/pets`, headers: { authorization: `Bearer ${app.keys.enterprise}` } });
      const call = app.call;
      app.call = (req) => (seen.push(clock.now()), call(req));
      const run = await runRateLimits(target, ['daily'], { engine, budget: 100_000, clock, earlierRequests: before });
      return { report: run.reports[0], firstAt: seen[0] };
    });
  }

  it("A real target's daily scenario after the conformance run's requests on the key passes, counting them (npm start passes their number).", async () => {
    const { report, firstAt } = await afterConformance(15);
    expect(firstAt).toBeLessThan(EARLY_IN_DAY + DAY);
    expect(report.earlierRequests).toBe(15);
    expect(quotaOf(report)).toMatchObject({ outcome: 'pass', evidence: { actual: String(QUOTA - 15) } });
  });

  it('A real target with a short quota day (--day-ms within --max-wait-ms) gets a fresh day first: the whole quota is its own.', async () => {
    const { report, firstAt } = await afterConformance(15, { 'max-wait-ms': String(2 * DAY), 'deadline-ms': String(4 * DAY) });
    expect(firstAt).toBeGreaterThanOrEqual(nextDayAt(EARLY_IN_DAY));
    expect(quotaOf(report)).toMatchObject({ outcome: 'pass', title: 'Daily quota enforced', evidence: { actual: String(QUOTA) } });
  });
});

it('The dry run of a real target with a short quota day counts the wait for a fresh day, at most --max-wait-ms.', async () => {
  const flags = { 'base-url': 'http://127.0.0.1:4010/v1', plan: 'pro', 'window-ms': '1000', 'day-ms': '60000', 'allow-daily': true };
  const plan = async (more: Record<string, string>) => {
    const profile = profileFor(
      readConfig({ ANIMAL_STORE_API_KEY: 'k_123456789' }, { ...flags, ...more, only: 'load', scenarios: 'daily' }, 'start'),
    );
    return dryRun(await openTarget(profile.config), profile);
  };
  const short = await plan({ 'max-wait-ms': '70000' });
  expect(short.longestMs! - short.typicalMs).toBe(30_000);
  expect(formatPlan(short, 'x')).toContain('the daily scenario first waits for a fresh quota day when one starts within --max-wait-ms)');
  const bounded = await plan({ 'max-wait-ms': '20000' });
  expect([bounded.longestMs! - bounded.typicalMs, bounded.dayWaitOptional]).toEqual([20_000, true]);
});
