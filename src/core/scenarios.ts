/**
 * The rate-limit scenarios as the rest of the suite knows them: their names, the
 * question each answers, the requirements each judges, and the two sets a run
 * picks from (the quick set of a nightly certification, the full set that can
 * certify every per-minute MUST). Their load shapes and caps live in
 * load/lib/load-shapes.ts. Pure (bundled for k6).
 */
import type { Judgement, JudgeInit } from './sections/define.ts';
import { RATE_LIMIT_HEADERS } from './sections/rate-limit-headers/requirements.ts';
import { RATE_LIMIT_LOAD, RUN_TITLES, SCENARIO_TITLES } from './sections/rate-limit-load/requirements.ts';

export type ScenarioName = 'ceiling' | 'recovery' | 'sustained' | 'overload' | 'daily';

type HeaderEntries = typeof RATE_LIMIT_HEADERS.entries;
type LoadEntries = typeof RATE_LIMIT_LOAD.entries;
/** The ids of a section's entries that have every title of T. */
type WithTitles<E, T> = { [K in keyof E]: E[K] extends { titles: { readonly [k in keyof T]: string } } ? K : never }[keyof E] & string;

/** A requirement a scenario may judge: its entry has the titles the k6 engine gives any of them (SCENARIO_TITLES). */
export type ScenarioRequirementId = WithTitles<HeaderEntries, typeof SCENARIO_TITLES> | WithTitles<LoadEntries, typeof SCENARIO_TITLES>;
/** A scenario's own requirement (the first it lists): a suite error of the whole run is said of it (RUN_TITLES). */
export type RunRequirementId = WithTitles<LoadEntries, typeof RUN_TITLES>;

export const SCENARIO_NAMES: readonly ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload', 'daily'];

export interface ScenarioInfo {
  name: ScenarioName;
  /** The question the scenario answers (also the header comment of its k6 script). */
  question: string;
  /** Its own requirement first. */
  requirements: readonly [RunRequirementId, ...ScenarioRequirementId[]];
  /** Spends the key's whole daily quota: run only when explicitly allowed. */
  optIn: boolean;
  /** One VU, one iteration: its judgements need the whole sequence of one key. */
  singleVu: boolean;
  /** Judged only on a key nothing else uses (a key per plan, plans side by side). */
  dedicatedKeyRequirements?: readonly ScenarioRequirementId[];
}

/** What every response of every scenario is judged on (the per-response rules). */
const RESPONSE_RULES: readonly ScenarioRequirementId[] = [
  'RL-LIMIT-PLAN',
  'RL-HEADERS-PRESENT',
  'RL-HEADERS-INTEGER',
  'RL-REMAINING-LE-LIMIT',
  'RL-RESET-UNIX-SECONDS',
];
const TOO_MANY: readonly ScenarioRequirementId[] = [
  'RL-429-RETRY-AFTER',
  'RL-429-REMAINING-ZERO',
  'RL-429-ERROR-BODY',
  'RL-RETRY-AFTER-CONSISTENT',
];

export const SCENARIO_INFO: Readonly<Record<ScenarioName, ScenarioInfo>> = {
  ceiling: {
    name: 'ceiling',
    question:
      "Does the first request beyond the plan's limit get a well-formed 429 exactly when X-RateLimit-Remaining said it would — and never earlier?",
    requirements: [
      'RL-CEILING-429',
      'RL-NOT-EARLY',
      'RL-REMAINING-DECREMENTS',
      ...TOO_MANY,
      'RL-BAN-EARNED',
      'RL-429-NOTHING-STORED',
      ...RESPONSE_RULES,
    ],
    optIn: false,
    singleVu: true,
  },
  recovery: {
    name: 'recovery',
    question:
      'After the 429, does waiting exactly what Retry-After asks (plus a little jitter) bring the key back — without ever sending early?',
    requirements: [
      'RL-RECOVERY',
      'RL-CEILING-429',
      'RL-NOT-EARLY',
      ...TOO_MANY,
      'RL-BAN-EARNED',
      'RL-429-NOTHING-STORED',
      ...RESPONSE_RULES,
    ],
    optIn: false,
    singleVu: true,
  },
  sustained: {
    name: 'sustained',
    question: "Is a steady rate just below the plan's ceiling, held for two windows (so a whole fixed window lies inside), ever throttled?",
    requirements: ['RL-SUSTAINED-BELOW-CEILING', ...RESPONSE_RULES],
    optIn: false,
    singleVu: false,
    dedicatedKeyRequirements: ['RL-REMAINING-DECREMENTS'],
  },
  overload: {
    name: 'overload',
    question:
      'Well above the ceiling, do successes in any window stay within the limit — is the limit really per minute, not per shorter window — while every Retry-After is obeyed?',
    requirements: ['RL-WINDOW-PER-MINUTE', 'RL-NOT-EARLY', 'RL-CEILING-429', ...TOO_MANY, ...RESPONSE_RULES],
    optIn: false,
    singleVu: false,
  },
  daily: {
    name: 'daily',
    question: "Is the per-day quota enforced at the plan's number? (Opt-in: it spends the key's whole daily quota.)",
    requirements: ['RL-DAILY-QUOTA', 'RL-CEILING-429', 'RL-429-RETRY-AFTER', ...RESPONSE_RULES],
    optIn: true,
    singleVu: false,
  },
};

/** The quick set: the nightly certification and `npm start` (the ceiling and the recovery after it). */
export const QUICK_SCENARIOS: readonly ScenarioName[] = ['ceiling', 'recovery'];

/** The full set (`--profile full`): every per-minute question; daily is added only when explicitly allowed. */
export const FULL_SCENARIOS: readonly ScenarioName[] = ['ceiling', 'recovery', 'sustained', 'overload'];

export function isScenarioName(v: string): v is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).indexOf(v) >= 0;
}

/** The scenarios that judge a requirement (the daily one last). */
export function scenariosJudging(requirement: string): ScenarioName[] {
  return SCENARIO_NAMES.filter((n) => (SCENARIO_INFO[n].requirements as readonly string[]).indexOf(requirement) >= 0);
}

const has = (entries: object, id: string): boolean => Object.prototype.hasOwnProperty.call(entries, id);

/** Is this id (a k6 metric's tag, a threshold's key) one a scenario may judge? */
export function isScenarioRequirementId(id: string): id is ScenarioRequirementId {
  return SCENARIO_NAMES.some((n) => {
    const info = SCENARIO_INFO[n];
    return (info.requirements as readonly string[]).concat(info.dedicatedKeyRequirements || []).indexOf(id) >= 0;
  });
}

const isLoadId = (id: string): id is keyof LoadEntries => has(RATE_LIMIT_LOAD.entries, id);

/**
 * The judgement of a requirement a scenario judges, named only at run time (what k6's metrics and thresholds carry):
 * its own section's judge, with a title every such entry has.
 */
export function judgeScenarioRequirement(id: ScenarioRequirementId, init: JudgeInit<{ titles: typeof SCENARIO_TITLES }>): Judgement {
  return isLoadId(id) ? RATE_LIMIT_LOAD.judge(id, init) : RATE_LIMIT_HEADERS.judge(id, init);
}
