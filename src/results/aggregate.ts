/**
 * Folds the stream of findings into one result per catalogue requirement and
 * builds the RunReport every writer reads. The level decides what a violation
 * means: a MUST violation fails, a SHOULD or INFO violation warns.
 */
import { REQUIREMENTS, type Requirement } from '../catalogue/requirements.ts';
import type { Finding, Outcome, RequirementResult, RunReport, Status, TargetInfo } from './types.ts';

const KEEP_PROBLEMS = 3;
const KEEP_OBSERVATIONS = 10;

export function emptyCounts(): Record<Outcome, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, observe: 0 };
}

export function statusOf(req: Requirement, counts: Record<Outcome, number>): Status {
  if (counts.fail > 0) return req.level === 'MUST' ? 'fail' : 'warn';
  if (counts.warn > 0) return 'warn';
  if (counts.pass > 0 || counts.observe > 0) return 'pass';
  return 'skip';
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
            list.find((f) => f.outcome === 'skip'),
        ].filter((f): f is Finding => !!f);
    const observations = [...new Set(list.filter((f) => f.outcome === 'observe').map((f) => f.message))].slice(0, KEEP_OBSERVATIONS);
    if (list.length === 0)
      observations.push(
        req.by === 'load' ? 'Not run: no rate-limit scenario of this run judges it (see --scenarios).' : 'Not exercised in this run.',
      );
    return {
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
  });
}

export function countStatuses(results: readonly RequirementResult[]): Record<Status, number> {
  const c: Record<Status, number> = { pass: 0, fail: 0, warn: 0, skip: 0, waived: 0 };
  for (const r of results) c[r.status]++;
  return c;
}

export function verdictOf(results: readonly RequirementResult[], abort?: string): 'pass' | 'fail' {
  if (abort) return 'fail';
  return results.some((r) => r.level === 'MUST' && r.status === 'fail') ? 'fail' : 'pass';
}

export interface ReportInput {
  kind: RunReport['kind'];
  suiteVersion: string;
  specSha256: string;
  target: TargetInfo;
  startedAt: Date;
  endedAt: Date;
  interrupted?: boolean;
  abort?: string;
  requestsSent: number;
  findings: readonly Finding[];
  notes?: string[];
  load?: unknown[];
  catalogue?: readonly Requirement[];
}

export function buildReport(input: ReportInput): RunReport {
  const requirements = aggregate(input.findings, input.catalogue);
  const abort = input.abort ?? (input.interrupted ? 'interrupted by the user (SIGINT)' : undefined);
  return {
    kind: input.kind,
    suiteVersion: input.suiteVersion,
    specSha256: input.specSha256,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    interrupted: !!input.interrupted,
    verdict: verdictOf(requirements, abort),
    ...(abort ? { abort } : {}),
    counts: countStatuses(requirements),
    requestsSent: input.requestsSent,
    requirements,
    ...(input.load ? { load: input.load } : {}),
    notes: input.notes ?? [],
  };
}
