/**
 * Rate-limit scenario reports for the report tests, made by the real core:
 * synthetic samples of a plan's key (by default free, 60 requests per minute)
 * judged by the real rules (src/core/sections/rate-limit-load) and folded into a LoadReport by
 * buildLoadReport — so their judgements, evidence (`at.request`) and timelines
 * (`seq`) have exactly the shape the engines write.
 */
import { buildLoadReport, type LoadReport, type TimelinePoint } from '../../src/core/load-report.ts';
import type { Judgement } from '../../src/core/sections/define.ts';
import { judgeCeiling } from '../../src/core/sections/rate-limit-load/ceiling.ts';
import { judgeRecovery } from '../../src/core/sections/rate-limit-load/recovery.ts';
import { judgeRefusedNotStored } from '../../src/core/sections/rate-limit-load/nothing-stored.ts';
import { judgeResponses } from '../../src/core/sections/rate-limit-load/samples.ts';
import type { PlanName } from '../../src/core/plans.ts';
import type { JudgeOptions, Sample } from '../../src/core/sample.ts';

export const BASE_URL = 'https://api.animal-store.example/v1';
export const LOAD_START = Date.parse('2025-06-01T10:01:00.000Z');
const LIMIT = 60;
const RESET = Math.floor(LOAD_START / 1000) + 60;

/** A plan's key as the fixtures load it: its limits, and the time between two requests of its ceiling phase. */
export interface PlanShape {
  plan: PlanName;
  limit: number;
  perDay: number;
  stepMs: number;
}

export const FREE: PlanShape = { plan: 'free', limit: LIMIT, perDay: 1000, stepMs: 100 };

/** A plan's shape; its ceiling phase reaches the limit within 40 s, well inside one window. */
export const planShape = (plan: PlanName, limit: number, perDay: number): PlanShape => ({
  plan,
  limit,
  perDay,
  stepMs: Math.min(100, Math.floor(40_000 / limit)),
});

export const judgeOptions = (p: PlanShape = FREE): JudgeOptions => ({
  plan: p.plan,
  limit: p.limit,
  perDay: p.perDay,
  windowMs: 60_000,
  dayMs: 86_400_000,
  toleranceMs: 2_000,
  sustainedFraction: 0.8,
  overloadFactor: 3,
  requestUrl: `${BASE_URL}/pets?limit=1`,
});

export interface CeilingShape {
  /** The request (0-based) answered 429; none when the server never throttles. */
  throttleAt?: number;
  /** Requests sent when the server never throttles. */
  cap?: number;
  /** Send one probe after the Retry-After (the recovery scenario). */
  probe?: boolean;
  /** The body of the 429. */
  body429?: string;
}

const rateHeaders = (limit: number, remaining: number, reset: number, t: number): Record<string, string> => ({
  'content-type': 'application/json',
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(reset),
  date: new Date(t).toUTCString(),
});

/** The samples of a ceiling phase, `p.stepMs` apart: Remaining falls by one, then a 429 at `throttleAt`. */
export function ceilingSamples(shape: CeilingShape = {}, p: PlanShape = FREE): Sample[] {
  const { throttleAt, cap = p.limit + 10, probe = false } = shape;
  const out: Sample[] = [];
  const count = throttleAt === undefined ? cap : throttleAt + 1;
  for (let i = 0; i < count; i++) {
    const sentAt = LOAD_START + i * p.stepMs;
    const t = sentAt + 20;
    if (i === throttleAt) {
      const headers = { ...rateHeaders(p.limit, 0, RESET, t), 'retry-after': String(RESET - Math.floor(t / 1000)) };
      const body = shape.body429 ?? '{"code":"rate_limited","message":"Too many requests","status":429}';
      out.push({ seq: i, phase: 'ceiling', sentAt, t, status: 429, headers, body });
    } else
      out.push({
        seq: i,
        phase: 'ceiling',
        sentAt,
        t,
        status: 200,
        headers: rateHeaders(p.limit, Math.max(0, p.limit - 1 - i), RESET, t),
        body: '[]',
      });
  }
  if (probe && throttleAt !== undefined) {
    // writes allowed: the request beyond the limit is a POST, and the probe its read-back on the page of its status
    Object.assign(out[throttleAt], { op: 'createPet', path: '/pets', name: REFUSED_NAME });
    const sentAt = RESET * 1000 + 500;
    const headers = rateHeaders(p.limit, p.limit - 1, RESET + 60, sentAt + 20);
    const page = { status: 'sold', size: 12, limit: 100, listed: [] };
    out.push({
      seq: count,
      phase: 'probe',
      sentAt,
      t: sentAt + 20,
      status: 200,
      headers,
      body: '[]',
      path: '/pets?status=sold&limit=100',
      page,
    });
  }
  return out;
}

/** The name of the POST a recovery fixture sends at the limit (refused with 429, read back by its probe). */
export const REFUSED_NAME = 'animal-store-conformance-load-fixture';

