/**
 * Shares of a distributed run merged into one verdict. Each k6 instance of a
 * distributed sustained or overload run (k6-operator `parallelism`, or
 * `k6 run --execution-segment`) judges only what its own requests show and
 * writes its share: its execution segment, the scenario's inputs and every
 * request in compact form. The merge puts the requests of every share back on
 * one timeline and judges them with the scenario's own rules, as one process
 * would have — including what only the whole view can judge (successes per
 * window across shares, RL-NOT-EARLY). Pure (no Node built-ins).
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import { RATE_LIMIT_LOAD } from '../../src/core/sections/rate-limit-load/requirements.ts';
import { buildLoadReport, expandSample, type CompactSample, type LoadReport, type ShareInputs } from '../../src/core/load-report.ts';
import type { ScenarioOptions } from './types.ts';
import type { Sample } from '../../src/core/sample.ts';
import { scenarioOptions } from './scenario-options.ts';
import { SCENARIOS } from './load-shapes.ts';

export interface Merged {
  /** The merged report, unless the shares could not be merged. */
  report?: LoadReport;
  /** Why the shares could not be merged (different runs, a segment twice, no share). */
  refused?: string;
}

/** "a:b" with fractions ("1/2") → [from, to]; undefined when unreadable. */
export function parseSegment(s: string): [number, number] | undefined {
  if (!s) return [0, 1];
  const frac = (x: string): number => {
    const [p, q] = x.split('/');
    return q === undefined ? Number(p) : Number(p) / Number(q);
  };
  const [a, b] = s.split(':');
  const from = a === '' ? 0 : frac(a);
  const to = b === undefined || b === '' ? 1 : frac(b);
  return isFinite(from) && isFinite(to) && from >= 0 && to <= 1 && from < to ? [from, to] : undefined;
}

/** The parts of [0, 1] no share covers, in words ("1/2 to 1"), or [] when the shares cover the whole run. */
function gaps(segments: Array<[number, number]>): string[] {
  const out: string[] = [];
  let at = 0;
  for (const [from, to] of segments.slice().sort((x, y) => x[0] - y[0])) {
    if (from > at + 1e-9) out.push(`${fmt(at)} to ${fmt(from)}`);
    at = Math.max(at, to);
  }
  if (at < 1 - 1e-9) out.push(`${fmt(at)} to 1`);
  return out;
}

const fmt = (x: number) => String(Math.round(x * 1000) / 1000);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function mergeShares(shares: readonly LoadReport[]): Merged {
  const refused = differentRuns(shares);
  if (refused) return { refused };
  const segments = segmentsOf(shares);
  if (typeof segments === 'string') return { refused: segments };
  const first = shares[0];
  const inputs = first.share?.inputs as ShareInputs;
  const missing = gaps(segments);
  const samples = mergedSamples(shares);
  const def = SCENARIOS[first.scenario];
  const stops = [...new Set(shares.map((r) => r.stoppedBecause).filter((s): s is string => !!s && s !== 'scenario complete'))];
  const stopped = stops.length ? stops.join('; ') : undefined;
  const judgements: Judgement[] = def.judge(samples, mergedOptions(first.plan, inputs, missing.length > 0), stopped);
  // A share that could not finish (k6 stopped it) or failed as a program stays a suite error of the whole.
  for (const r of shares) for (const j of r.judgements) if (j.outcome === 'error') judgements.push(j);
  if (!samples.length)
    judgements.push(
      RATE_LIMIT_LOAD.judge(def.requirements[0], {
        outcome: 'error',
        title: 'no-request',
        message: 'the shares carry no request to judge',
      }),
    );
  const blocked = Math.max(0, ...shares.map((r) => r.key.blockedUntil ?? 0));
  const last = Math.max(0, ...shares.map((r) => r.key.lastResponseAt ?? 0));
  const report = buildLoadReport({
    scenario: first.scenario,
    plan: first.plan,
    engine: first.engine,
    target: first.target,
    startedAt: Math.min(...shares.map((r) => Date.parse(r.startedAt))),
    endedAt: Math.max(...shares.map((r) => Date.parse(r.endedAt))),
    requestsSent: shares.reduce((n, r) => n + r.requestsSent, 0),
    judgements,
    samples,
    key: { ...(blocked ? { blockedUntil: blocked } : {}), ...(last ? { lastResponseAt: last } : {}) },
    stoppedBecause: stopped ?? 'scenario complete',
    notes: mergedNotes(shares, missing),
    earlierRequests: inputs.earlierRequests,
  });
  return { report };
}

