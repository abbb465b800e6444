/**
 * Folds the stream of findings into one result per catalogue requirement and
 * builds the RunReport every writer reads. The level decides what a violation
 * means (a MUST fails, a SHOULD, INFO or ADVISORY warns); the scope decides what a run
 * may claim: certified only when every MUST in scope was exercised and passed.
 */
import { judgeAny, REQUIREMENTS, type Requirement } from '../core/catalogue.ts';
import { SCENARIO_INFO, scenariosJudging, type ScenarioName } from '../core/scenarios.ts';
import type { LoadReport } from '../core/load-report.ts';
import { groupCauses } from './causes.ts';
import { settleCauses } from './cause-status.ts';
import type {
  EngineRecord,
  Finding,
  NotExercised,
  Outcome,
  PlanResult,
  RequirementResult,
  RunOutcome,
  RunReport,
  Status,
  TargetInfo,
} from './types.ts';

const KEEP_PROBLEMS = 3;
const KEEP_OBSERVATIONS = 10;

export function emptyCounts(): Record<Outcome, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, observe: 0, error: 0 };
}

export function statusOf(req: Requirement, counts: Record<Outcome, number>): Status {
  if (counts.fail > 0) return req.level === 'MUST' ? 'fail' : 'warn';
  if (counts.warn > 0) return 'warn';
  if (req.level === 'INFO') return counts.pass > 0 || counts.observe > 0 ? 'observed' : 'skip';
  return counts.pass > 0 ? 'pass' : 'skip';
}

/** What would exercise a requirement the run skipped, when the finding does not say. */
export function defaultRemedy(req: Requirement): string | undefined {
  if (req.by !== 'load') return undefined;
  const scenarios = scenariosJudging(req.id);
  if (scenarios.length === 1 && scenarios[0] === 'daily')
    return "run the daily scenario: --profile full --allow-daily (it spends the key's whole daily quota; use a dedicated key)";
  const quick = scenarios.filter((s) => s === 'ceiling' || s === 'recovery');
  return quick.length
    ? `run the ${quick.join(' or ')} scenario (--scenarios ${quick[0]}, part of the default profile)`
    : `run the ${scenarios.join(' or ')} scenario: --profile full (or --scenarios ${scenarios[0]})`;
}

function notExercised(req: Requirement, list: readonly Finding[]): { reason: string; remedy?: string } {
  const why = list.find((f) => f.outcome === 'error') || list.find((f) => f.outcome === 'skip');
  const remedy = (why && why.remedy) || defaultRemedy(req);
  const reason = why
    ? `${why.outcome === 'error' ? 'suite error: ' : ''}${why.title}: ${why.message}`
    : req.by === 'load'
      ? 'no rate-limit scenario of this run judges it'
      : 'not exercised by this run';
  return remedy ? { reason, remedy } : { reason };
}

export function aggregate(findings: readonly Finding[], catalogue: readonly Requirement[] = REQUIREMENTS): RequirementResult[] {
  const by = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = by.get(f.requirement);
    if (list) list.push(f);
    else by.set(f.requirement, [f]);
  }
  return catalogue.map((req) => {
    const list = by.get(req.id) ?? [];
    const counts = emptyCounts();
    for (const f of list) counts[f.outcome]++;
    const status = statusOf(req, counts);
    const problems: Finding[] = [];
    const seenTitles = new Set<string>();
    for (const f of list) {
      if ((f.outcome === 'fail' || f.outcome === 'warn') && problems.length < KEEP_PROBLEMS && !seenTitles.has(f.title)) {
        problems.push(f);
        seenTitles.add(f.title);
      }
    }
    const sample = problems.length
      ? problems
      : [
          list.find((f) => f.outcome === 'pass' && f.evidence) ??
            list.find((f) => f.outcome === 'pass') ??
            list.find((f) => f.outcome === 'error') ??
            list.find((f) => f.outcome === 'skip'),
        ].filter((f): f is Finding => !!f);
    const observations = [...new Set(list.filter((f) => f.outcome === 'observe').map((f) => f.message))].slice(0, KEEP_OBSERVATIONS);
    const result: RequirementResult = {
      id: req.id,
      level: req.level,
      title: req.title,
      section: req.section,
      quote: req.quote,
      area: req.area,
      status,
      counts,
      findings: sample,
      observations,
    };
    if (status === 'skip') result.notExercised = notExercised(req, list);
    return result;
  });
}

export function countStatuses(results: readonly Pick<RequirementResult, 'status'>[]): Record<Status, number> {
  const c: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0, waived: 0, observed: 0 };
  for (const r of results) c[r.status]++;
  return c;
}

/** The MUST requirements a report of this kind answers for. */
export function inScope(
  kind: RunReport['kind'],
  r: Pick<RequirementResult, 'id' | 'level'>,
  catalogue: readonly Requirement[] = REQUIREMENTS,
): boolean {
  if (r.level !== 'MUST') return false;
  if (kind === 'certification') return true;
  const req = catalogue.find((q) => q.id === r.id);
  return !!req && req.by === 'conformance';
}

