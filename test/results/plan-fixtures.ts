/**
 * Runs that certify several plans at once (a key per plan), built by the real
 * pipeline: the conformance findings (judged once, on the Pro key) and each
 * plan's rate-limit scenarios (judged by the real rules, test/support/load-fixtures.ts) →
 * planResult per plan → buildReport + finalize across the plans.
 *
 * - allPlansCertified: free, pro, business and enterprise, each certified;
 * - threeOfFourCertified: pro ran the quick profile only (incomplete);
 * - mixedPlans: free certified; pro incomplete (quick profile); business not
 *   conformant (throttled at request #51, far below its limit); enterprise
 *   incomplete (the daily scenario was not allowed, with its reason);
 * - cutShortPro: free certified; pro's ceiling was cut short by the deadline
 *   before its own judgement (two plans);
 * - onePlan: a single-plan run that also carries `plans` (one entry).
 */
import { skip } from '../support/fixture-judgements.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { PlanName } from '../../src/core/plans.ts';
import { planResult } from '../../src/results/plan-results.ts';
import type { Finding, PlanResult, RunReport } from '../../src/results/types.ts';
import { conformance, deprecationWarning, found, fullProfile, report } from '../support/report-fixtures.ts';
import {
  ceilingSamples,
  earlyThrottleLoad,
  FREE,
  passingLoad,
  planShape,
  realLoadReport,
  type PlanShape,
} from '../support/load-fixtures.ts';

export const SHAPES: Record<PlanName, PlanShape> = {
  free: FREE,
  pro: planShape('pro', 300, 10_000),
  business: planShape('business', 1000, 100_000),
  enterprise: planShape('enterprise', 1500, 500_000),
};
export const PLAN_ORDER: readonly PlanName[] = ['free', 'pro', 'business', 'enterprise'];
export const CONFORMANCE_KEY = 'ANIMAL_STORE_API_KEY_PRO';
export const keySource = (plan: string) => `ANIMAL_STORE_API_KEY_${plan.toUpperCase()}`;

/** What one plan's key went through: its scenario reports, and the findings not in them. */
interface PlanRun {
  plan: PlanName;
  load: LoadReport[];
  extra: Finding[];
}

const certifiedRun = (plan: PlanName): PlanRun => ({ plan, load: passingLoad(SHAPES[plan]), extra: fullProfile(plan) });
const quickRun = (plan: PlanName): PlanRun => ({ plan, load: passingLoad(SHAPES[plan]), extra: [] });
const earlyThrottleRun = (plan: PlanName): PlanRun => ({ plan, load: earlyThrottleLoad(SHAPES[plan]), extra: fullProfile(plan) });
export const DAILY_NOT_ALLOWED = 'the daily scenario spends the key’s whole daily quota and was not allowed';
const noDailyRun = (plan: PlanName): PlanRun => ({
  plan,
  load: passingLoad(SHAPES[plan]),
  extra: [
    ...fullProfile(plan).filter((f) => f.requirement !== 'RL-DAILY-QUOTA'),
    found(skip('RL-DAILY-QUOTA', 'Daily scenario not allowed', DAILY_NOT_ALLOWED, '--allow-daily'), `load: daily (${plan}, node engine)`),
  ],
});

const shared = (): Finding[] => conformance({ 'DEPRECATION-SIGNALLED': [deprecationWarning()] });

function planOf(conf: readonly Finding[], run: PlanRun): PlanResult {
  const { limit, perDay } = SHAPES[run.plan];
  return planResult(
    conf,
    { plan: run.plan, perMinute: limit, perDay, keySource: keySource(run.plan), load: run.load, extra: run.extra },
    false,
  );
}

/** The report of a run over these plans, as the CLI builds it. */
function plansReport(runs: PlanRun[]): RunReport {
  const conf = shared();
  const r = report({
    findings: [...conf, ...runs.flatMap((x) => x.extra)],
    load: runs.flatMap((x) => x.load),
    plans: { results: runs.map((x) => planOf(conf, x)), conformanceKey: CONFORMANCE_KEY },
  });
  return { ...r, target: { ...r.target, plan: undefined } };
}

export const allPlansCertified = (): RunReport => plansReport(PLAN_ORDER.map(certifiedRun));

export const threeOfFourCertified = (): RunReport => plansReport(PLAN_ORDER.map((p) => (p === 'pro' ? quickRun(p) : certifiedRun(p))));

export const mixedPlans = (): RunReport =>
  plansReport([certifiedRun('free'), quickRun('pro'), earlyThrottleRun('business'), noDailyRun('enterprise')]);

export const CUT_SHORT = 'the run’s deadline (600000 ms) was reached';

/** Free certified; pro's ceiling stopped at the run's deadline after 100 requests, judged only response by response. */
export const cutShortPro = (): RunReport => {
  const ceiling = realLoadReport('ceiling', ceilingSamples({ cap: 100 }, SHAPES.pro), {
    stoppedBecause: CUT_SHORT,
    p: SHAPES.pro,
    responsesOnly: true,
  });
  return plansReport([certifiedRun('free'), { plan: 'pro', load: [ceiling], extra: fullProfile('pro') }]);
};

/** A single-plan run (certified, or the quick profile) that carries its one plan in `plans`: it must read exactly as without. */
export function onePlan(quick = false): { withPlans: RunReport; without: RunReport } {
  const run = quick ? quickRun('free') : certifiedRun('free');
  const conf = shared();
  const o = { findings: [...conf, ...run.extra], load: run.load };
  return { without: report(o), withPlans: report({ ...o, plans: { results: [planOf(conf, run)], conformanceKey: keySource('free') } }) };
}

/** The plan of a report, by name. */
export const planIn = (r: RunReport, plan: string): PlanResult => r.plans!.find((p) => p.plan === plan)!;