/** Why the reports are not shares of one run (none given, one no share, another scenario, plan, target or settings); undefined when they are. */
function differentRuns(shares: readonly LoadReport[]): string | undefined {
  if (!shares.length) return 'no share report given';
  const plain = shares.find((r) => !r.share);
  if (plain)
    return `the ${plain.scenario} report of ${plain.startedAt} is no share (run each instance with ANIMAL_STORE_LOAD_DISTRIBUTED=yes)`;
  const first = shares[0];
  for (const r of shares) {
    const what = `${r.scenario} (${r.plan}) against ${r.target}`;
    if (r.scenario !== first.scenario || r.plan !== first.plan || r.target !== first.target)
      return `the shares are of different runs: ${first.scenario} (${first.plan}) against ${first.target}, and ${what}`;
    if (!same(r.share?.inputs, first.share?.inputs)) return `the shares were run with different settings (window, limits): ${what}`;
  }
  return undefined;
}

/** The execution segment of each share; why not, when one is unreadable or two overlap. */
function segmentsOf(shares: readonly LoadReport[]): Array<[number, number]> | string {
  const segments: Array<[number, number]> = [];
  for (const r of shares) {
    const seg = parseSegment(r.share?.segment ?? '');
    if (!seg) return `unreadable execution segment ${JSON.stringify(r.share?.segment)}`;
    const overlap = segments.find(([a, b]) => seg[0] < b - 1e-9 && a < seg[1] - 1e-9);
    if (overlap) return `two shares cover the same part of the run (segment ${r.share?.segment || '0:1'} given twice, or overlapping)`;
    segments.push(seg);
  }
  return segments;
}

/** The scenario's options as each share ran it; a partial view when the shares leave part of the run uncovered. */
function mergedOptions(plan: LoadReport['plan'], inputs: ShareInputs, partialView: boolean): ScenarioOptions {
  return scenarioOptions(
    {
      plan,
      perMinute: inputs.perMinute,
      perDay: inputs.perDay,
      windowMs: inputs.windowMs,
      dayMs: inputs.dayMs,
      maxWaitMs: inputs.maxWaitMs,
      requestUrl: inputs.requestUrl,
      earlierRequests: inputs.earlierRequests,
      freshQuotaDay: inputs.freshQuotaDay,
    },
    { partialView, ...(inputs.dedicatedKey ? { dedicatedKey: true } : {}) },
  );
}

/** The merged report's notes: which shares, what they leave uncovered, and each share's own notes once. */
function mergedNotes(shares: readonly LoadReport[], missing: readonly string[]): string[] {
  return [
    `Merged from ${shares.length} share(s) (execution segments ${shares.map((r) => r.share?.segment || '0:1').join(', ')}): judged on every request of the run, on one timeline.`,
    ...(missing.length
      ? [`The shares do not cover ${missing.join(', ')} of the run: what needs every request on the key is not judged.`]
      : []),
    ...new Set(shares.reduce<string[]>((all, r) => all.concat(r.notes || []), [])),
  ];
}

/**
 * Every request of the shares on one timeline: duplicates dropped (several VUs of
 * one instance carry the same preflight), ordered by when they were sent, and
 * numbered again in that order.
 */
export function mergedSamples(shares: readonly LoadReport[]): Sample[] {
  return uniqueSamples(shares.map((r) => r.share?.samples ?? []));
}

