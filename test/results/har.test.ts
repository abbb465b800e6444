/**
 * traffic.har of a whole run: the conformance specs and the exploration phase run in process against the reference
 * server (simulated time), their traffic recorded as the worker records it and written as the CLI writes it. The
 * file validates against the HAR 1.2 schema; every request sent is one entry with the exact body text sent, on the
 * page of its spec test or exploration part, tagged with the requirements judged on it; the key is nowhere in it,
 * though the server echoed it; bodies above the cap are cut and marked; past the entry cap nothing more is written.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_KEYS } from '../../reference/keys.ts';
import type { TrafficCaps, TrafficLine, TrafficSummary } from '../../src/results/har-lines.ts';
import { appendLines } from '../../src/harness/traffic.ts';
import { harRunOf, trafficFileLines, writeHar } from '../../src/results/writers/har.ts';
import { renderHtml } from '../../src/results/writers/html.ts';
import { harProblems, type Har } from '../support/har.ts';
import { runSuiteAgainst, type RunOptions, type SuiteRun } from '../support/suite.ts';
import { tempDir } from '../support/temp.ts';
import { certifiedReport } from '../support/report-fixtures.ts';

const KEY = DEMO_KEYS.business;
const dir = tempDir('har');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RUN = harRunOf(certifiedReport());
const NO_LOAD = { ...RUN, load: undefined };

interface Recorded {
  run: SuiteRun;
  sent: { method: string; url: string; body?: string }[];
  har: Har;
  text: string;
  summary: TrafficSummary;
}

let files = 0;
/** A run recorded and written as a HAR (no redactor at the writer: what the recorder wrote must already be clean). */
async function recorded(faults: string[], opts: RunOptions = {}, caps?: TrafficCaps): Promise<Recorded> {
  const lines: TrafficLine[] = [];
  const sent: Recorded['sent'] = [];
  const run = await runSuiteAgainst(
    { faults: faults as never },
    { ...opts, traffic: { write: (l) => lines.push(l), ...(caps ? { caps } : {}) }, onRequest: (r) => sent.push(r) },
  );
  const path = join(dir, `run-${files++}.har`);
  const summary = writeHar(path, () => lines, NO_LOAD);
  const text = readFileSync(path, 'utf8');
  return { run, sent, har: JSON.parse(text) as Har, text, summary };
}

