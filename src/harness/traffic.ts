/**
 * The run's traffic, recorded as it happens: every exchange of the conformance specs and the exploration phase
 * becomes a HAR entry the moment it is answered — redacted (the key in every encoding the redactor knows, every
 * Authorization credential behind its scheme) and each body cut at the cap — and leaves as one line (HAR model:
 * src/results/har-lines.ts). Each spec test opens a page; each judgement made on an exchange tags its entry. Nothing is
 * kept in memory but the exchanges' sequence numbers (weakly): the worker of a long run stays small.
 */
import { openSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Outcome } from '../core/sections/define.ts';
import { REDACTED, type Redactor } from '../core/redact.ts';
import { redactAuthorization } from '../checks/evidence.ts';
import type { ApiExchange } from '../http/client.ts';
import type { Exchange } from '../http/transport.ts';
import {
  TRAFFIC_CAPS,
  type HarEntry,
  type HarNameValue,
  type HarRequest,
  type HarResponse,
  type TrafficCaps,
  type TrafficLine,
} from '../results/har-lines.ts';

export interface TrafficOptions {
  /** Where each line goes: a file the CLI named (`appendLines`), or a list in a test. */
  write: (line: TrafficLine) => void;
  caps?: TrafficCaps;
}

/** Each line appended to `path` as JSON, through one descriptor (closed with the worker); a failed write stops the recording (the run goes on). */
export function appendLines(path: string): (line: TrafficLine) => void {
  let fd: number | undefined;
  let broken = false;
  return (line) => {
    if (broken) return;
    try {
      fd ??= openSync(path, 'a');
      const buf = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
      for (let at = 0; at < buf.length;) at += writeSync(fd, buf, at, buf.length - at);
    } catch {
      broken = true;
    }
  };
}

/** A page of the HAR: one spec test's exchanges (written with its first exchange; a page without any is never written). */
export interface TrafficPage {
  readonly title: string;
  readonly at: number;
  id?: string;
}

export class TrafficRecorder {
  private readonly seqOf = new WeakMap<object, number>();
  private readonly caps: TrafficCaps;
  private next = 0;
  private dropped = 0;
  private pages = 0;
  private last?: TrafficPage;
  private started = false;

  constructor(
    private readonly o: TrafficOptions,
    private readonly redact: Redactor,
    private readonly now: () => number = Date.now,
  ) {
    this.caps = o.caps ?? TRAFFIC_CAPS;
  }

  /** A spec test starts: its exchanges belong to a page of that title (the last page opened, unless one is named). */
  page(title: string): TrafficPage {
    this.last = { title, at: this.now() };
    return this.last;
  }

  /** Record an exchange on `page` (spec tests in flight together each name theirs), else on the last page opened. */
  exchange(ex: ApiExchange, page: TrafficPage | undefined = this.last): void {
    if (!this.started) {
      this.started = true;
      this.o.write({ kind: 'caps', caps: this.caps });
    }
    if (this.next >= this.caps.entries) {
      this.o.write({ kind: 'dropped', count: ++this.dropped });
      return;
    }
    if (page && page.id === undefined) {
      page.id = `page_${++this.pages}`;
      this.o.write({
        kind: 'page',
        page: { id: page.id, title: this.redact(page.title), startedDateTime: new Date(page.at).toISOString(), pageTimings: {} },
      });
    }
    const seq = this.next++;
    this.seqOf.set(ex, seq);
    const entry = harEntry(ex, this.redact, this.caps.bodyBytes);
    this.o.write({ kind: 'entry', seq, entry: page?.id ? { pageref: page.id, ...entry } : entry });
  }

  /** A judgement was made on `ex`: its entry is tagged with the requirement. */
  judged(ex: ApiExchange, requirement: string, outcome: Outcome): void {
    const seq = this.seqOf.get(ex);
    if (seq !== undefined) this.o.write({ kind: 'judged', seq, requirement, outcome });
  }
}

/** `text` cut to at most `cap` bytes of UTF-8, on a character boundary. */
export function cutUtf8(text: string, cap: number): { text: string; cut: boolean } {
  if (text.length * 3 <= cap) return { text, cut: false };
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= cap) return { text, cut: false };
  let end = cap;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString('utf8'), cut: true };
}

function headerList(h: Record<string, string> | undefined, redact: Redactor): HarNameValue[] {
  return Object.entries(h ?? {}).map(([name, value]) => ({
    name: redact(name),
    value: name.toLowerCase() === 'authorization' ? redactAuthorization(value, redact) : redact(value),
  }));
}

function headerOf(h: Record<string, string> | undefined, name: string): string | undefined {
  return Object.entries(h ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

function requestOf(ex: Exchange, redact: Redactor, cap: number): HarRequest {
  const { method, url, headers, body } = ex.request;
  // Brackets are no URI characters outside a host: a key in the URL (the base URL's) leaves it a valid URI.
  const shown = redact(url).replaceAll(REDACTED, encodeURI(REDACTED));
  let queryString: HarNameValue[] = [];
  try {
    queryString = [...new URL(shown).searchParams].map(([name, value]) => ({ name: redact(name), value: redact(value) }));
  } catch {
    // a URL the client built always parses; nothing to list otherwise
  }
  const req: HarRequest = {
    method,
    url: shown,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(headers, redact),
    queryString,
    headersSize: -1,
    bodySize: body === undefined ? 0 : Buffer.byteLength(body, 'utf8'),
  };
  if (body !== undefined) {
    // Redacted whole, then cut: a cut first could leave part of the key past what the redactor matches.
    const b = cutUtf8(redact(body), cap);
    req.postData = {
      mimeType: headerOf(headers, 'content-type') ?? 'application/octet-stream',
      text: b.text,
      ...(b.cut ? { _truncated: true } : {}),
    };
  }
  return req;
}

function responseOf(ex: Exchange, redact: Redactor, cap: number): HarResponse {
  const res = ex.response;
  const error = ex.error ? { _error: redact(`${ex.error.kind}: ${ex.error.message}`) } : {};
  if (!res) {
    const content = { size: 0, mimeType: 'x-unknown' };
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...error,
    };
  }
  const b = cutUtf8(redact(res.bodyText), cap);
  return {
    status: res.status,
    statusText: STATUS_CODES[res.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(res.headers, redact),
    content: {
      size: res.bodyBytes,
      mimeType: headerOf(res.headers, 'content-type') ?? 'x-unknown',
      text: b.text,
      ...(b.cut || res.truncated ? { _truncated: true as const } : {}),
    },
    redirectURL: redact(headerOf(res.headers, 'location') ?? ''),
    headersSize: -1,
    bodySize: res.bodyBytes,
    ...error,
  };
}

/** The HAR entry of one exchange: redacted, bodies cut at `cap` bytes, its timings from the transport's clock. */
export function harEntry(ex: Exchange, redact: Redactor, cap: number): HarEntry {
  const time = Math.max(0, ex.durationMs);
  // Time to the response's headers when the transport measured it; else all of it counts as waiting.
  const wait = ex.headersMs !== undefined ? Math.min(time, Math.max(0, ex.headersMs)) : time;
  return {
    startedDateTime: new Date(ex.startedAt).toISOString(),
    time,
    request: requestOf(ex, redact, cap),
    response: responseOf(ex, redact, cap),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive: time - wait },
  };
}
