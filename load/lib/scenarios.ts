/**
 * The scenarios, defined once: the question each answers, its load shape (phases
 * and, for k6, its executor), its caps and its verdicts. The k6 scripts and the
 * Node engine both build their runs from this table.
 */
import { CeilingPhase, PacedPhase, PreflightPhase, ProbePhase } from './phases.ts';
import { ScenarioRun, type Caps, type Judge, type Phase } from './runner.ts';
import type { ScenarioName, ScenarioOptions } from './types.ts';
import { judgeRecovery } from './verdicts.ts';
import { judgeCeiling } from './verdicts-ceiling.ts';
import { judgeDaily, judgeSustained, judgeWindow } from './verdicts-window.ts';

/** Which phases to build: all (Node), or k6's split into setup() and the VU code. */
export type Part = 'all' | 'setup' | 'main';

export interface Pace {
  perWindow: number;
  windows: number;
}

export interface ScenarioDef {
  name: ScenarioName;
  /** The question the scenario answers (also the header comment of its k6 script). */
  question: string;
  requirements: readonly string[];
  /** Run by default (the daily scenario is opt-in). */
  defaultOn: boolean;
  /** One VU, one iteration; never distributed (its verdicts need the whole sequence on one key). */
  singleVu: boolean;
  /** Printed before an opt-in scenario runs. */
  warning?: (o: ScenarioOptions) => string;
  /** The constant arrival rate of the measured phase (arrival-rate scenarios only). */
  pace?: (o: ScenarioOptions) => Pace;
  caps: (o: ScenarioOptions) => Caps;
  phases: (o: ScenarioOptions, part: Part) => Phase[];
  judge: Judge;
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

export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioDef>> = {
  ceiling: {
    name: 'ceiling',
    question:
      "Does the first request beyond the plan's limit get a well-formed 429 exactly when X-RateLimit-Remaining said it would — and never earlier?",
    requirements: [
      'RL-CEILING-429',
      'RL-NOT-EARLY',
      'RL-LIMIT-PLAN',
      'RL-REMAINING-DECREMENTS',
      'RL-429-RETRY-AFTER',
      'RL-429-REMAINING-ZERO',
      'RL-429-ERROR-BODY',
      'RL-HEADERS-PRESENT',
      'RL-HEADERS-INTEGER',
      'RL-RESET-UNIX-SECONDS',
      'RL-RETRY-AFTER-CONSISTENT',
    ],
    defaultOn: true,
    singleVu: true,
    caps: ceilingCaps,
    phases: (_o, part) =>
      split(
        part,
        () => [],
        () => [new CeilingPhase()],
      ),
    judge: judgeCeiling,
  },
  recovery: {
    name: 'recovery',
    question:
      'After the 429, does waiting exactly what Retry-After asks (plus a little jitter) bring the key back — without ever sending early?',
    requirements: ['RL-RECOVERY', 'RL-CEILING-429', 'RL-NOT-EARLY', 'RL-429-RETRY-AFTER', 'RL-RETRY-AFTER-CONSISTENT'],
    defaultOn: true,
    singleVu: true,
    caps: (o) => {
      const c = ceilingCaps(o);
      return {
        maxRequests: c.maxRequests + o.backoff.attempts + 1,
        maxDurationMs: c.maxDurationMs + o.maxWaitMs + o.backoff.attempts * o.backoff.capMs,
      };
    },
    phases: (_o, part) =>
      split(
        part,
        () => [],
        () => [new CeilingPhase(), new ProbePhase()],
      ),
    judge: (samples, o, stopped) => judgeCeiling(samples, o, stopped).concat(judgeRecovery(samples, o, stopped)),
  },
  sustained: {
    name: 'sustained',
    question: "Is a steady rate just below the plan's ceiling, held for two windows (so a whole fixed window lies inside), ever throttled?",
    requirements: ['RL-SUSTAINED-BELOW-CEILING'],
    defaultOn: true,
    singleVu: false,
    pace: sustainedPace,
    caps: (o) => pacedCaps(o, sustainedPace(o)),
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...sustainedPace(o), gate: true })],
      ),
    judge: judgeSustained,
  },
  overload: {
    name: 'overload',
    question:
      'Well above the ceiling, do successes in any window stay within the limit — is the limit really per minute, not per shorter window — while every Retry-After is obeyed?',
    requirements: ['RL-WINDOW-PER-MINUTE', 'RL-NOT-EARLY', 'RL-429-RETRY-AFTER'],
    defaultOn: true,
    singleVu: false,
    pace: overloadPace,
    caps: (o) => pacedCaps(o, overloadPace(o)),
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...overloadPace(o), gate: true })],
      ),
    judge: judgeWindow,
  },
  daily: {
    name: 'daily',
    question: "Is the per-day quota enforced at the plan's number? (Opt-in: it spends the key's whole daily quota.)",
    requirements: ['RL-DAILY-QUOTA'],
    defaultOn: false,
    singleVu: false,
    warning: (o) => {
      const p = dailyPace(o);
      const minutes = Math.round((p.windows * o.windowMs) / 60000);
      return `The daily scenario sends about ${(o.perDay || 0) + 1} requests over up to ${minutes} minutes and uses up the key's whole daily quota of ${o.perDay}: the key stays refused until its day resets. Use a dedicated test key.`;
    },
    pace: dailyPace,
    caps: (o) => {
      const p = dailyPace(o);
      return { maxRequests: (o.perDay || 0) + 2 * o.limit + 10, maxDurationMs: o.windowMs * (p.windows + 1) + o.maxWaitMs + SLACK_MS };
    },
    phases: (o, part) =>
      split(
        part,
        () => [new PreflightPhase()],
        () => [new PacedPhase({ ...dailyPace(o), name: 'daily', gate: true, untilDaily: true })],
      ),
    judge: judgeDaily,
  },
};

export const DEFAULT_SCENARIOS: readonly ScenarioName[] = (Object.keys(SCENARIOS) as ScenarioName[]).filter((k) => SCENARIOS[k].defaultOn);

/** A fresh run of a scenario (or of its k6 setup / VU part). */
export function createRun(name: ScenarioName, o: ScenarioOptions, part: Part = 'all'): ScenarioRun {
  const def = SCENARIOS[name];
  const caps = def.caps(o);
  return new ScenarioRun(name, o, def.phases(o, part), caps, def.judge);
}
