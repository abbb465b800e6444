/**
 * The report of a rate-limit scenario, the same from both engines (the Node
 * engine writes it directly; k6's handleSummary writes its outcomes and the
 * k6 engine completes it from k6's log, load/lib/k6-log.ts): its judgements, a compact per-request timeline, and the key's state
 * at the end, which the orchestrator reads before it sends anything else on the
 * key. The certificate's writers read this shape too; its JUnit XML and console
 * summary are load/lib/report-text.ts. Pure (bundled for k6).
 */
import { foldJudgements } from './fold-judgements.ts';
import type { Judgement } from './sections/define.ts';
import type { PlanName } from './plans.ts';
import { levelOf } from './catalogue.ts';
import { header } from './ratelimit.ts';
import type { Sample } from './sample.ts';
import { SCENARIO_INFO, type ScenarioName } from './scenarios.ts';
import { timelinePoint } from './sections/rate-limit-load/signals.ts';
import type { TimelinePoint } from './timeline.ts';

export type { TimelinePoint };

/** Requests of a scenario by kind of status: 2xx, 429, anything else (a transport failure included). */
export interface TimelineTotals {
  requests: number;
  ok: number;
  tooMany: number;
  other: number;
}

/** What the key went through, so that nothing is sent on it too early afterwards. */
export interface KeyState {
  /** Epoch ms before which no request may be sent on the key (a Retry-After plus jitter, a backoff). */
  blockedUntil?: number;
  /** Epoch ms of the last response on the key. */
  lastResponseAt?: number;
  /** The run stopped because a wait was longer than allowed (--max-wait-ms): how long it asked for, in ms. */
  waitRefusedMs?: number;
  /** Mean time the key's last scenario waited for a response, ms: what sizes the next one's concurrency (k6 VUs). */
  latencyMs?: number;
}

/** pass: every judged requirement held; fail: a MUST failed; incomplete: none failed but a MUST of the scenario was not judged. */
export type LoadVerdict = 'pass' | 'fail' | 'incomplete';

export interface LoadReport {
  scenario: ScenarioName;
  plan: PlanName;
  engine: 'node' | 'k6';
  /** Base URL of the target (never the key). */
  target: string;
  startedAt: string;
  endedAt: string;
  verdict: LoadVerdict;
  requestsSent: number;
  judgements: Judgement[];
  timeline: TimelinePoint[];
  /** Present when `timeline` keeps only what its chart draws (a certificate's, src/results/chart-timeline.ts): the requests it stands for, by kind. */
  timelineTotals?: TimelineTotals;
  key: KeyState;
  /** Why the run stopped, in words (cap reached, done, unreachable…). */
  stoppedBecause?: string;
  notes?: string[];
  /** A share of a distributed run (k6 execution segment): the merge step judges the whole. */
  share?: Share;
  /**
   * The daily scenario: requests the run sent on the key before it (conformance, exploration, earlier scenarios),
   * which may have spent part of the quota day it judged (RL-DAILY-QUOTA's judgement says how it counted them).
   */
  earlierRequests?: number;
}

/** What the merge step needs of a share: its execution segment, the scenario's inputs, and every request it sent. */
export interface Share {
  /** k6's execution segment of the instance ("0:1/2"); empty when k6 ran it whole. */
  segment: string;
  inputs: ShareInputs;
  samples: CompactSample[];
}

/** The inputs the scenario was judged with (the same on every share of one run). */
export interface ShareInputs {
  perMinute: number;
  perDay?: number;
  windowMs: number;
  dayMs: number;
  maxWaitMs: number;
  requestUrl?: string;
  dedicatedKey?: boolean;
  earlierRequests?: number;
  freshQuotaDay?: boolean;
}

/**
 * A sample as a share report carries it, for the merge step: [seq, phase, sentAt,
 * t, status, limit, remaining, reset, retryAfter, date, body, error] — the
 * rate-limit headers, and the body of a response that is no success (a 429's
 * Error) cut at COMPACT_BODY_CHARS, or the transport failure.
 */
export type CompactSample = [number, string, number, number, number, string?, string?, string?, string?, string?, string?, string?];

export const COMPACT_BODY_CHARS = 2048;

const COMPACT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'date'];

