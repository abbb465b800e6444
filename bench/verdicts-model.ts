/**
 * What `npm run bench:verdicts` keeps of a run (bench/verdicts.ts), and the file it writes: nothing that depends on
 * timing (messages, counts, times, request numbers) is compared — only each requirement's aggregated status and the
 * distinct (requirement, outcome, title) of the run's findings, per scope (the run, a plan, a scenario's report).
 * Pure: the diff (./verdicts-compare.ts) and its test read it without running anything.
 */

/** [scope, requirement, status]: a requirement's aggregated status, as the run's JSON report has it ('skip' rows left out). */
export type StatusRow = [scope: string, requirement: string, status: string];
/** [scope, requirement, outcome, title]: one distinct raw finding. */
export type RawRow = [scope: string, requirement: string, outcome: string, title: string];

/**
 * One run's verdicts, by scope: `run` (a conformance run) or a load lane's plan (its raw titles prefixed with the
 * scenario that judged: `ceiling: No early 429`). Besides the catalogue's requirements, the status rows hold the run's
 * own: `*outcome` (a conformance run's certified / incomplete / not-conformant), `*verdict:<scenario>` (a load
 * report's), `*not-run` and `*stopped` (a lane's). A requirement with no status row was not exercised ('skip').
 */
export interface Verdicts {
  status: StatusRow[];
  raw: RawRow[];
}

/** What the runs of one configuration are: the group and settings that name it in both checkouts. */
export interface RunSettings {
  name: string;
  group: string;
  [setting: string]: unknown;
}

export interface RunEntry {
  settings: RunSettings;
  /** The first attempt's verdicts (absent when every attempt failed). */
  verdicts?: Verdicts;
  /** Keys (`scope requirement`) whose verdicts differed between the attempts: each attempt's, summarised. */
  unstable?: Record<string, string[]>;
  /** An attempt that did not finish (a suite error, a worker killed at its bound). */
  errors?: string[];
  /** Not compared: how the attempts went (wall ms, requests). */
  volatile: Record<string, unknown>;
}

export interface VerdictsFile {
  meta: Record<string, unknown>;
  runs: Record<string, RunEntry>;
}

/** A key's verdict: its status ('skip' when none) and its raw findings as `outcome "title"`, sorted. */
export interface KeyVerdict {
  status: string;
  raw: string[];
}

export const keyOf = (scope: string, requirement: string): string => `${scope} ${requirement}`;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The verdicts by key (`scope requirement`). */
export function keyed(v: Verdicts): Map<string, KeyVerdict> {
  const out = new Map<string, KeyVerdict>();
  const at = (scope: string, id: string): KeyVerdict => {
    const k = keyOf(scope, id);
    let e = out.get(k);
    if (!e) out.set(k, (e = { status: 'skip', raw: [] }));
    return e;
  };
  for (const [scope, id, status] of v.status) at(scope, id).status = status;
  for (const [scope, id, outcome, title] of v.raw) at(scope, id).raw.push(`${outcome} ${JSON.stringify(title)}`);
  for (const e of out.values()) e.raw = [...new Set(e.raw)].sort(byText);
  return out;
}

/** A key's verdict in one line: `status: raw; raw`. */
export function summary(e: KeyVerdict | undefined): string {
  const v = e ?? { status: 'skip', raw: [] };
  return `${v.status}${v.raw.length ? `: ${v.raw.join('; ')}` : ''}`;
}

const sameKey = (a: KeyVerdict | undefined, b: KeyVerdict | undefined): boolean => summary(a) === summary(b);

/** The keys whose verdicts are not the same in `a` and `b`. */
export function changedKeys(a: Verdicts, b: Verdicts): string[] {
  const ka = keyed(a);
  const kb = keyed(b);
  return [...new Set([...ka.keys(), ...kb.keys()])].filter((k) => !sameKey(ka.get(k), kb.get(k))).sort(byText);
}

/** What differs between a configuration's attempts: each changed key with every attempt's summary. */
export function unstableOf(attempts: readonly Verdicts[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const views = attempts.map(keyed);
  for (let i = 1; i < attempts.length; i++)
    for (const k of changedKeys(attempts[0], attempts[i])) out[k] = views.map((v) => summary(v.get(k)));
  return out;
}

/** Sorted, distinct rows (a run's rows are built in the order it met them). */
export function sortedRows<T extends string[]>(rows: readonly T[]): T[] {
  const seen = new Map(rows.map((r) => [JSON.stringify(r), r]));
  return [...seen.keys()].sort(byText).map((k) => seen.get(k)!);
}