describe('traffic.har of a whole run against a server that echoes the key and ignores limit', () => {
  let r: Recorded;
  beforeAll(async () => {
    r = await recorded(['echo-key', 'limit-ignored']);
  }, 90_000);

  test('The file validates against the HAR 1.2 schema: entries in the order they started, each time the sum of its timings.', () => {
    expect(harProblems(r.har)).toBe('valid');
    expect(r.har.log.entries.length).toBeGreaterThan(100);
  });

  test('Every request sent is one entry, in order, with its method, URL and the exact body text sent (int64 digits as sent).', () => {
    const { entries } = r.har.log;
    expect(entries.length).toBe(r.sent.length);
    expect(entries.length).toBe(r.run.requests);
    entries.forEach((e, i) => {
      expect(e.request.method).toBe(r.sent[i].method);
      // The key sent in a query parameter (conformance/auth/key-channels.spec.ts) is redacted there too.
      expect(e.request.url).toBe(r.sent[i].url.replaceAll(KEY, encodeURIComponent('[REDACTED]')));
      // A body above the cap (the exploration sends one of 1.5 MB) is cut and marked: the rest is exact.
      const p = e.request.postData;
      if (p?._truncated) expect(r.sent[i].body!.startsWith(p.text)).toBe(true);
      else expect(p?.text).toBe(r.sent[i].body);
    });
    // Integers past 2^53 were sent and are written as sent.
    expect(entries.some((e) => /\b9223372036854775807\b/.test(e.request.postData?.text ?? ''))).toBe(true);
    const cut = entries.filter((e) => e.request.postData?._truncated || e.response.content._truncated).length;
    expect(r.summary).toMatchObject({ entries: entries.length, omitted: 0, truncated: cut });
  });

  test('Each spec test and each exploration part that sent a request is a page, and every entry is on the page that sent it.', () => {
    const { pages = [], entries } = r.har.log;
    const titles = pages.map((p) => p.title);
    expect(titles).toContainEqual(expect.stringMatching(/^listPets › limit-honoured: /));
    for (const part of ['coverage-values', 'generated-requests', 'stateful-round-trip'])
      expect(titles).toContainEqual(expect.stringMatching(new RegExp(`^exploration › ${part}: `)));
    expect(entries.every((e) => e.pageref !== undefined)).toBe(true);
    expect(r.summary.pages).toBe(pages.length);
  });

  test('Each entry is tagged with the requirements judged on it, and the response a failure was found on carries its fail.', () => {
    const { entries } = r.har.log;
    expect(entries.every((e) => e.request.method !== 'GET' || e._requirements?.includes('RESP-STATUS-DOCUMENTED'))).toBe(true);
    const failed = entries.filter((e) => e._outcomes?.['LIST-LIMIT-HONOURED'] === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    // The limit as sent: in any case, or percent-encoded, when the exploration varies the query's shape.
    for (const e of failed) expect(e.request.url).toMatch(/\/pets\?.*(limit|%6C%69%6D%69%74)=/i);
    // The requirements of a correct behaviour pass on their own entries.
    expect(entries.some((e) => e._outcomes?.['AUTH-MISSING-401'] === 'pass')).toBe(true);
  });

  test('The API key is nowhere in the file, in any encoding, though the server echoed it in a header and in bodies.', () => {
    const echoed = r.har.log.entries.flatMap((e) => e.response.headers).filter((h) => h.name === 'x-echo');
    expect(echoed.length, 'the server echoed the credential').toBeGreaterThan(0);
    expect(echoed.some((h) => h.value.includes('[REDACTED]'))).toBe(true);
    expect(r.text).toMatch(/Authorization: Bearer \[REDACTED\]/);
    const leaks = [
      KEY,
      KEY.slice(0, -1),
      encodeURIComponent(KEY),
      JSON.stringify(KEY).slice(1, -1),
      btoa(KEY).slice(0, 16),
      btoa(`${KEY}:`).slice(0, 16),
      btoa(`Bearer ${KEY}`).slice(8, 32),
    ];
    for (const leak of leaks) expect(r.text.toLowerCase(), leak).not.toContain(leak.toLowerCase());
  });
});

describe('traffic.har within its caps', () => {
  test('A body above the cap is cut on a character boundary and marked, and one below it is whole and unmarked.', async () => {
    const cap = 1000;
    const r = await recorded([], {}, { entries: 10_000, bodyBytes: cap });
    expect(harProblems(r.har)).toBe('valid');
    const bytes = (s = '') => Buffer.byteLength(s, 'utf8');
    const posts = r.har.log.entries.map((e, i) => ({ e, body: r.sent[i].body })).filter((x) => x.body !== undefined);
    const long = posts.filter((x) => bytes(x.body) > cap);
    expect(long.length, 'a request body above the cap was sent').toBeGreaterThan(0);
    // The exploration sends names outside ASCII: some cut falls where a character takes several bytes.
    expect(long.some((x) => bytes(x.body!.slice(0, cap)) > cap)).toBe(true);
    for (const { e, body } of posts) {
      const p = e.request.postData!;
      expect(e.request.bodySize).toBe(bytes(body));
      if (bytes(body) > cap) {
        expect(p._truncated).toBe(true);
        expect(bytes(p.text)).toBeLessThanOrEqual(cap);
        expect(bytes(p.text)).toBeGreaterThan(cap - 4);
        expect(body!.startsWith(p.text)).toBe(true);
      } else expect(p).toEqual({ mimeType: expect.any(String), text: body });
      // The media type as sent (the exploration varies it; none sent is octet-stream, HAR's unknown).
      const sentType = e.request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      expect(p.mimeType).toBe(sentType ?? 'application/octet-stream');
    }
    const responses = r.har.log.entries.map((e) => e.response.content);
    expect(responses.some((c) => c.size > cap && c._truncated && bytes(c.text) <= cap)).toBe(true);
    expect(responses.filter((c) => c.size <= cap).every((c) => !c._truncated && bytes(c.text) === c.size)).toBe(true);
    expect(r.har.log.comment).toContain('Bodies are cut at 1,000 bytes');
    expect(r.summary.truncated).toBe(
      r.har.log.entries.filter((e) => e.request.postData?._truncated || e.response.content._truncated).length,
    );
  }, 90_000);

  test('Past the entry cap nothing more is written, and the file and its summary say how many requests were left out.', async () => {
    const r = await recorded([], { specs: (f) => f.operation === 'listPets' }, { entries: 5, bodyBytes: 1024 });
    expect(harProblems(r.har)).toBe('valid');
    expect(r.har.log.entries).toHaveLength(5);
    expect(r.run.requests).toBeGreaterThan(5);
    expect(r.summary).toMatchObject({ entries: 5, omitted: r.run.requests - 5 });
    expect(r.har.log.comment).toContain(`at most 5 entries are kept (${r.run.requests - 5} more were not)`);
  }, 90_000);

  test('With writes off and the exploration off the file is still valid: no method that could write but to an id no server issued, no exploration page.', async () => {
    const r = await recorded([], { env: { ANIMAL_STORE_ALLOW_WRITES: 'false', ANIMAL_STORE_EXPLORE_BUDGET: '0' } });
    expect(harProblems(r.har)).toBe('valid');
    expect(r.har.log.entries.length).toBeGreaterThan(0);
    const writes = r.har.log.entries.filter((e) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(e.request.method));
    expect(writes.filter((e) => !e.request.url.endsWith('/pets/9223372036854770001'))).toEqual([]);
    expect((r.har.log.pages ?? []).some((p) => p.title.startsWith('exploration'))).toBe(false);
  }, 90_000);
});

describe('traffic.har without conformance traffic, or from a worker that was stopped', () => {
  test('A run without conformance traffic writes a valid file with no entry, its rate-limit scenarios summarised, not listed.', () => {
    const path = join(dir, 'load-only.har');
    const summary = writeHar(path, undefined, RUN);
    const har = JSON.parse(readFileSync(path, 'utf8')) as Har;
    expect(harProblems(har)).toBe('valid');
    expect(har.log.entries).toEqual([]);
    expect(summary).toEqual({ file: 'traffic.har', entries: 0, pages: 0, omitted: 0, truncated: 0 });
    const load = RUN.load ?? [];
    expect(load.length).toBeGreaterThan(0);
    expect(har.log._rateLimitScenarios).toHaveLength(load.length);
    expect(har.log._rateLimitScenarios?.[0]).toMatchObject({
      plan: load[0].plan,
      scenario: load[0].scenario,
      requests: load[0].requestsSent,
    });
    expect(har.log.comment).toMatch(new RegExp(`${load[0].plan} ${load[0].scenario} \\(node\\): \\d+ requests, \\d+ 2xx, \\d+ × 429`));
  });

  test('Requests in flight together come back in any order: the file lists them in the order they started.', async () => {
    const lines: TrafficLine[] = [];
    await runSuiteAgainst({}, { specs: (f) => f.behaviour === 'limit-honoured', traffic: { write: (l) => lines.push(l) } });
    const entries = lines.filter((l) => l.kind === 'entry');
    expect(entries.length).toBeGreaterThan(2);
    // As if the last request to start had come back first, and so on.
    const backwards = [...lines.filter((l) => l.kind !== 'entry'), ...entries.reverse()];
    const path = join(dir, 'backwards.har');
    writeHar(path, () => backwards, NO_LOAD);
    const har = JSON.parse(readFileSync(path, 'utf8')) as Har;
    expect(harProblems(har)).toBe('valid');
    expect(har.log.entries.map((e) => e.startedDateTime)).toEqual(
      entries.reverse().map((l) => l.kind === 'entry' && l.entry.startedDateTime),
    );
  }, 90_000);

  test('A traffic file whose last line was cut short (a stopped worker) gives a valid file of the lines before it.', async () => {
    const file = join(dir, 'cut.jsonl');
    const write = appendLines(file);
    await runSuiteAgainst({}, { specs: (f) => f.behaviour === 'default-page', traffic: { write } });
    const whole = [...trafficFileLines(file)].filter((l) => l.kind === 'entry').length;
    expect(whole).toBeGreaterThan(0);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"kind":"entry","seq":99,"entry":{"startedDate`);
    const path = join(dir, 'cut.har');
    const summary = writeHar(path, () => trafficFileLines(file), NO_LOAD);
    expect(harProblems(JSON.parse(readFileSync(path, 'utf8')))).toBe('valid');
    expect(summary.entries).toBe(whole);
  }, 90_000);
});

describe('the certificate links the file', () => {
  test('index.html links traffic.har, the one link that is no anchor of the page, only when the run wrote one.', () => {
    const traffic = { file: 'traffic.har', entries: 412, pages: 30, omitted: 0, truncated: 1 };
    const html = renderHtml({ ...certifiedReport(), traffic });
    expect(html).toContain('<a href="traffic.har" data-testid="traffic-link">traffic.har</a> (HAR 1.2)');
    expect(html).toContain('412 on 30 pages');
    expect(html.match(/\s(src|href)="(?!#)[^"]*"/gi)).toEqual([' href="traffic.har"']);
    expect(renderHtml(certifiedReport())).not.toContain('traffic.har');
  });
});
