/**
 * traffic.har: the run's traffic as HAR 1.2, for the browser's network panel (import), Insomnia, Postman or
 * har-to-k6. Written from the lines the conformance worker recorded (src/results/har-lines.ts), in two passes over them —
 * the pages, the requirements judged on each entry and the order the entries started in first, then the entries one by
 * one, each to the file once those that started before it are — so the writer holds only the entries in flight together. The rate-limit scenarios are summarised in the log's comment and in
 * `_rateLimitScenarios`, not listed: their requests are in the load reports. Every chunk is redacted again.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Outcome } from '../../core/sections/define.ts';
import type { LoadReport } from '../../core/load-report.ts';
import { HAR_FILE, TRAFFIC_CAPS, worse, type HarPage, type TrafficCaps, type TrafficLine, type TrafficSummary } from '../har-lines.ts';
import type { RunReport } from '../types.ts';
import { writeFileAtomicStream } from './atomic.ts';

type Redact = (s: string) => string;

/** What the log says of its run besides the traffic. */
export interface HarRun {
  kind: string;
  suiteName?: string;
  suiteVersion: string;
  baseUrl: string;
  startedAt: string;
  load?: readonly LoadReport[];
}

export const harRunOf = (r: RunReport): HarRun => ({
  kind: r.kind,
  suiteName: r.suiteName,
  suiteVersion: r.suiteVersion,
  baseUrl: r.target.baseUrl,
  startedAt: r.startedAt,
  load: r.load,
});

/** The lines of a traffic file, read a chunk at a time; a line cut short (a worker stopped mid-write) is skipped. */
export function* trafficFileLines(path: string): Generator<TrafficLine> {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      const lines = (rest + decoder.write(buf.subarray(0, n))).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) yield* parsed(l);
    }
    yield* parsed(rest + decoder.end());
  } finally {
    closeSync(fd);
  }
}

function* parsed(line: string): Generator<TrafficLine> {
  if (!line.trim()) return;
  try {
    yield JSON.parse(line) as TrafficLine;
  } catch {
    // the last line of a worker that was stopped while writing it
  }
}

/** The first pass: everything but the entries themselves. */
function survey(lines: Iterable<TrafficLine>) {
  const pages: HarPage[] = [];
  const judged = new Map<number, Map<string, Outcome>>();
  let caps: TrafficCaps = TRAFFIC_CAPS;
  let entries = 0;
  let omitted = 0;
  let truncated = 0;
  const starts: { seq: number; at: number }[] = [];
  for (const l of lines) {
    if (l.kind === 'caps') caps = l.caps;
    else if (l.kind === 'page') pages.push(l.page);
    else if (l.kind === 'dropped') omitted = Math.max(omitted, l.count);
    else if (l.kind === 'entry') {
      entries++;
      starts.push({ seq: l.seq, at: Date.parse(l.entry.startedDateTime) });
      if (l.entry.request.postData?._truncated || l.entry.response.content._truncated) truncated++;
    } else if (l.kind === 'judged') {
      const m = judged.get(l.seq) ?? new Map<string, Outcome>();
      m.set(l.requirement, worse(m.get(l.requirement), l.outcome));
      judged.set(l.seq, m);
    }
  }
  // Requests in flight together are recorded as they come back: the file lists them in the order they started.
  const order = starts.sort((a, b) => a.at - b.at || a.seq - b.seq).map((x) => x.seq);
  return { pages, judged, caps, entries, omitted, truncated, order };
}

/** Requests of a scenario by kind: its certificate keeps totals when its timeline was thinned. */
function totals(lr: LoadReport) {
  if (lr.timelineTotals) return lr.timelineTotals;
  const t = { requests: lr.timeline.length, ok: 0, tooMany: 0, other: 0 };
  for (const p of lr.timeline) {
    if (p.status >= 200 && p.status < 300) t.ok++;
    else if (p.status === 429) t.tooMany++;
    else t.other++;
  }
  return t;
}