/** Compact samples of several shares (or VUs) as one run's: each request once (the setup's, seeded into every VU), in time order. */
function uniqueSamples(lists: readonly (readonly CompactSample[])[]): Sample[] {
  const seen = new Set<string>();
  const all: Sample[] = [];
  for (const list of lists)
    for (const c of list) {
      const k = JSON.stringify(c);
      if (seen.has(k)) continue;
      seen.add(k);
      all.push(expandSample(c));
    }
  all.sort((a, b) => a.sentAt - b.sentAt || a.t - b.t);
  return all.map((s, i) => ({ ...s, seq: i }));
}

const isNum = (v: unknown): v is number => typeof v === 'number' && isFinite(v);

/** A parsed share file, checked enough to merge safely; a reason in words when it is not one. */
export function readShare(value: unknown, source: string): LoadReport | string {
  const r = value as Partial<LoadReport> | null;
  if (!r || typeof r !== 'object' || Array.isArray(r)) return `${source}: not a load report (a JSON object)`;
  if (typeof r.scenario !== 'string' || !(r.scenario in SCENARIOS)) return `${source}: not a load report (no known scenario)`;
  if (typeof r.plan !== 'string' || typeof r.target !== 'string' || typeof r.startedAt !== 'string' || typeof r.endedAt !== 'string')
    return `${source}: not a load report (plan, target or times missing)`;
  if (!Array.isArray(r.judgements) || !isNum(r.requestsSent)) return `${source}: not a load report (judgements or requestsSent missing)`;
  const s = r.share;
  if (!s || typeof s !== 'object')
    return `${source}: a load report but no share (run each instance with ANIMAL_STORE_LOAD_DISTRIBUTED=yes)`;
  const i = s.inputs as Partial<ShareInputs> | undefined;
  if (typeof s.segment !== 'string' || !i || !isNum(i.perMinute) || !isNum(i.windowMs) || !isNum(i.dayMs) || !isNum(i.maxWaitMs))
    return `${source}: the share has no segment or inputs`;
  if (
    !Array.isArray(s.samples) ||
    s.samples.some((c) => !Array.isArray(c) || c.length < 5 || ![c[0], c[2], c[3], c[4]].every(isNum) || typeof c[1] !== 'string')
  )
    return `${source}: the share's samples are not [seq, phase, sentAt, t, status, …] arrays`;
  return { ...(r as LoadReport), key: r.key && typeof r.key === 'object' ? r.key : {} };
}

/**
 * A paced scenario run on several VUs in one k6 process: each VU judged only its share; the k6 engine judges the
 * requests of them all, which they carried, as one run (the same judge, on one timeline), in place of the report
 * made of their shares' judgements. Suite errors stay.
 */
export function judgeVusAsOne(r: LoadReport, carried: readonly CompactSample[], o: ScenarioOptions, vus: number): LoadReport {
  const samples = uniqueSamples([carried]);
  const stopped = r.stoppedBecause && r.stoppedBecause !== 'scenario complete' ? r.stoppedBecause : undefined;
  const judgements: Judgement[] = SCENARIOS[r.scenario].judge(samples, { ...o, partialView: false }, stopped);
  for (const j of r.judgements) if (j.outcome === 'error') judgements.push(j);
  return buildLoadReport({
    scenario: r.scenario,
    plan: r.plan,
    engine: r.engine,
    target: r.target,
    startedAt: Date.parse(r.startedAt),
    endedAt: Date.parse(r.endedAt),
    requestsSent: r.requestsSent,
    judgements,
    samples,
    key: r.key,
    ...(r.stoppedBecause ? { stoppedBecause: r.stoppedBecause } : {}),
    notes: [
      `Run on ${vus} k6 VUs (for the latency the key's earlier scenario saw): judged on the requests of them all, on one timeline.`,
      ...(r.notes || []),
    ],
    ...(r.earlierRequests !== undefined ? { earlierRequests: r.earlierRequests } : {}),
  });
}