/**
 * A LoadReport of the ceiling or recovery scenario, judged by the real rules
 * (`responsesOnly`: by the per-response rules alone, as a scenario cut short
 * before its own judgement).
 */
export function realLoadReport(
  scenario: 'ceiling' | 'recovery',
  samples: Sample[],
  { stoppedBecause = 'done', p = FREE, responsesOnly = false }: { stoppedBecause?: string; p?: PlanShape; responsesOnly?: boolean } = {},
): LoadReport {
  const o = judgeOptions(p);
  const own: Judgement[] = responsesOnly
    ? []
    : scenario === 'ceiling'
      ? judgeCeiling(samples, o, stoppedBecause)
      : judgeCeiling(samples, o).concat(judgeRecovery(samples, o), judgeRefusedNotStored(samples, { ...o, writes: true }));
  const endedAt = Math.max(...samples.map((s) => s.t)) + 10;
  return buildLoadReport({
    scenario,
    plan: p.plan,
    engine: 'node',
    target: BASE_URL,
    startedAt: LOAD_START,
    endedAt,
    requestsSent: samples.length,
    judgements: own.concat(judgeResponses(samples, o)),
    samples,
    key: { lastResponseAt: endedAt },
    stoppedBecause,
  });
}

/** A server that throttles exactly at the plan's limit, and lets the key back in after Retry-After. */
export const passingLoad = (p: PlanShape = FREE): LoadReport[] => [
  realLoadReport('ceiling', ceilingSamples({ throttleAt: p.limit }, p), { p }),
  realLoadReport('recovery', ceilingSamples({ throttleAt: p.limit, probe: true }, p), { p }),
];

/** A server that throttles at request #51 while Remaining still says 10 (on a free key; more on a larger plan): RL-NOT-EARLY fails there. */
export const EARLY_REQUEST = 51;
export function earlyThrottleLoad(p: PlanShape = FREE): LoadReport[] {
  return [realLoadReport('ceiling', ceilingSamples({ throttleAt: EARLY_REQUEST - 1 }, p), { stoppedBecause: 'first 429', p })];
}

/** A server that never throttles: the ceiling runs to its cap without a 429. */
export const unthrottledLoad = (): LoadReport[] => [
  realLoadReport('ceiling', ceilingSamples({ cap: 70 }), { stoppedBecause: 'request cap reached (70)' }),
];

/** A recovery whose probe, sent after the Retry-After, is still answered 429: RL-RECOVERY fails on that probe. */
export function stillThrottledRecovery(): LoadReport {
  const samples = ceilingSamples({ throttleAt: LIMIT, probe: true });
  const probe = samples[samples.length - 1];
  probe.status = 429;
  probe.headers = { ...probe.headers, 'x-ratelimit-remaining': '0', 'retry-after': '30' };
  probe.body = '{"code":"rate_limited","message":"Too many requests","status":429}';
  return realLoadReport('recovery', samples);
}

/** A recovery scenario whose timeline holds two requests 3 ms apart (a chart that once labelled every tick "0.00"). */
export function twoRequestRecovery(): LoadReport {
  return {
    ...passingLoad()[1],
    timeline: [
      { t: 0, seq: 1, status: 429, remaining: 0, limit: LIMIT, retryAfter: 0 },
      { t: 3, seq: 2, status: 200, remaining: 59, limit: LIMIT },
    ],
  };
}

const LONG_LIMIT = 300;
const LONG_WINDOW = 1000;
/** A request the judgement below points at (a 2xx among thousands). */
export const NAMED = 1234;

/** A daily-like scenario: 270 requests a window for `windows` windows, Remaining falling and reset each window, a 429 ending every fourth window. */
export function longRun(windows = 13): LoadReport {
  const timeline: TimelinePoint[] = [];
  let seq = 0;
  for (let w = 0; w < windows; w++)
    for (let i = 0; i < 270; i++) {
      const t = w * LONG_WINDOW + Math.round((i * LONG_WINDOW) / 270);
      const reset = 1_900_000_000 + w + 1;
      const last = w % 4 === 3 && i === 269;
      timeline.push(
        last
          ? { t, seq: ++seq, status: 429, remaining: 0, limit: LONG_LIMIT, reset, retryAfter: 1 }
          : { t, seq: ++seq, status: 200, remaining: LONG_LIMIT - 1 - i, limit: LONG_LIMIT, reset },
      );
    }
  return {
    scenario: 'daily',
    plan: 'pro',
    engine: 'node',
    target: 'http://127.0.0.1:4010/v1',
    startedAt: '2030-01-01T12:00:00.000Z',
    endedAt: '2030-01-01T12:00:13.000Z',
    verdict: 'fail',
    requestsSent: timeline.length,
    judgements: [
      {
        requirement: 'RL-DAILY-QUOTA',
        outcome: 'fail',
        title: 'Daily quota exceeded',
        message: 'a request the chart marks',
        evidence: { at: { request: NAMED, ms: timeline[NAMED - 1]?.t ?? 0 } },
      },
    ],
    timeline,
    key: {},
  };
}