/** The outcome: a MUST failed → not conformant; a MUST not passed (skipped, warned, waived) or the run stopped → incomplete; else certified. */
export function outcomeOf(
  kind: RunReport['kind'],
  results: readonly Pick<RequirementResult, 'id' | 'level' | 'status'>[],
  stopped: boolean,
): RunOutcome {
  const musts = results.filter((r) => inScope(kind, r));
  if (musts.some((r) => r.status === 'fail')) return 'not-conformant';
  if (stopped || musts.some((r) => r.status !== 'pass')) return 'incomplete';
  return 'certified';
}

export function notExercisedOf(kind: RunReport['kind'], results: readonly RequirementResult[]): NotExercised[] {
  return results
    .filter((r) => inScope(kind, r) && r.status === 'skip')
    .map((r) => ({
      id: r.id,
      title: r.title,
      reason: r.notExercised?.reason ?? 'not exercised',
      ...(r.notExercised?.remedy ? { remedy: r.notExercised.remedy } : {}),
    }));
}

/** Recompute what depends on the statuses (after waivers, a comparison…). */
export function finalize(report: RunReport): RunReport {
  // Several plans: each requirement at its worst status over the plans (a pass on one plan does not cover a gap on another).
  const across = report.plans?.length ? report.requirements.map((r) => acrossPlans(r, report.plans ?? [])) : report.requirements;
  // Each failed or warned requirement names its causes, and each cause takes its requirements' statuses (waivers).
  const { causes, requirements } = settleCauses(report.causes ?? [], across);
  const own = outcomeOf(report.kind, requirements, report.interrupted || !!report.abort);
  const ranks = { certified: 0, incomplete: 1, 'not-conformant': 2 } as const;
  // …and the run is certified only when every plan is.
  const outcome = (report.plans ?? []).reduce((w, p) => (ranks[p.outcome] > ranks[w] ? p.outcome : w), own);
  return {
    ...report,
    requirements,
    causes,
    counts: countStatuses(requirements),
    outcome,
    notExercised: notExercisedOf(report.kind, requirements),
  };
}

/** Worst first: what a requirement's status across plans is. */
const WORST: Record<Status, number> = { fail: 0, warn: 1, waived: 2, skip: 3, observed: 4, pass: 5 };

function acrossPlans(r: RequirementResult, plans: readonly PlanResult[]): RequirementResult {
  let out = r;
  for (const p of plans) {
    const e = p.requirements.find((q) => q.id === r.id);
    if (!e || WORST[e.status] >= WORST[out.status]) continue;
    out = { ...out, status: e.status };
    if (e.status === 'skip')
      out.notExercised = { reason: `on plan ${p.plan}: ${e.reason ?? 'not exercised'}`, ...(e.remedy ? { remedy: e.remedy } : {}) };
  }
  return out;
}

export interface ReportInput {
  kind: RunReport['kind'];
  suiteName?: string;
  suiteVersion: string;
  specSha256: string;
  target: TargetInfo;
  startedAt: Date;
  endedAt: Date;
  interrupted?: boolean;
  abort?: string;
  diagnosis?: string;
  keyRefused?: boolean;
  requestsSent: number;
  findings: readonly Finding[];
  notes?: string[];
  load?: LoadReport[];
  engine?: EngineRecord;
  catalogue?: readonly Requirement[];
}

export function buildReport(input: ReportInput): RunReport {
  // One finding per cause: every failure and warning carries the id of its cause (causes.ts).
  const grouped = groupCauses(input.findings);
  const requirements = aggregate(grouped.findings, input.catalogue);
  const abort = input.abort ?? (input.interrupted ? 'interrupted by the user (SIGINT)' : undefined);
  const suiteErrors = [
    ...new Set(input.findings.filter((f) => f.outcome === 'error').map((f) => `${f.requirement}: ${f.title} — ${f.message}`)),
  ];
  return finalize({
    kind: input.kind,
    ...(input.suiteName ? { suiteName: input.suiteName } : {}),
    suiteVersion: input.suiteVersion,
    specSha256: input.specSha256,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    interrupted: !!input.interrupted,
    outcome: 'incomplete',
    ...(abort ? { abort } : {}),
    ...(input.diagnosis ? { diagnosis: input.diagnosis } : {}),
    ...(input.keyRefused ? { keyRefused: true } : {}),
    counts: countStatuses(requirements),
    notExercised: [],
    requestsSent: input.requestsSent,
    requirements,
    causes: grouped.causes,
    ...(input.load ? { load: input.load } : {}),
    ...(input.engine ? { engine: input.engine } : {}),
    suiteErrors,
    notes: input.notes ?? [],
  });
}

/** Findings of rate-limit scenarios that were not run: each of their requirements skipped, with the reason and the remedy. */
export function notRunFindings(notRun: readonly { scenario: ScenarioName; reason: string; remedy?: string }[]): Finding[] {
  return notRun.flatMap((n) =>
    SCENARIO_INFO[n.scenario].requirements.map((id): Finding => ({
      ...judgeAny(id, {
        outcome: 'skip',
        title: 'not-run',
        args: { scenario: n.scenario },
        message: n.reason,
        remedy: n.remedy,
      }),
      source: `load: ${n.scenario}`,
    })),
  );
}

/** Findings of a load report (one per judgement), attributed to its scenario. */
export function loadFindings(report: LoadReport): Finding[] {
  return report.judgements.map((j) => ({
    ...j,
    source: `load: ${report.scenario} (${report.plan}, ${report.engine} engine)`,
    at: report.endedAt,
  }));
}
