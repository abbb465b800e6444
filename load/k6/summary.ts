/**
 * How a k6 run carries its report to handleSummary: k6 gives handleSummary only
 * metrics and checks, so the VU records each judgement, the key's state, the
 * compact timeline and its notes as checks whose names are `animal-store <kind>
 * <JSON>`; handleSummary reads them back and builds the same LoadReport the
 * Node engine writes. A judgement's check fails only when it is a failure (so
 * k6's own check rate stays meaningful). Never throws inside check().
 */
import type { Judgement } from '../../src/core/judgement.ts';
import type { KeyState, TimelinePoint } from '../../src/core/load-report.ts';

const PREFIX = 'animal-store ';

export type Carried =
  | { kind: 'judgement'; value: Judgement }
  | { kind: 'key'; value: KeyState }
  | { kind: 'timeline'; value: TimelinePoint[] }
  | { kind: 'note'; value: string }
  | { kind: 'stopped'; value: string };

export function carry(c: Carried): string {
  return `${PREFIX}${c.kind} ${JSON.stringify(c.value)}`;
}

/** The carried item a check name holds, if it is one of ours. */
export function uncarry(name: string): Carried | undefined {
  if (name.indexOf(PREFIX) !== 0) return undefined;
  const rest = name.slice(PREFIX.length);
  const sp = rest.indexOf(' ');
  if (sp < 0) return undefined;
  const kind = rest.slice(0, sp);
  try {
    const value = JSON.parse(rest.slice(sp + 1)) as never;
    if (kind === 'judgement' || kind === 'key' || kind === 'timeline' || kind === 'note' || kind === 'stopped')
      return { kind, value } as Carried;
  } catch {
    return undefined;
  }
  return undefined;
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
}

/** What the checks of a summary carried (several VUs: their judgements together, the latest key state). */
export function readCarriage(checks: ReadonlyArray<{ name: string }>): Carriage {
  const out: Carriage = { judgements: [], timeline: [], key: {}, notes: [] };
  for (const c of checks) {
    const x = uncarry(c.name);
    if (!x) continue;
    if (x.kind === 'judgement') out.judgements.push(x.value);
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
