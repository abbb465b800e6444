/**
 * A certification report from what a run did: the conformance findings (judged
 * once, on one key) and the rate-limit scenarios of each plan's key. One plan:
 * one outcome. Several plans (a key per plan): each plan's outcome by the same
 * rules, and the run certified only when every plan is. Each scenario's
 * timeline is kept as its chart draws it (chart-timeline.ts); a failure found on
 * a k6 the suite is not yet verified on says so in its message. Pure: the
 * certify command and its self-tests assemble reports the same way.
 */
import { unverifiedK6, type EngineRecord } from '../core/engine-record.ts';
import type { LoadReport } from '../core/load-report.ts';
import type { ScenarioName } from '../core/scenarios.ts';
import { buildReport, finalize, loadFindings, notRunFindings } from './aggregate.ts';
import { forCertificate } from './chart-timeline.ts';
import { planResult } from './plan-results.ts';
import type { Finding, RunReport, TargetInfo } from './types.ts';

interface NotRunScenario {
  scenario: ScenarioName;
  reason: string;
  remedy?: string;
}

/** One key's rate-limit scenarios: its reports, what was not run, and whether its lane stopped early. */
export interface PlanRun {
  plan: string;
  reports: readonly LoadReport[];
  notRun: readonly NotRunScenario[];
  stopped?: unknown;
}

export interface CertificationInput {
  suiteName?: string;
  suiteVersion: string;
  specSha256: string;
  target: TargetInfo;
  startedAt: Date;
  endedAt: Date;
  interrupted: boolean;
  abort?: string;
  diagnosis?: string;
  /** The API key was refused (exit 5). */
  keyRefused?: boolean;
  requestsSent: number;
  conformance: readonly Finding[];
  /** Each key's rate-limit run (none when the profile runs no scenario or the run stopped before them). */
  lanes: readonly PlanRun[];
  /** Several plans certified at once: each plan's limits and where its key came from (never the key). */
  plans?: ReadonlyArray<{ plan: string; perMinute?: number; perDay?: number; keySource: string }>;
  /** Which key the conformance specs used (a variable's name), with several plans. */
  conformanceKey?: string;
  /** The engine the rate-limit scenarios ran on, and why. */
  engine?: EngineRecord;
  notes: string[];
}

/**
 * A failure found on a k6 the suite is not yet verified on says so at the start of its message, which every writer
 * shows beside the evidence (and the console keeps, whatever it cuts): until the Node engine or a verified k6 runs the
 * scenario, a change in k6 and a fault of the server look alike.
 */
export function noteUnverifiedK6(report: LoadReport, engine: EngineRecord | undefined): LoadReport {
  const k6 = unverifiedK6(engine);
  if (!k6 || report.engine !== 'k6') return report;
  const note = `Found on ${k6}, not yet verified (--engine node rules k6 out): `;
  return { ...report, judgements: report.judgements.map((j) => (j.outcome === 'fail' ? { ...j, message: note + j.message } : j)) };
}

export function certificationReport(input: CertificationInput): RunReport {
  // A certificate keeps of each scenario's timeline what its chart draws (chart-timeline.ts).
  const i = {
    ...input,
    lanes: input.lanes.map((l) => ({ ...l, reports: l.reports.map((r) => forCertificate(noteUnverifiedK6(r, input.engine))) })),
  };
  const load = i.lanes.flatMap((l) => l.reports);
  const base = buildReport({
    kind: 'certification',
    suiteName: i.suiteName,
    suiteVersion: i.suiteVersion,
    specSha256: i.specSha256,
    target: i.target,
    startedAt: i.startedAt,
    endedAt: i.endedAt,
    interrupted: i.interrupted,
    abort: i.abort,
    diagnosis: i.diagnosis,
    keyRefused: i.keyRefused,
    requestsSent: i.requestsSent,
    findings: [...i.conformance, ...load.flatMap(loadFindings), ...i.lanes.flatMap((l) => notRunFindings(l.notRun))],
    notes: i.notes,
    load,
    ...(i.engine ? { engine: i.engine } : {}),
  });
  if (!i.plans?.length) return base;
  const stopped = i.interrupted || !!i.abort;
  const plans = i.plans.map((p) => {
    const lane = i.lanes.find((l) => l.plan === p.plan);
    return planResult(
      i.conformance,
      { ...p, load: lane ? [...lane.reports] : [], extra: lane ? notRunFindings(lane.notRun) : [] },
      stopped || !!lane?.stopped,
    );
  });
  return finalize({ ...base, plans, ...(i.conformanceKey ? { conformanceKey: i.conformanceKey } : {}) });
}
