/**
 * The one stream of results: every check, spec and load scenario emits
 * judgements (src/core/sections/define.ts); as `Finding`s (a judgement and where it
 * came from) they are folded into one `RequirementResult` per catalogue entry,
 * and every report writer (JSON, JUnit, HTML, Markdown, badge, console) reads
 * only the `RunReport`.
 */
import type { Evidence, HttpExcerpt, Judgement, Level, Outcome } from '../core/sections/define.ts';
import type { LoadReport } from '../core/load-report.ts';
import type { KeyPlacement } from '../core/credentials.ts';
import type { TrafficSummary } from './har-lines.ts';

export type { Evidence, HttpExcerpt, Level, Outcome };

/**
 * What caused a finding. Findings whose causes share a key are one cause: the reports show it once, with every
 * requirement it breaks and one reproduction (a later list's 500 after a stored name is a consequence of the create
 * that stored it, not a bug of its own).
 */
export interface Cause {
  /** Stable key of the request, or the stored-state sequence, that caused the finding (same input, same key). */
  key: string;
  /** The cause in words ("POST /pets with a name holding a lone surrogate"). */
  title?: string;
  /** This finding follows from another finding of the same cause (a round trip of a pet that had to be refused). */
  consequence?: boolean;
  /** Set by the aggregation: the id of the report's cause this finding was grouped into (`RunReport.causes`). */
  id?: string;
}

/** A requirement a cause breaks: its level, its status in the report, and whether it only follows from the primary. */
export interface CauseRequirement {
  id: string;
  level: Level;
  /** fail or warn as its findings of this cause say; waived when a waiver covers the requirement. */
  status: 'fail' | 'warn' | 'waived';
  /** It fails only because of the primary's failure (an error page's content type, a 500's missing rate-limit headers). */
  consequence: boolean;
}

/**
 * One cause of a run's failures and warnings (src/results/causes.ts): the findings of one request, or of requests that
 * fail the same way, shown once with every requirement they break and one reproduction.
 */
export interface CauseResult {
  /** Stable: the same failure gets the same id in every run (a hash of `signature`). */
  id: string;
  /** The cause in words, naming one request that shows it ("HTTP 500 to GET /pets?limit=5"). */
  title: string;
  /** What grouped it: `http <status> <method> <path>` for an undocumented status or a 5xx, else the primary's `requirement · title`. */
  signature: string;
  /** fail: it breaks a MUST; warn: only warnings; waived: every requirement it breaks is waived. */
  status: 'fail' | 'warn' | 'waived';
  /** The requirements it breaks, the primary's first, consequences last. */
  requirements: CauseRequirement[];
  /** The requests (or stored-state sequences) that showed it. */
  requests: number;
  /** The findings it groups. */
  findings: number;
  /** A few other requests that showed it, one line each. */
  seenOn: string[];
  /** The finding that names it, with its evidence and (the exploration's) replay: the one reproduction. */
  primary: Finding;
}

/** A judgement and where it came from. */
export interface Finding extends Judgement {
  /** What caused it, where the producer knows (the exploration: the request or sequence); else the exchange decides. */
  cause?: Cause;
  /** The response check, spec test or load scenario that produced it. */
  source: string;
  at?: string;
  /** A finding of the exploration phase (generated inputs): how to reproduce it. */
  replay?: Replay;
}

/** A request of the exploration phase as data: what the counterexample store keeps and replays. */
export interface ReplayProbe {
  /** single: one request; stateful: create, then read back (getPet and a list of `limit`); stored: a refused create, then the lists. */
  kind: 'single' | 'stateful' | 'stored';
  op: 'listPets' | 'createPet' | 'getPet';
  query?: Record<string, string>;
  petId?: string;
  /** The exact body text. */
  body?: string;
  limit?: number;
  /** The changes of the request's surface (src/explore/surface.ts), each tagged by its kind; what they sent is below. */
  surface?: SurfaceRecord[];
  /** An older store's single surface variant, by its id: read (and turned into `surface`) when a counterexample is loaded. */
  variant?: string;
  /** The query string as sent, when the variant shapes it (`query` is then how a correct server reads it). */
  rawQuery?: string;
  /** The body texts a correct server may have read (a BOM ignored, each of two duplicated members). */
  readings?: string[];
  /** Header fields set or left out (null). */
  headers?: Record<string, string | null>;
  /** The key spelled another way HTTP allows: the Authorization value with {key} for the key. */
  spelled?: string;
  /** The body sent chunked (Transfer-Encoding: chunked, no Content-Length): its chunks' sizes in bytes, cycled. */
  chunks?: number[];
  /** Another method than the operation's (a method form): the request goes to the operation's path with it. */
  method?: string;
  /** The key edited or placed elsewhere (a credential form, src/http/credentials.ts): the edit, never the key. */
  credential?: KeyPlacement;
}

