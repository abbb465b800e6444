/**
 * The scenarios' load shapes, defined once: their phases (and, for k6, their
 * executor), their caps — which the dry run prints as each scenario's cost —
 * and which judgements they make. What each scenario is (its question, its
 * requirements) is the core's catalogue (src/core/scenarios.ts). The k6 scripts
 * and the Node engine both build their runs from this table.
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import { judgeCeiling } from '../../src/core/sections/rate-limit-load/ceiling.ts';
import { judgeRecovery } from '../../src/core/sections/rate-limit-load/recovery.ts';
import { judgeResponses } from '../../src/core/sections/rate-limit-load/samples.ts';
import { judgeDaily } from '../../src/core/sections/rate-limit-load/daily.ts';
import { judgeRefusedNotStored, postsAtLimit } from '../../src/core/sections/rate-limit-load/nothing-stored.ts';
import { judgeSustained, judgeWindow } from '../../src/core/sections/rate-limit-load/window.ts';
import { SCENARIO_INFO, type ScenarioInfo } from '../../src/core/scenarios.ts';
import { RATE_LIMIT_LOAD } from '../../src/core/sections/rate-limit-load/requirements.ts';
import { CeilingPhase, PacedPhase, PreflightPhase, ProbePhase } from './scenario-phases.ts';
import { ScenarioRun, type Caps, type Judge, type Phase } from './runner.ts';
import type { Sample, ScenarioName, ScenarioOptions } from './types.ts';

/** Which phases to build: all (Node), or k6's split into setup() and the VU code. */
export type Part = 'all' | 'setup' | 'main';

export interface Pace {
  perWindow: number;
  windows: number;
}

export interface ScenarioDef extends ScenarioInfo {
  /** Printed before an opt-in scenario runs. */
  warning?: (o: ScenarioOptions) => string;
  /** The constant arrival rate of the measured phase (arrival-rate scenarios only). */
  pace?: (o: ScenarioOptions) => Pace;
  caps: (o: ScenarioOptions) => Caps;
  /** Titles of the skips that say the load generator fell short of the scenario's rate (a busy client, not the server). */
  shortfall: readonly string[];
  phases: (o: ScenarioOptions, part: Part) => Phase[];
  judge: Judge;
  /** Its requests interleave the operations (load/lib/operations.ts); else every one is `GET /pets?limit=1`. */
  mixed?: boolean;
}

const SLACK_MS = 30000;
const sustainedPace = (o: ScenarioOptions): Pace => ({
  perWindow: Math.max(1, Math.floor(o.limit * o.sustainedFraction)),
  windows: o.sustainedWindows,
});
const overloadPace = (o: ScenarioOptions): Pace => ({ perWindow: Math.ceil(o.limit * o.overloadFactor), windows: o.overloadWindows });
const dailyPace = (o: ScenarioOptions): Pace => {
  const perWindow = Math.max(1, Math.floor(o.limit * o.sustainedFraction));
  return { perWindow, windows: Math.ceil(((o.perDay || 0) + 2 * o.limit) / perWindow) + 1 };
};

/** Preflight in k6's setup(), the measured phase in the VU; both in Node. */
function split(part: Part, pre: () => Phase[], main: () => Phase[]): Phase[] {
  if (part === 'setup') return pre();
  if (part === 'main') return main();
  return pre().concat(main());
}

const pacedCaps = (o: ScenarioOptions, p: Pace): Caps => ({
  maxRequests: Math.ceil(p.perWindow * p.windows) + 3,
  maxDurationMs: o.windowMs * (p.windows + 1) + o.maxWaitMs + SLACK_MS,
});

// A third window: a first request refused 429 is tried again after a full window without sending (CeilingPhase).
const ceilingCaps = (o: ScenarioOptions): Caps => ({ maxRequests: 2 * o.limit + 4, maxDurationMs: 3 * o.windowMs + o.jitterMs + SLACK_MS });
/** The ceiling alone, with writes: the read-back of a POST refused at the limit, once its Retry-After has passed. */
const withReadBack = (o: ScenarioOptions, c: Caps): Caps =>
  postsAtLimit(o) ? { maxRequests: c.maxRequests + 1, maxDurationMs: c.maxDurationMs + o.maxWaitMs + o.jitterMs } : c;

