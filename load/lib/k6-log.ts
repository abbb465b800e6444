/**
 * How a k6 run carries what its VUs saw — each judgement with its message, the
 * key's state, the compact timeline, notes and, for a share of a distributed
 * run, every request — out of k6: as lines of k6's log (`console.log`), never
 * as check, metric or tag names, so that a metrics store gets no series unique
 * to a run. k6 gives handleSummary only metrics (a VU's memory and log never
 * reach it: grafana/k6#4668), so handleSummary reports each requirement's
 * outcome from fixed-name metrics, and whoever reads k6's log — the suite's k6
 * engine, `npm run load:merge` — completes that report with the carried lines.
 * Pure (bundled for k6).
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import { buildLoadReport, type CompactSample, type KeyState, type LoadReport, type TimelinePoint } from '../../src/core/load-report.ts';
import { RUN_TITLES, SCENARIO_TITLES } from '../../src/core/sections/rate-limit-load/requirements.ts';

/** The start of every carried line (after it: the kind, a space, JSON). */
export const LINE_PREFIX = 'animal-store-report ';

/** What one line carries; `plan` when several plans run in one k6 process, `segment` for a share of a distributed run. */
export type Carried = { plan?: string; segment?: string } & (
  | { kind: 'judgement'; value: Judgement }
  | { kind: 'key'; value: KeyState }
  | { kind: 'timeline'; value: TimelinePoint[] }
  | { kind: 'note'; value: string }
  | { kind: 'stopped'; value: string }
  | { kind: 'samples'; value: CompactSample[] }
);

const KINDS = ['judgement', 'key', 'timeline', 'note', 'stopped', 'samples'];

/** Samples per line: a share's requests travel in chunks, so that no log line grows without bound. */
export const SAMPLES_PER_LINE = 500;

export function carry(c: Carried): string {
  const { kind, value, ...rest } = c as { kind: string; value: unknown };
  return `${LINE_PREFIX}${kind} ${JSON.stringify(Object.assign({ v: value }, rest))}`;
}

/** The item a carried line holds, if it is one. */
export function uncarry(line: string): Carried | undefined {
  if (line.indexOf(LINE_PREFIX) !== 0) return undefined;
  const rest = line.slice(LINE_PREFIX.length);
  const sp = rest.indexOf(' ');
  if (sp < 0 || KINDS.indexOf(rest.slice(0, sp)) < 0) return undefined;
  try {
    const parsed = JSON.parse(rest.slice(sp + 1)) as { v?: unknown; plan?: unknown; segment?: unknown } | null;
    if (!parsed || typeof parsed !== 'object' || !('v' in parsed)) return undefined;
    const out: Record<string, unknown> = { kind: rest.slice(0, sp), value: parsed.v };
    if (typeof parsed.plan === 'string') out.plan = parsed.plan;
    if (typeof parsed.segment === 'string') out.segment = parsed.segment;
    return out as unknown as Carried;
  } catch {
    return undefined;
  }
}

/**
 * The console messages in k6's output, whatever its log format: `--log-format=json` (what the suite asks for),
 * k6's default text format (`msg="…"`, quoted with Go's escapes) or raw lines (an emulator, `--log-format=raw`).
 */
export function logMessages(output: string): string[] {
  const out: string[] = [];
  for (const line of output.split('\n')) {
    const i = line.indexOf(LINE_PREFIX.slice(0, -1));
    if (i < 0) continue;
    if (i === 0) out.push(line.replace(/\r$/, ''));
    else if (line.charAt(0) === '{') {
      try {
        const msg = (JSON.parse(line) as { msg?: unknown }).msg;
        if (typeof msg === 'string') out.push(msg);
      } catch {
        // not a JSON log line
      }
    } else {
      const m = /\bmsg="((?:[^"\\]|\\.)*)"/.exec(line);
      if (m) {
        try {
          out.push(JSON.parse(`"${m[1].replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')}"`) as string);
        } catch {
          // an escape JSON does not read
        }
      }
    }
  }
  return out;
}

export interface Carriage {
  judgements: Judgement[];
  timeline: TimelinePoint[];
  key: KeyState;
  notes: string[];
  stopped?: string;
  /** A share of a distributed run: its requests. */
  samples?: CompactSample[];
}

/** What the lines carried for one plan (and one segment): several VUs' judgements together, the latest key state. */
export function readCarriage(lines: readonly string[], plan?: string, segment?: string): Carriage {
  const out: Carriage = { judgements: [], timeline: [], key: {}, notes: [] };
  for (const line of lines) {
    const x = uncarry(line);
    if (!x || x.plan !== plan || (segment !== undefined && (x.segment || '') !== segment)) continue;
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
      if (k.latencyMs !== undefined) out.key.latencyMs = Math.max(out.key.latencyMs || 0, k.latencyMs);
    }
  }
  out.timeline.sort((a, b) => a.t - b.t);
  return out;
}

/** Titles of the judgements handleSummary makes from k6's thresholds alone (kept when the carried ones replace the rest). */
export const THRESHOLD_TITLES: readonly string[] = [SCENARIO_TITLES.threshold, RUN_TITLES.unfinished];

/** The note handleSummary adds to a report built from metrics alone; completing the report removes it. */
export const METRICS_ONLY_NOTE =
  "Built from k6's metrics alone: each requirement's outcome; the messages, the timeline and a share's requests are the lines of k6's log starting with 'animal-store-report' (npm run load and npm run load:merge read them).";

/**
 * handleSummary's report (outcomes from metrics) completed with what k6's log carried for it (`tagged`: the
 * lines name their plan, several plans ran in one process): the carried judgements (with the threshold failures
 * no carried failure explains), the timeline, the key's state, notes, the stop reason and a share's requests.
 * Unchanged when the log carried no judgement for it.
 */
export function completeReport(
  report: LoadReport,
  lines: readonly string[],
  tagged: boolean,
  redact: (s: string) => string = (s) => s,
): LoadReport {
  const c = readCarriage(lines, tagged ? report.plan : undefined, report.share ? report.share.segment : undefined);
  if (!c.judgements.length) return report;
  const startedAt = Date.parse(report.startedAt);
  const fromThresholds = report.judgements.filter(
    (j) => THRESHOLD_TITLES.indexOf(j.title) >= 0 && !c.judgements.some((v) => v.outcome === 'fail' && v.requirement === j.requirement),
  );
  const complete = buildLoadReport(
    {
      scenario: report.scenario,
      plan: report.plan,
      engine: report.engine,
      target: report.target,
      startedAt,
      endedAt: Date.parse(report.endedAt),
      requestsSent: report.requestsSent,
      judgements: c.judgements.concat(fromThresholds),
      timeline: c.timeline.map((p) => Object.assign({}, p, { t: Math.max(0, p.t - startedAt) })),
      key: c.key,
      stoppedBecause: c.stopped,
      notes: c.notes,
      earlierRequests: report.earlierRequests,
    },
    redact,
  );
  if (report.share) complete.share = Object.assign({}, report.share, { samples: c.samples || [] });
  return complete;
}