/**
 * One change of a request's surface as data, tagged by what it changes: the body's text, a header field, the
 * credentials' spelling or the query string; classed by the grammar and the spec (src/explore/surface.ts).
 */
export interface SurfaceRecord {
  kind: 'body' | 'header' | 'auth' | 'query' | 'framing' | 'method' | 'credential';
  /** The dimension it varies (`json-text`, `accept`, `query`…). */
  id: string;
  cls: 'equivalent' | 'equivalent-http' | 'refusable' | 'latitude' | 'invalid';
  label: string;
  /** The RFC section (or the spec's words) that makes it so. */
  source: string;
  /** An invalid change: the requirement its refusal proves. */
  requirement?:
    | 'CREATE-400-MISSING-FIELD'
    | 'CREATE-400-WRONG-TYPE'
    | 'CREATE-400-BAD-STATUS'
    | 'CREATE-400-BAD-BODY'
    | 'AUTH-UNKNOWN-KEY-401'
    | 'AUTH-KEY-CHANNEL'
    | 'AUTH-KEY-IN-URL'
    | 'AUTH-WRONG-SCHEME-401'
    | 'METHOD-405-ALLOW';
}

/** How to reproduce a finding of the exploration phase. */
export interface Replay {
  phase: 'coverage' | 'generated' | 'stateful' | 'replayed';
  /** The minimal failing request, on one line. */
  request: string;
  /** Its method and full URL (the body is in `probe`), for a curl line. */
  method?: string;
  url?: string;
  /** The seed of the fast-check run that found it. */
  seed?: number;
  /** fast-check's path to the counterexample: fc.check(property, { seed, path }) replays it. */
  path?: string;
  /** Shrinking steps that succeeded. */
  shrinks?: number;
  /** Requests the exploration phase had sent when it reported this (shrinking included). */
  requests?: number;
  /** The failing requests, from the first found to the minimal one. */
  shrinkPath?: string[];
  /** The flags that reproduce the whole phase: `--seed N`. */
  reproduce?: string;
  /**
   * A rate-limit finding (X-RateLimit-*, a 429): the server's answer depends on the requests sent on the key before
   * it (those of its window; the run's first Limit), so the minimal request alone may not reproduce it. How many
   * requests the run had sent before the one that failed: `reproduce` replays them all.
   */
  requestsBefore?: number;
  /** A saved counterexample replayed: when it was first found. */
  firstSeen?: string;
  /** A saved counterexample that no longer fails. */
  fixed?: boolean;
  /** The failure it was saved for (requirement · title). */
  signature?: string;
  probe?: ReplayProbe;
  /**
   * What was established about reproducing it: `alone`, the minimal request replayed alone failed the same way again;
   * `not-alone`, replayed alone it did not (it depends on requests sent before it); `after-stored`, it depends on what
   * the store holds — the requests of `before` stored it, and the same list had passed before they were sent;
   * `after-previous`, it failed again right after the request sent before it (`before`), not alone.
   */
  reproduced?: 'alone' | 'not-alone' | 'after-stored' | 'after-previous';
  /** A finding that depends on stored state: the requests to send first, in order (then the failing request). */
  before?: ReplayStep[];
}

/** One request of a sequence that reproduces a finding. */
export interface ReplayStep {
  method: string;
  url: string;
  /** The request on one line. */
  request: string;
  probe: ReplayProbe;
}

/**
 * Final status of a requirement in a report. `observed`: an INFO requirement
 * the run saw (it cannot fail, so it is never counted as passed); `skip`: not
 * exercised (the reason and the remedy say why and how).
 */
export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'waived' | 'observed';

export interface RequirementResult {
  id: string;
  level: Level;
  title: string;
  section: string;
  quote: string;
  area: string;
  status: Status;
  /** Counts of findings by outcome. */
  counts: Record<Outcome, number>;
  /** Up to a few findings worth showing: failures and warnings first, else one pass (or the skip). */
  findings: Finding[];
  /** Observations (facts the spec leaves "not shown", and what a skipped requirement still saw). */
  observations: string[];
  /** A failed or warned requirement: the ids of the causes that break it (`RunReport.causes`). */
  causes?: string[];
  /** For a skipped requirement: why it was not exercised, and what would exercise it. */
  notExercised?: { reason: string; remedy?: string };
  waiver?: { reason: string; expires: string };
}