/**
 * The ceiling's skips when the limit was not reached: within a window at the latency the client saw
 * (src/core/sections/rate-limit-load/in-flight.ts), or at all — a client paused longer than the window between its requests.
 */
const TITLES = {
  ceiling: RATE_LIMIT_LOAD.entries['RL-CEILING-429'].titles,
  sustained: RATE_LIMIT_LOAD.entries['RL-SUSTAINED-BELOW-CEILING'].titles,
  overload: RATE_LIMIT_LOAD.entries['RL-WINDOW-PER-MINUTE'].titles,
  daily: RATE_LIMIT_LOAD.entries['RL-DAILY-QUOTA'].titles,
  recovery: RATE_LIMIT_LOAD.entries['RL-RECOVERY'].titles,
};
/**
 * A ceiling falls short when the client could not reach the limit fast enough, and when the headers cannot say which
 * request is beyond the limit and the POST sent after the limit's successes by count met a turned window (a ceiling
 * that took much of a window: a slow client on the embedded server) — its refused create was never exercised.
 */
const CEILING_SHORT = [
  TITLES.ceiling['too-slow'],
  TITLES.ceiling['not-reached'],
  RATE_LIMIT_LOAD.entries['RL-429-NOTHING-STORED'].titles.unpredictable,
];

/** Every scenario also judges every response it got by the per-response rules (the conformance checks' rules). */
function withResponses(judge: Judge): Judge {
  return (samples: readonly Sample[], o: ScenarioOptions, stopped: string | undefined): Judgement[] =>
    judge(samples, o, stopped).concat(judgeResponses(samples, o));
}

export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioDef>> = {
  ceiling: {
    ...SCENARIO_INFO.ceiling,
    caps: (o) => withReadBack(o, ceilingCaps(o)),
    shortfall: CEILING_SHORT,
    mixed: true,
    phases: (_o, part) =>
      split(
        part,
        () => [],
        () => [new CeilingPhase(), new ProbePhase({ readBackOnly: true })],
      ),
    judge: withResponses((samples, o, stopped) => judgeCeiling(samples, o, stopped).concat(judgeRefusedNotStored(samples, o))),
  },
  recovery: {
    ...SCENARIO_INFO.recovery,
    caps: (o) => {
      const c = ceilingCaps(o);
      return { maxRequests: c.maxRequests + 1, maxDurationMs: c.maxDurationMs + o.maxWaitMs + o.jitterMs };
    },
    shortfall: [...CEILING_SHORT, TITLES.recovery['not-tried']],
    mixed: true,
    phases: (_o, part) =>
      split(
        part,
        () => [],
        () => [new CeilingPhase(), new ProbePhase()],
      ),
    judge: withResponses((samples, o, stopped) =>
      judgeCeiling(samples, o, stopped).concat(judgeRecovery(samples, o, stopped), judgeRefusedNotStored(samples, o)),
    ),
  },
  sustained: {
    ...SCENARIO_INFO.sustained,
    pace: sustainedPace,
    caps: (o) => pacedCaps(o, sustainedPace(o)),
    shortfall: [TITLES.sustained['rate-not-reached']],
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...sustainedPace(o), gate: true })],
      ),
    judge: withResponses(judgeSustained),
  },
  overload: {
    ...SCENARIO_INFO.overload,
    pace: overloadPace,
    caps: (o) => pacedCaps(o, overloadPace(o)),
    shortfall: [TITLES.overload['not-reached']],
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...overloadPace(o), gate: true })],
      ),
    judge: withResponses(judgeWindow),
  },
  daily: {
    ...SCENARIO_INFO.daily,
    warning: (o) => {
      const p = dailyPace(o);
      const ms = p.windows * o.windowMs;
      const span = ms < 120000 ? `${Math.ceil(ms / 1000)} s` : `${Math.round(ms / 60000)} minutes`;
      return `The daily scenario sends about ${(o.perDay || 0) + 1} requests over up to ${span} and uses up the key's whole daily quota of ${o.perDay}: the key stays refused until its day resets. Use a dedicated test key.`;
    },
    pace: dailyPace,
    caps: (o) => {
      const p = dailyPace(o);
      return { maxRequests: (o.perDay || 0) + 2 * o.limit + 10, maxDurationMs: o.windowMs * (p.windows + 1) + o.maxWaitMs + SLACK_MS };
    },
    shortfall: [TITLES.daily['not-reached']],
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...dailyPace(o), name: 'daily', gate: true, untilDaily: true })],
      ),
    judge: withResponses(judgeDaily),
  },
};

