/**
 * How a section of the spec is written down: its requirements (the spec's words, the level, the stable titles of
 * what its rules say, the reference server's fault modes that prove it) and the one way to build a judgement of one
 * of them — named fields, the title taken from the entry, the level mapped to the outcome here and nowhere else.
 * Pure, no imports but the type of a requirement's id (bundled for k6).
 */
import type { RequirementId } from '../catalogue.ts';

/**
 * How binding a requirement is: MUST (a violation fails), SHOULD (warns), INFO (only observed), ADVISORY (not
 * required by the spec; a violation warns, never fails).
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO' | 'ADVISORY';

export type Area =
  | 'transport'
  | 'responses'
  | 'auth'
  | 'listPets'
  | 'createPet'
  | 'getPet'
  | 'deprecation'
  | 'rate-limit-headers'
  | 'rate-limit-load'
  | 'versioning'
  | 'hygiene';

export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'observe' | 'error';

/** One requirement of a section, as written in its requirements.ts. */
export interface Entry {
  level: Level;
  section: string;
  quote: string;
  /** What the server must do, a full sentence. */
  title: string;
  /** Which part of the suite checks it (default: the conformance run). */
  by?: 'conformance' | 'load';
  /** Why no fault mode can prove this MUST entry. */
  noFault?: string;
  /** Where the level comes from when the quote alone does not say it (HTTP conventions, RFCs); for ADVISORY, why a user must know. */
  note?: string;
  /** The reference server's fault modes that prove it (reference/faults.ts; a test keeps the two in step). */
  faults?: readonly string[];
  /**
   * The stable titles of what its rules say of it, by key (`pass` and `fail` are the defaults): a finding's title is
   * its signature, so it names the kind of failure, never a value — `{name}` placeholders take the judgement's `args`.
   */
  titles?: Readonly<Record<string, string>>;
}

export interface Section<E extends Record<string, Entry>> {
  area: Area;
  entries: E;
  /** The judgement of one of the section's requirements (judgementOf, bound to this section). */
  judge<Id extends keyof E & string>(id: Id, init: JudgeInit<E[Id]>): Judgement;
}

/** A section's requirements, their ids typed by the object's keys. */
export function section<const E extends Record<string, Entry>>(area: Area, entries: E): Section<E> {
  const s: Section<E> = { area, entries, judge: (id, init) => judgementOf(s, id, init) };
  return s;
}

/** A request or response as evidence shows it (redacted). */
export interface HttpExcerpt {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  /** First bytes of the body, redacted. */
  body?: string;
  bodyTruncated?: boolean;
  /** A request's credential: the configured key (replayed as $ANIMAL_STORE_API_KEY), one the suite made up, or none. */
  credential?: 'key' | 'other' | 'none';
  /** The configured key sent in another spelling HTTP allows: the Authorization value with `{key}` for the key. */
  keySpelling?: string;
}

export interface Evidence {
  request?: HttpExcerpt;
  response?: HttpExcerpt;
  /** Transport failure instead of a response (timeout, reset, refused, too large…). */
  error?: string;
  expected?: string;
  actual?: string;
  /** Where in a load scenario: the request's sequence number (1-based) and time since the scenario started. */
  at?: { request: number; ms: number };
}

/**
 * What a rule, a response check, a spec test or a load scenario says about one requirement. `skip` says it could not
 * be judged (and how a run would judge it); `observe` records a fact the spec leaves "not shown"; `error` is a defect
 * of the suite itself (never blamed on the server: the requirement counts as not exercised).
 */
export interface Judgement {
  requirement: RequirementId;
  outcome: Outcome;
  /** Stable, human-readable title: the finding's signature. */
  title: string;
  message: string;
  evidence?: Evidence;
  /** For a skip: what would exercise the requirement (a flag, a profile, a scenario). */
  remedy?: string;
}

/**
 * The titles every requirement takes, for what the suite says of its own run rather than of the server: a judgement it
 * could not make, a test or a scenario it did not run, a defect of its own, a saved counterexample that no longer
 * fails. Any section's judge takes these keys.
 */
export const COMMON_TITLES = {
  'not-judged': 'Could not be judged',
  skipped: 'Skipped',
  'not-run': 'Not run: {scenario}',
  'suite-error': 'Suite error',
  'check-crashed': 'Check crashed on this response',
  'counterexample-fixed': 'Saved counterexample fixed',
} as const;

/** The keys of an entry's titles, and the common ones. */
type TitleKey<En> = (En extends { titles: infer T } ? keyof T & string : never) | keyof typeof COMMON_TITLES;
type Args = Readonly<Record<string, string | number>>;

/**
 * What a rule says of a requirement: it holds or not (the level decides fail or warn), or another outcome. `warn` is
 * for a violation the rule itself deems lesser than its requirement's level (a +json media type where application/json
 * is a MUST): it warns whatever the level.
 */
export type JudgeInit<En> =
  | { ok: boolean; pass?: TitleKey<En>; fail?: TitleKey<En>; args?: Args; message: string; evidence?: Evidence }
  | {
      outcome: 'warn' | 'skip' | 'observe' | 'error';
      title: TitleKey<En>;
      args?: Args;
      message: string;
      remedy?: string;
      evidence?: Evidence;
    };

/** A title of an entry, its `{name}` placeholders filled (a missing one is a suite bug, shown as the key). */
function titleOf(id: string, e: Entry, key: string, args: Args = {}): string {
  const t = e.titles?.[key] ?? (COMMON_TITLES as Readonly<Record<string, string>>)[key];
  if (t === undefined) return `${id}: ${key}`;
  return t.replace(/\{(\w+)\}/g, (_, k: string) => (args[k] !== undefined ? String(args[k]) : `{${k}}`));
}

/** The one place a level becomes an outcome: a MUST violated fails; any other level violated warns. */
export const outcomeOf = (level: Level, ok: boolean): Outcome => (ok ? 'pass' : level === 'MUST' ? 'fail' : 'warn');

/** The one judgement constructor: named fields, the title from the entry, the outcome from its level. */
export function judgementOf<E extends Record<string, Entry>, Id extends keyof E & string>(
  s: Section<E>,
  id: Id,
  init: JudgeInit<E[Id]>,
): Judgement {
  const e = s.entries[id];
  const base =
    'ok' in init
      ? {
          outcome: outcomeOf(e.level, init.ok),
          title: titleOf(id, e, (init.ok ? init.pass : init.fail) ?? (init.ok ? 'pass' : 'fail'), init.args),
        }
      : { outcome: init.outcome, title: titleOf(id, e, init.title, init.args), ...(init.remedy ? { remedy: init.remedy } : {}) };
  return { requirement: id as RequirementId, ...base, message: init.message, ...(init.evidence ? { evidence: init.evidence } : {}) };
}
