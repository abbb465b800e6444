/**
 * The one stream of results: every check and every spec emits `Finding`s; the
 * aggregator folds them into one `RequirementResult` per catalogue entry; each
 * report writer (JSON, JUnit, HTML, Markdown, badge) reads only the `RunReport`.
 */

export type Level = 'MUST' | 'SHOULD' | 'INFO';

/** What one observation says about one requirement. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'observe';

/** Final status of a requirement in a report. */
export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'waived';

export interface HttpExcerpt {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  /** First bytes of the body, redacted. */
  body?: string;
  bodyTruncated?: boolean;
}

export interface Evidence {
  request?: HttpExcerpt;
  response?: HttpExcerpt;
  /** Transport failure instead of a response (timeout, reset, refused, too large…). */
  error?: string;
  expected?: string;
  actual?: string;
}

export interface Finding {
  requirement: string;
  outcome: Outcome;
  /** Stable, human-readable title of what was found, e.g. "Undocumented status code". */
  title: string;
  message: string;
  /** The response check or spec test that produced it. */
  source: string;
  evidence?: Evidence;
  at?: string;
}

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
  /** Up to a few findings worth showing: failures and warnings first, else one pass. */
  findings: Finding[];
  /** Observations (INFO level facts the spec leaves "not shown"). */
  observations: string[];
  waiver?: { reason: string; expires: string };
}

export interface TargetInfo {
  env: string;
  baseUrl: string;
  plan: string;
  embedded: boolean;
}

export interface RunReport {
  kind: 'conformance' | 'certification';
  suiteVersion: string;
  specSha256: string;
  target: TargetInfo;
  startedAt: string;
  endedAt: string;
  interrupted: boolean;
  verdict: 'pass' | 'fail';
  /** Why the run could not complete, if it could not (unreachable, deadline, budget…). */
  abort?: string;
  counts: Record<Status, number>;
  requestsSent: number;
  requirements: RequirementResult[];
  /** Load scenario results, when the run included them. */
  load?: unknown[];
  notes: string[];
}