/**
 * The skip that says a run's client fell short of its scenario's rate — a MUST not judged for lack of load, on a
 * busy machine rather than because of the server — when nothing else was found (no failure, warning or error):
 * such a run may be tried again, the second attempt's report replacing it.
 */
export function shortfallOf(name: ScenarioName, judgements: readonly Judgement[]): Judgement | undefined {
  if (judgements.some((j) => j.outcome === 'fail' || j.outcome === 'warn' || j.outcome === 'error')) return undefined;
  const titles = SCENARIOS[name].shortfall;
  return judgements.find((j) => j.outcome === 'skip' && titles.indexOf(j.title) >= 0);
}

/** What a scenario costs the key: requests and time, typically and at most (its caps). The dry run prints these. */
export interface Cost {
  typicalRequests: number;
  maxRequests: number;
  typicalMs: number;
  maxMs: number;
  /** The ceiling's requests in flight at most (more on a slower server, never more than Remaining allows). */
  maxInFlight?: number;
}

export function cost(name: ScenarioName, o: ScenarioOptions): Cost {
  const caps = SCENARIOS[name].caps(o);
  const L = o.limit;
  const W = o.windowMs;
  const typical: Record<ScenarioName, [number, number]> = {
    // the limit and the 429, sent as fast as the server answers (within half a window: as many in flight as its latency needs);
    // with writes, the refused POST read back after Retry-After
    ceiling: postsAtLimit(o) ? [L + 2, W + o.jitterMs] : [L + 1, W / 2],
    // the same, then Retry-After (at most the rest of the window) and one probe
    recovery: [L + 2, W + o.jitterMs],
    // a preflight, then the pace for its windows (after a fresh window if the key was used)
    sustained: [Math.floor(L * o.sustainedFraction) * o.sustainedWindows + 1, (o.sustainedWindows + 1) * W],
    // a preflight, then about the limit in each window that the pace crosses (the rest of the offered slots fall in Retry-After pauses)
    overload: [(o.overloadWindows + 1) * (L + 1) + 1, (o.overloadWindows + 1) * W],
    // a preflight, then the pace until the quota is spent (after a fresh quota day if the key was used)
    daily: [(o.perDay || 0) + 2, (Math.ceil((o.perDay || 0) / dailyPace(o).perWindow) + 1) * W],
  };
  const t = typical[name];
  return {
    typicalRequests: Math.min(t[0], caps.maxRequests),
    maxRequests: caps.maxRequests,
    typicalMs: Math.min(t[1], caps.maxDurationMs),
    maxMs: caps.maxDurationMs,
    ...(name === 'ceiling' || name === 'recovery' ? { maxInFlight: o.maxInFlight } : {}),
  };
}

/** A fresh run of a scenario (or of its k6 setup / VU part). */
export function createRun(name: ScenarioName, o: ScenarioOptions, part: Part = 'all'): ScenarioRun {
  const def = SCENARIOS[name];
  const caps = def.caps(o);
  return new ScenarioRun(name, o, { phases: def.phases(o, part), caps, judge: def.judge, mixed: def.mixed });
}
