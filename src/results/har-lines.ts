/**
 * The run's traffic as HAR 1.2 (HTTP Archive): the shape of the file the run writes (`traffic.har`), and the lines
 * through which the traffic reaches its writer. The conformance worker records every exchange as a HAR entry the
 * moment it is answered (src/harness/traffic.ts), already redacted and cut, and appends one JSON line per entry, per
 * page (a spec test, an exploration part) and per requirement judged on an entry to a file the CLI named; the CLI
 * then writes the HAR from that file (src/results/writers/har.ts), streaming, so neither side holds the traffic in
 * memory. Custom fields start with `_`, as HAR 1.2 allows.
 */
import type { Outcome } from '../core/sections/define.ts';

/** The file's name, in each run folder and at the top of reports/. */
export const HAR_FILE = 'traffic.har';

/** What one file keeps: at most this many entries, and each body (request or response) cut at this many bytes. */
export const TRAFFIC_CAPS = { entries: 10_000, bodyBytes: 128 * 1024 } as const;
export type TrafficCaps = { entries: number; bodyBytes: number };

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPage {
  id: string;
  title: string;
  startedDateTime: string;
  pageTimings: { onContentLoad?: number; onLoad?: number };
  comment?: string;
}

export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  ssl: number;
  send: number;
  wait: number;
  receive: number;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: never[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  /** The exact body text sent (int64 digits as sent), cut at the body cap (then `_truncated`). */
  postData?: { mimeType: string; text: string; _truncated?: true };
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  /** Bytes of the body as received (before any cut). */
  size: number;
  mimeType: string;
  text?: string;
  /** The text is cut: at the file's body cap, or by the run's own --max-body-bytes while reading. */
  _truncated?: true;
}

export interface HarResponse {
  /** 0 when no response came (a transport failure: `_error` says which). */
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: never[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  _error?: string;
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  /** The requirements judged on this exchange, in the order first judged. */
  _requirements?: string[];
  /** The worst outcome of each of them on this exchange (fail before warn before the rest). */
  _outcomes?: Record<string, Outcome>;
}

/** One line of the traffic file the conformance worker writes. */
export type TrafficLine =
  /** The caps the worker recorded with (its first line). */
  | { kind: 'caps'; caps: TrafficCaps }
  | { kind: 'page'; page: HarPage }
  | { kind: 'entry'; seq: number; entry: HarEntry }
  | { kind: 'judged'; seq: number; requirement: string; outcome: Outcome }
  /** Entries not kept past the cap so far (the last such line counts them all). */
  | { kind: 'dropped'; count: number };

/** What the report says of the file it links. */
export interface TrafficSummary {
  file: string;
  entries: number;
  pages: number;
  /** Exchanges past the entry cap, not in the file. */
  omitted: number;
  /** Entries whose request or response body was cut. */
  truncated: number;
}

const SEVERITY: readonly Outcome[] = ['fail', 'warn', 'error', 'skip', 'observe', 'pass'];

/** The worse of two outcomes of one requirement on one exchange. */
export function worse(a: Outcome | undefined, b: Outcome): Outcome {
  return a === undefined || SEVERITY.indexOf(b) < SEVERITY.indexOf(a) ? b : a;
}