/** A share's sample in its compact form. */
export function compactSample(s: Sample): CompactSample {
  const h = COMPACT_HEADERS.map((n) => header(s.headers, n));
  const body = s.status >= 200 && s.status < 300 ? undefined : (s.body || '').slice(0, COMPACT_BODY_CHARS);
  const c: CompactSample = [s.seq, s.phase, s.sentAt, s.t, s.status, h[0], h[1], h[2], h[3], h[4], body || undefined, s.error];
  while (c.length > 5 && c[c.length - 1] === undefined) c.pop();
  return c;
}

/** The sample a compact one stands for (only the headers the rate-limit rules read). */
export function expandSample(c: CompactSample): Sample {
  const headers: Record<string, string> = {};
  COMPACT_HEADERS.forEach((n, i) => {
    const v = c[5 + i];
    if (typeof v === 'string') headers[n] = v;
  });
  return {
    seq: c[0],
    phase: c[1] as Sample['phase'],
    sentAt: c[2],
    t: c[3],
    status: c[4],
    headers,
    ...(typeof c[10] === 'string' ? { body: c[10] } : {}),
    ...(typeof c[11] === 'string' ? { error: c[11] } : {}),
  };
}

export const TIMELINE_MAX_POINTS = 3000;

export function reportBaseName(scenario: ScenarioName, plan: PlanName): string {
  return `load-${scenario}-${plan}`;
}

/** The timeline, thinned evenly to at most `max` points; every non-2xx point is kept. */
export function timeline(samples: readonly Sample[], startedAt: number, max = TIMELINE_MAX_POINTS): TimelinePoint[] {
  const sorted = samples.slice().sort((a, b) => a.t - b.t);
  let keep = sorted;
  if (sorted.length > max) {
    const special = sorted.filter((s) => s.status < 200 || s.status >= 300);
    const ok = sorted.filter((s) => s.status >= 200 && s.status < 300);
    const room = Math.max(0, max - special.length);
    const step = ok.length / Math.max(1, room);
    const thinned: Sample[] = [];
    for (let i = 0; i < room && Math.floor(i * step) < ok.length; i++) thinned.push(ok[Math.floor(i * step)]);
    keep = special
      .slice(0, max)
      .concat(thinned)
      .sort((a, b) => a.t - b.t);
  }
  return keep.map((s) => {
    const p = timelinePoint(s, startedAt);
    p.seq = s.seq + 1;
    return p;
  });
}

/** The scenario's verdict from its judgements. */
export function loadVerdict(scenario: ScenarioName, judgements: readonly Judgement[]): LoadVerdict {
  if (judgements.some((j) => j.outcome === 'fail')) return 'fail';
  const judged: Record<string, boolean> = {};
  for (const j of judgements) if (j.outcome === 'pass' || j.outcome === 'warn') judged[j.requirement] = true;
  const own = SCENARIO_INFO[scenario].requirements.filter((id) => levelOf(id) === 'MUST' && judgements.some((j) => j.requirement === id));
  if (!own.length || own.some((id) => !judged[id])) return 'incomplete';
  return 'pass';
}

export interface LoadReportInput {
  scenario: ScenarioName;
  plan: PlanName;
  engine: 'node' | 'k6';
  target: string;
  startedAt: number;
  endedAt: number;
  requestsSent: number;
  judgements: Judgement[];
  samples?: readonly Sample[];
  /** A timeline already built (k6: read back from k6's log). */
  timeline?: TimelinePoint[];
  key?: KeyState;
  stoppedBecause?: string;
  notes?: string[];
  earlierRequests?: number;
}

const redactEvidence = (j: Judgement, redact: (s: string) => string): Judgement => JSON.parse(redact(JSON.stringify(j))) as Judgement;

export function buildLoadReport(i: LoadReportInput, redact: (s: string) => string = (s) => s): LoadReport {
  const judgements = foldJudgements(i.judgements).map((j) => redactEvidence(j, redact));
  const r: LoadReport = {
    scenario: i.scenario,
    plan: i.plan,
    engine: i.engine,
    target: redact(i.target),
    startedAt: new Date(i.startedAt).toISOString(),
    endedAt: new Date(i.endedAt).toISOString(),
    verdict: loadVerdict(i.scenario, judgements),
    requestsSent: i.requestsSent,
    judgements,
    timeline: i.timeline ? i.timeline : i.samples ? timeline(i.samples, i.startedAt) : [],
    key: i.key || {},
  };
  if (i.stoppedBecause) r.stoppedBecause = redact(i.stoppedBecause);
  if (i.notes && i.notes.length) r.notes = i.notes.map(redact);
  if (i.earlierRequests !== undefined) r.earlierRequests = i.earlierRequests;
  return r;
}