/**
 * The outcome of a run, named by its scope:
 * - certified: every MUST requirement in scope was exercised and passed;
 * - incomplete: no MUST failed, but some were not exercised (listed with why), warned or were waived, or the run stopped;
 * - not-conformant: a MUST failed.
 */
export type RunOutcome = 'certified' | 'incomplete' | 'not-conformant';

export type { TargetInfo } from '../core/target-info.ts';
export type { EngineRecord } from '../core/engine-record.ts';
import type { EngineRecord } from '../core/engine-record.ts';
import type { TargetInfo } from '../core/target-info.ts';

/** A MUST requirement the run did not exercise: why, and what would. */
export interface NotExercised {
  id: string;
  title: string;
  reason: string;
  remedy?: string;
}

/** This run against the previous one (or a baseline). */
export interface Comparison {
  baseline: { startedAt: string; outcome: RunOutcome; file: string };
  /** Failed or warned now, passed (or not there) before. */
  newProblems: string[];
  /** Failed or warned before, passed now. */
  fixed: string[];
  /** Failed or warned both times. */
  stillFailing: string[];
  /** Changed status in each of the last runs the folder holds (pass → fail → pass…). */
  flapping: string[];
  /** Causes found now that the baseline did not have (by their stable id); absent when the baseline has no causes. */
  newCauses?: CauseRef[];
  /** Causes of the baseline that are gone, every requirement they broke passing now. */
  fixedCauses?: CauseRef[];
}

/** A cause named across runs: its stable id and its title. */
export interface CauseRef {
  id: string;
  title: string;
}

/**
 * One plan of a run that certified several plans at once (a key per plan): the
 * conformance requirements (judged once, on one key) together with this plan's
 * rate-limit judgements give the plan its own outcome, by the same rules as the
 * whole report.
 */
export interface PlanResult {
  plan: string;
  /** The plan's limits as the run used them. */
  perMinute?: number;
  perDay?: number;
  /** Where the key came from (a variable's name, or "the embedded server" for its demo keys) — never the key. */
  keySource: string;
  outcome: RunOutcome;
  counts: Record<Status, number>;
  notExercised: NotExercised[];
  /** The statuses of this plan's requirements (every catalogue entry, as in `requirements`). */
  requirements: { id: string; level: Level; status: Status; reason?: string; remedy?: string }[];
  /** This plan's rate-limit scenario reports (also in `load`). */
  load: LoadReport[];
}

export interface RunReport {
  kind: 'conformance' | 'certification';
  /** The suite's package name (package.json), beside its version. */
  suiteName?: string;
  suiteVersion: string;
  specSha256: string;
  target: TargetInfo;
  startedAt: string;
  endedAt: string;
  interrupted: boolean;
  outcome: RunOutcome;
  /** Why the run could not complete, if it could not (unreachable, key refused, deadline, budget…). */
  abort?: string;
  /** One-line diagnosis of what went wrong before any detail (key refused, throttled before starting, HTML base URL…). */
  diagnosis?: string;
  /**
   * The API key was refused: every authenticated request was answered 401 and the run stopped (exit 5). Every
   * writer's headline is then KEY REFUSED, not a conformance verdict; the outcome follows the usual rules
   * (AUTH-VALID-KEY-ACCEPTED failed: a wrong key and a server rejecting valid keys look alike).
   */
  keyRefused?: boolean;
  counts: Record<Status, number>;
  /** MUST requirements in scope that were not exercised. */
  notExercised: NotExercised[];
  requestsSent: number;
  requirements: RequirementResult[];
  /**
   * The failures and warnings grouped by cause (src/results/causes.ts), failing causes first: each once, with every
   * requirement it breaks and one reproduction. Every failed or warned requirement names its causes.
   */
  causes?: CauseResult[];
  /** Rate-limit scenario reports, when the run included them (every plan's). */
  load?: LoadReport[];
  /** The engine the rate-limit scenarios ran on and why, with the k6 found and whether the suite is verified on it. */
  engine?: EngineRecord;
  /**
   * Several plans certified in one run (a key per plan): each plan's outcome. The
   * report's own outcome is then certified only when every plan's is.
   */
  plans?: PlanResult[];
  /** Which key the conformance run used (a variable's name, never the key), when several were given. */
  conformanceKey?: string;
  comparison?: Comparison;
  /** The run's traffic as HAR 1.2 (traffic.har, beside the report): what it holds. */
  traffic?: TrafficSummary;
  /** Defects of the suite itself found during the run (never blamed on the server). */
  suiteErrors: string[];
  notes: string[];
}
