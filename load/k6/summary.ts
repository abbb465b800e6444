/**
 * How a k6 run carries its report to handleSummary: k6 gives handleSummary only
 * metrics and checks, so the VU records each judgement, the key's state, the
 * compact timeline and its notes as checks whose names are `animal-store <kind>
 * <JSON>`; handleSummary reads them back and builds the same LoadReport the
 * Node engine writes. A judgement's check fails only when it is a failure (so
 * k6's own check rate stays meaningful). Never throws inside check().
 */
import type { Judgement } from '../../src/core/judgement.ts';
import type { CompactSample, KeyState, TimelinePoint } from '../../src/core/load-report.ts';

const PREFIX = 'animal-store ';

/** What travels through a check; `plan` when several plans run in one k6 process. */
export type Carried = { plan?: string } & (
  | { kind: 'judgement'; value: Judgement }
  | { kind: 'key'; value: KeyState }
  | { kind: 'timeline'; value: TimelinePoint[] }
  | { kind: 'note'; value: string }
  | { kind: 'stopped'; value: string }
  | { kind: 'samples'; value: CompactSample[] }
);

/** Samples per check: a share's samples travel in chunks, so that no check name grows without bound. */
export const SAMPLES_PER_CHECK = 500;

export function carry(c: Carried): string {
  const { kind, value, ...rest } = c as { kind: string; value: unknown };
  return `${PREFIX}${kind} ${JSON.stringify(Object.assign({ v: value }, rest))}`;
}

/** The carried item a check name holds, if it is one of ours. */
export function uncarry(name: string): Carried | undefined {
  if (name.indexOf(PREFIX) !== 0) return undefined;
  const rest = name.slice(PREFIX.length);
  const sp = rest.indexOf(' ');
  if (sp < 0) return undefined;
  const kind = rest.slice(0, sp);
  const kinds = ['judgement', 'key', 'timeline', 'note', 'stopped', 'samples'];
  if (kinds.indexOf(kind) < 0) return undefined;
  try {
    const parsed = JSON.parse(rest.slice(sp + 1)) as { v?: unknown; plan?: unknown; segment?: unknown } | null;
    if (!parsed || typeof parsed !== 'object' || !('v' in parsed)) return undefined;
    const out: Record<string, unknown> = { kind, value: parsed.v };
    if (typeof parsed.plan === 'string') out.plan = parsed.plan;
    return out as unknown as Carried;
  } catch {
    return undefined;
  }
}

export interface SummaryGroup {
  checks?: Array<{ name: string; passes: number; fails: number }> | Record<string, { name: string; passes: number; fails: number }>;
  groups?: SummaryGroup[] | Record<string, SummaryGroup>;
}

function listOf<T>(v: T[] | Record<string, T> | undefined): T[] {
  if (!v) return [];
  return Array.isArray(v) ? v : Object.keys(v).map((k) => v[k]);
}

/** Every check of a k6 summary (k6 v0.45 to 1.x: checks under root_group, as a list or a map, in nested groups). */
export function allChecks(g: SummaryGroup | undefined): Array<{ name: string; passes: number; fails: number }> {
  if (!g) return [];
  let out = listOf(g.checks);
  for (const c of listOf(g.groups)) out = out.concat(allChecks(c));
  return out;
}

export interface Carriage {
  judgements: Judgement[];
  timeline: TimelinePoint[];
  key: KeyState;
  notes: string[];
  stopped?: string;
  /** A share of a distributed run: its samples. */
  samples?: CompactSample[];
}

/** What the checks of a summary carried for one plan (several VUs: their judgements together, the latest key state). */
export function readCarriage(checks: ReadonlyArray<{ name: string }>, plan?: string): Carriage {
  const out: Carriage = { judgements: [], timeline: [], key: {}, notes: [] };
  for (const c of checks) {
    const x = uncarry(c.name);
    if (!x || x.plan !== plan) continue;
    if (x.kind === 'samples') out.samples = (out.samples || []).concat(x.value);
    else if (x.kind === 'judgement') out.judgements.push(x.value);
    else if (x.kind === 'timeline') out.timeline = out.timeline.concat(x.value);
    else if (x.kind === 'note') out.notes.push(x.value);
    else if (x.kind === 'stopped') out.stopped = x.value;
    else {
      const k = x.value;
      if (k.blockedUntil !== undefined) out.key.blockedUntil = Math.max(out.key.blockedUntil || 0, k.blockedUntil);
      if (k.lastResponseAt !== undefined) out.key.lastResponseAt = Math.max(out.key.lastResponseAt || 0, k.lastResponseAt);
      if (k.waitRefusedMs !== undefined) out.key.waitRefusedMs = k.waitRefusedMs;
    }
  }
  out.timeline.sort((a, b) => a.t - b.t);
  return out;
}
