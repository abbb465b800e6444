/**
 * The causes of a report kept in step with its requirements (finalize calls it after every change of status:
 * waivers, plans): each requirement a cause breaks takes the status the report gives it (waived when a waiver covers
 * it; a cause whose requirements all ended otherwise is dropped), and a failed or warned requirement that no cause
 * names (a status set by hand) gets a cause of its own, from the finding that explains it. Each requirement a cause
 * breaks lists the ids of its causes. Waivers stay per requirement: a cause is waived only when every requirement it
 * breaks is.
 */
import type { RequirementId } from '../core/catalogue.ts';
import { causeId } from './cause-keys.ts';
import { byWeight } from './causes.ts';
import type { CauseRequirement, CauseResult, Finding, RequirementResult, Status } from './types.ts';

function entryStatus(q: CauseRequirement, now: Status | undefined): CauseRequirement['status'] | undefined {
  if (now === 'waived') return 'waived';
  if (now === 'warn') return 'warn';
  if (now === 'fail') return q.status === 'waived' ? 'fail' : q.status;
  return undefined;
}

/** A cause with its requirements' statuses as the report now gives them; undefined when it breaks none any more. */
function settle(c: CauseResult, statuses: ReadonlyMap<string, Status>): CauseResult | undefined {
  const requirements = c.requirements.flatMap((q) => {
    const status = entryStatus(q, statuses.get(q.id));
    return status ? [{ ...q, status }] : [];
  });
  if (!requirements.length) return undefined;
  const status = requirements.some((q) => q.status === 'fail') ? 'fail' : requirements.some((q) => q.status === 'warn') ? 'warn' : 'waived';
  return { ...c, requirements, status };
}

/** A cause for a failed or warned requirement no cause names: its own, from the finding that explains it. */
function orphanCause(r: RequirementResult): CauseResult {
  const outcome = r.status === 'fail' ? 'fail' : 'warn';
  const f: Finding = r.findings.find((x) => x.outcome === outcome) ??
    r.findings.find((x) => x.outcome === 'fail' || x.outcome === 'warn') ?? {
      requirement: r.id as RequirementId,
      outcome,
      title: r.title,
      message: `${r.id} ${outcome === 'fail' ? 'failed' : 'warned'}`,
      source: 'report',
    };
  const signature = `${r.id} · ${f.title}`;
  const id = causeId(signature);
  return {
    id,
    title: f.cause?.title ?? f.title,
    signature,
    status: outcome,
    requirements: [{ id: r.id, level: r.level, status: outcome, consequence: false }],
    requests: f.evidence?.request ? 1 : 0,
    findings: Math.max(1, r.counts.fail + r.counts.warn),
    seenOn: [],
    primary: { ...f, cause: { key: f.cause?.key ?? signature, id, title: f.cause?.title ?? f.title, consequence: false } },
  };
}

function withCauses(r: RequirementResult, ids: readonly string[] | undefined): RequirementResult {
  if (ids?.length) return { ...r, causes: [...ids] };
  if (!r.causes) return r;
  const { causes: _causes, ...rest } = r;
  return rest;
}

/** The causes and the requirements of a report, in step (see the module's comment). */
export function settleCauses(
  causes: readonly CauseResult[],
  requirements: readonly RequirementResult[],
): { causes: CauseResult[]; requirements: RequirementResult[] } {
  const statuses = new Map(requirements.map((r) => [r.id, r.status]));
  const kept = causes.map((c) => settle(c, statuses)).filter((c): c is CauseResult => !!c);
  const named = new Set(kept.flatMap((c) => c.requirements.map((q) => q.id)));
  const orphans = requirements.filter((r) => (r.status === 'fail' || r.status === 'warn') && !named.has(r.id)).map(orphanCause);
  const all = [...kept, ...orphans].sort(byWeight);
  const ids = new Map<string, string[]>();
  for (const c of all) for (const q of c.requirements) ids.set(q.id, [...(ids.get(q.id) ?? []), c.id]);
  return { causes: all, requirements: requirements.map((r) => withCauses(r, ids.get(r.id))) };
}
