/**
 * One exchange as a HAR entry (src/harness/traffic.ts): what a reader sees of a transport failure, a body the
 * transport stopped reading, a redirect and a made-up credential; every entry valid HAR 1.2; bodies cut on a UTF-8
 * character boundary.
 */
import { describe, expect, test } from 'vitest';
import { makeRedactor } from '../../src/core/redact.ts';
import type { Exchange } from '../../src/http/transport.ts';
import { cutUtf8, harEntry } from '../../src/harness/traffic.ts';
import type { HarEntry } from '../../src/results/har-lines.ts';
import { harProblems } from '../support/har.ts';

const KEY = 'as_live_k3y/with+odd=chars';
const redact = makeRedactor([KEY]);
const URL = 'http://127.0.0.1:4010/v1/pets';
const T0 = Date.UTC(2030, 0, 1, 12);

const ok = (status: number, headers: Record<string, string>, bodyText: string, truncated = false) => ({
  status,
  headers,
  bodyText,
  bodyBytes: Buffer.byteLength(bodyText),
  truncated,
});

const CASES: { name: string; ex: Exchange; expect: (e: HarEntry) => void }[] = [
  {
    name: 'A refused connection is an entry with status 0, no header and the transport error.',
    ex: { request: { method: 'GET', url: URL }, error: { kind: 'refused', message: 'connect ECONNREFUSED' }, startedAt: T0, durationMs: 3 },
    expect: (e) => {
      expect(e.response).toMatchObject({
        status: 0,
        headers: [],
        content: { size: 0, mimeType: 'x-unknown' },
        _error: 'refused: connect ECONNREFUSED',
      });
      expect(e.timings).toMatchObject({ send: 0, wait: 3, receive: 0 });
    },
  },
  {
    name: 'A body the transport stopped reading at --max-body-bytes is marked cut, with its error.',
    ex: {
      request: { method: 'GET', url: `${URL}?limit=100` },
      response: ok(200, { 'content-type': 'application/json' }, '[{"id":1}', true),
      error: { kind: 'too-large', message: 'response body exceeds the 9-byte cap; reading stopped' },
      startedAt: T0,
      durationMs: 40,
      headersMs: 10,
    },
    expect: (e) => {
      expect(e.response.content).toEqual({ size: 9, mimeType: 'application/json', text: '[{"id":1}', _truncated: true });
      expect(e.response._error).toMatch(/^too-large: /);
      expect(e.request.queryString).toEqual([{ name: 'limit', value: '100' }]);
      expect(e.timings).toMatchObject({ wait: 10, receive: 30 });
      expect(e.time).toBe(40);
    },
  },
  {
    name: 'A redirect names its target, and the credential sent is hidden behind its scheme.',
    ex: {
      request: { method: 'GET', url: URL, headers: { authorization: `Bearer ${KEY}` } },
      response: ok(307, { location: 'http://other.example/v1/pets' }, ''),
      startedAt: T0,
      durationMs: 2,
    },
    expect: (e) => {
      expect(e.response).toMatchObject({ status: 307, statusText: 'Temporary Redirect', redirectURL: 'http://other.example/v1/pets' });
      expect(e.response.content.mimeType).toBe('x-unknown');
      expect(e.request.headers).toEqual([{ name: 'authorization', value: 'Bearer [REDACTED]' }]);
    },
  },
  {
    name: 'A made-up credential and a key echoed in a body are redacted too; the body sent is kept exactly.',
    ex: {
      request: {
        method: 'POST',
        url: URL,
        headers: { authorization: `Basic ${btoa(`${KEY}:`)}`, 'content-type': 'application/json' },
        body: '{"name":"x","categoryId":9223372036854775807}',
      },
      response: ok(401, { 'content-type': 'application/json', 'x-echo': `Basic ${btoa(`${KEY}:`)}` }, `{"message":"bad key ${KEY}"}`),
      startedAt: T0,
      durationMs: 1,
    },
    expect: (e) => {
      expect(e.request.headers[0]).toEqual({ name: 'authorization', value: 'Basic [REDACTED]' });
      expect(e.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"x","categoryId":9223372036854775807}' });
      expect(e.request.bodySize).toBe(45);
      expect(e.response.content.text).toBe('{"message":"bad key [REDACTED]"}');
      expect(JSON.stringify(e)).not.toContain(btoa(KEY).slice(0, 12));
    },
  },
  {
    name: 'A key inside the URL (a base URL that carries it) is redacted, and the URL stays a valid URI.',
    ex: {
      request: { method: 'GET', url: `http://127.0.0.1:4010/v1/pets?token=${encodeURIComponent(KEY)}` },
      response: ok(200, {}, '[]'),
      startedAt: T0,
      durationMs: 1,
    },
    expect: (e) => {
      expect(e.request.url).toBe('http://127.0.0.1:4010/v1/pets?token=%5BREDACTED%5D');
      expect(e.request.queryString).toEqual([{ name: 'token', value: '[REDACTED]' }]);
    },
  },
];

describe('an exchange as a HAR entry', () => {
  test.each(CASES)('$name', ({ ex, expect: check }) => {
    const e = harEntry(ex, redact, 1024);
    expect(harProblems({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [e] } })).toBe('valid');
    check(e);
  });

  test('The HAR 1.2 schema refuses an entry without its timings, and one whose time is not the sum of its timings.', () => {
    const e = harEntry(CASES[2].ex, redact, 1024);
    const log = (entry: unknown) => ({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] } });
    const { timings: _gone, ...without } = e;
    expect(harProblems(log(without))).not.toBe('valid');
    expect(harProblems(log({ ...e, time: e.time + 5 }))).not.toBe('valid');
    expect(harProblems(log({ ...e, startedDateTime: 'yesterday' }))).not.toBe('valid');
  });
});

describe('a body cut at the cap', () => {
  test.each([
    ['ASCII', 'abcdef', 4, 'abcd'],
    ['a two-byte character across the cap', 'abé', 3, 'ab'],
    ['a four-byte character across the cap', 'a😀b', 4, 'a'],
    ['a four-byte character ending at the cap', 'a😀b', 5, 'a😀'],
    ['a text within the cap', 'é😀', 6, 'é😀'],
  ])('A body is cut on a UTF-8 character boundary, never inside a character: %s.', (_name, text, cap, kept) => {
    const out = cutUtf8(text, cap);
    expect(out).toEqual({ text: kept, cut: kept !== text });
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(cap);
  });
});