export function scenarioSummaries(load: readonly LoadReport[] = []) {
  return load.map((lr) => {
    const t = totals(lr);
    return {
      plan: lr.plan,
      scenario: lr.scenario,
      engine: lr.engine,
      startedAt: lr.startedAt,
      endedAt: lr.endedAt,
      verdict: lr.verdict,
      requests: lr.requestsSent,
      ok: t.ok,
      tooMany: t.tooMany,
      other: t.other,
      ...(lr.stoppedBecause ? { stoppedBecause: lr.stoppedBecause } : {}),
    };
  });
}

const n = (x: number) => x.toLocaleString('en-US');

function comment(run: HarRun, s: ReturnType<typeof survey>): string {
  const scenarios = scenarioSummaries(run.load);
  const shown = scenarios.map(
    (x) =>
      `${x.plan} ${x.scenario} (${x.engine}): ${n(x.requests)} requests, ${n(x.ok)} 2xx, ${n(x.tooMany)} × 429, ${n(x.other)} other — ${x.verdict}`,
  );
  return [
    `The requests and responses of the conformance specs and the exploration phase of an Animal Store ${run.kind} run against ${run.baseUrl} started ${run.startedAt}: ${n(s.entries)} entries on ${n(s.pages.length)} pages (a page per spec test or exploration part).`,
    "Each entry's _requirements lists the requirements judged on it, _outcomes the worst outcome of each.",
    `Bodies are cut at ${n(s.caps.bodyBytes)} bytes (a cut one carries _truncated: true; ${n(s.truncated)} entries have one) and at most ${n(s.caps.entries)} entries are kept${s.omitted ? ` (${n(s.omitted)} more were not)` : ''}.`,
    'The API key is shown as [REDACTED], every Authorization credential behind its scheme.',
    scenarios.length
      ? `The rate-limit scenarios are summarised here and in _rateLimitScenarios, not listed (certification.json keeps their timelines, the reports of npm run load every request): ${shown.join('; ')}.`
      : 'No rate-limit scenario ran.',
  ].join(' ');
}

/**
 * Writes the HAR of a run to `path` (atomically) from its traffic lines — `lines` is called once per pass —
 * and returns what the report says of it. Without lines (no conformance run), the file has no entry.
 */
export function writeHar(
  path: string,
  lines: (() => Iterable<TrafficLine>) | undefined,
  run: HarRun,
  redact: Redact = (s) => s,
): TrafficSummary {
  const s = survey(lines?.() ?? []);
  writeFileAtomicStream(path, (out) => {
    const put = (text: string) => out(redact(text));
    const creator = { name: run.suiteName ?? 'animal-store-certify', version: run.suiteVersion };
    put(
      `{\n  "log": {\n    "version": "1.2",\n    "creator": ${JSON.stringify(creator)},\n    "comment": ${JSON.stringify(comment(run, s))},\n`,
    );
    put(
      `    "pages": [${s.pages.map((p) => `\n      ${JSON.stringify(p)}`).join(',')}${s.pages.length ? '\n    ' : ''}],\n    "entries": [`,
    );
    let first = true;
    // An entry waits here until every entry that started before it was written (as many as were in flight with it).
    const early = new Map<number, string>();
    let next = 0;
    for (const l of lines?.() ?? []) {
      if (l.kind !== 'entry') continue;
      const tags = s.judged.get(l.seq);
      const entry = tags ? { ...l.entry, _requirements: [...tags.keys()], _outcomes: Object.fromEntries(tags) } : l.entry;
      early.set(l.seq, JSON.stringify(entry));
      for (let text = early.get(s.order[next]); text !== undefined; text = early.get(s.order[next])) {
        early.delete(s.order[next++]);
        put(`${first ? '' : ','}\n      ${text}`);
        first = false;
      }
    }
    put(`${first ? '' : '\n    '}],\n    "_rateLimitScenarios": ${JSON.stringify(scenarioSummaries(run.load))}\n  }\n}\n`);
  });
  return { file: HAR_FILE, entries: s.entries, pages: s.pages.length, omitted: s.omitted, truncated: s.truncated };
}
