/**
 * Several plans in one run, on simulated time: each plan's scenarios on its own
 * key, side by side (the Node engine: concurrently; the k6 engine: one process
 * with a k6 scenario per plan). They must pass on the reference server with no
 * plan's requests counted on another's, agree between the engines, take about
 * the time of one plan, and catch a server that counts the plans in one bucket.
 */
import { describe, expect, it } from 'vitest';
import { NodeEngine, type LoadEngine } from '../../load/node/engine.ts';
import { orchestrateLanes, type Orchestrated } from '../../load/node/orchestrator.ts';
import type { AppOptions } from '../../reference/app.ts';
import { PLANS, type PlanName } from '../../src/core/plans.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import { VirtualClock, virtualSend } from '../support/virtual.ts';
import { job, outcomesOf, PER_DAY, PER_MINUTE, T0, virtualApp, type EngineKind } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';

const ALL: ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload'];

const bundles = builtBundles('plans-dist');

interface PlansRun {
  lanes: Orchestrated[];
  /** Requests the server saw with each plan's key. */
  byPlan: Record<PlanName, number>;
  /** Simulated time the whole run took. */
  elapsedMs: number;
}

/** `scenarios` for each of `plans` on a fresh reference app, side by side, each plan on its own key. */
async function runPlans(
  kind: EngineKind,
  plans: readonly PlanName[],
  scenarios: readonly ScenarioName[],
  options: AppOptions = {},
): Promise<PlansRun> {
  const clock = new VirtualClock(T0);
  const app = virtualApp(options, clock);
  const engine: LoadEngine =
    kind === 'node' ? new NodeEngine({ send: virtualSend(app, clock), clock }, () => undefined) : new EmulatedK6(bundles.dir, app, clock);
  const laneJobs = plans.map((plan) =>
    scenarios.map((s) =>
      job(s, {
        plan,
        apiKey: app.keys[plan],
        ...(plan === 'enterprise' ? { perMinute: PER_MINUTE, perDay: PER_DAY } : PLANS[plan]),
        dedicatedKey: true,
        deadlineAt: T0 + 3_600_000,
      }),
    ),
  );
  const lanes = await clock.run(() => orchestrateLanes(laneJobs, { engine, clock }));
  return { lanes, byPlan: app.requestsByPlan(), elapsedMs: clock.now() - T0 };
}

/** Outcome per scenario and requirement of one lane. */
const byScenario = (o: Orchestrated) => Object.fromEntries(o.reports.map((r) => [r.scenario, outcomesOf(r.judgements)]));
const problems = (o: Orchestrated) =>
  o.reports.flatMap((r) =>
    r.judgements
      .filter((j) => j.outcome === 'fail' || j.outcome === 'warn' || j.outcome === 'error')
      .map((j) => `${r.plan} ${r.scenario} ${j.requirement}: ${j.message}`),
  );

const FOUR: PlanName[] = ['free', 'pro', 'business', 'enterprise'];
let four: Promise<PlansRun> | undefined;
/** The four plans side by side on the Node engine: one run (the file's costliest) that two tests judge. */
const fourPlans = () => (four ??= runPlans('node', FOUR, ALL));

describe('plans side by side', () => {
  it('Free, pro, business and enterprise side by side on the Node engine pass every scenario, each on its own key, none counted on another.', async () => {
    const plans = FOUR;
    const { lanes, byPlan } = await fourPlans();
    lanes.forEach((lane, i) => {
      // The server saw each plan's key on exactly the requests of that plan's scenarios: no key crossed.
      expect(byPlan[plans[i]]).toBe(lane.reports.reduce((n, r) => n + r.requestsSent, 0));
      expect(lane.notRun).toEqual([]);
      expect(problems(lane)).toEqual([]);
      expect(lane.reports.map((r) => r.plan)).toEqual(ALL.map(() => plans[i]));
      // Each report judged its own plan's limit, and Remaining fell by one per own request on a key nothing else used.
      for (const r of lane.reports.filter((x) => x.scenario === 'ceiling' || x.scenario === 'recovery'))
        expect(outcomesOf(r.judgements)).toMatchObject({
          'RL-LIMIT-PLAN': 'pass',
          'RL-REMAINING-DECREMENTS': 'pass',
          'RL-CEILING-429': 'pass',
        });
    });
  }, 120_000);

  it('Four plans side by side take at most 1.2 times as long as the slowest plan alone (simulated time).', async () => {
    const alone = await runPlans('node', ['business'], ALL);
    const { elapsedMs } = await fourPlans();
    expect(elapsedMs).toBeLessThanOrEqual(1.2 * alone.elapsedMs);
  }, 120_000);

  it('The k6 engine runs the plans in one k6 process, a k6 scenario per plan, and agrees with the Node engine on every plan and requirement.', async () => {
    const plans: PlanName[] = ['free', 'pro'];
    const node = await runPlans('node', plans, ALL);
    const k6 = await runPlans('k6', plans, ALL);
    for (let i = 0; i < plans.length; i++) {
      // Each plan's key on exactly its own requests (setup()'s reachability probe carries no key).
      expect(k6.byPlan[plans[i]]).toBe(k6.lanes[i].reports.reduce((n, r) => n + r.requestsSent, 0));
      expect(problems(k6.lanes[i])).toEqual([]);
      expect(k6.lanes[i].reports.map((r) => [r.plan, r.engine])).toEqual(ALL.map(() => [plans[i], 'k6']));
      expect(byScenario(k6.lanes[i])).toEqual(byScenario(node.lanes[i]));
    }
  }, 120_000);

  it('A server counting free and pro in one bucket fails RL-REMAINING-DECREMENTS when the plans run side by side, on both engines.', async () => {
    for (const kind of ['node', 'k6'] as const) {
      const { lanes } = await runPlans(kind, ['free', 'pro'], ['sustained', 'ceiling'], { faults: ['plans-share-bucket'] });
      const all = lanes.flatMap((l) => l.reports.flatMap((r) => r.judgements));

      expect(all.filter((j) => j.outcome === 'fail').map((j) => j.requirement)).toContain('RL-REMAINING-DECREMENTS');
    }
  }, 120_000);

  it('The same server passes when one plan runs alone: only plans side by side can see the shared bucket.', async () => {
    const { lanes } = await runPlans('node', ['free'], ALL, { faults: ['plans-share-bucket'] });
    expect(problems(lanes[0])).toEqual([]);
  }, 120_000);
});
