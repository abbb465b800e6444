/**
 * A certification report from what a run did: the conformance findings (judged
 * once, on one key) and the rate-limit scenarios of each plan's key. One plan:
 * one outcome. Several plans (a key per plan): each plan's outcome by the same
 * rules, and the run certified only when every plan is. Each scenario's
 * timeline is kept as its chart draws it (chart-timeline.ts). Pure: the
 * certify command and its self-tests assemble reports the same way.
 */
import type { LoadReport } from '../core/load-report.ts';
import type { ScenarioName } from '../core/scenarios.ts';
import { buildReport, finalize, loadFindings, notRunFindings } from './aggregate.ts';
import { forCertificate } from './chart-timeline.ts';
import { planResult } from './plans.ts';
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
  notes: string[];
}

export function certificationReport(input: CertificationInput): RunReport {
  // A certificate keeps of each scenario's timeline what its chart draws (chart-timeline.ts).
  const i = { ...input, lanes: input.lanes.map((l) => ({ ...l, reports: l.reports.map(forCertificate) })) };
  const load = i.lanes.flatMap((l) => l.reports);
  const base = buildReport({
    kind: 'certification',
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
