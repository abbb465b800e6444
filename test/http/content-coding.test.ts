/**
 * A response is read as its Content-Encoding declares (RFC 9110 §8.4): gzip, x-gzip, deflate (zlib, or raw as some
 * servers send it), br, several codings in the order applied — decoded to at most the transport's cap (a small body
 * that inflates without end is cut, as too large); a coding the suite cannot decode, or corrupt data, is said. And a
 * coding is acceptable when the request's Accept-Encoding accepts it (none: any, §12.5.3).
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { decodeBody } from '../../src/http/content-coding.ts';
import { readBody } from '../../src/http/transport.ts';
import { acceptsCoding as accepts } from '../../src/core/sections/responses/rules.ts';

const json = Buffer.from('{"name":"Ñandú 🐶","categoryId":7}');

describe('decoding', () => {
  test.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['deflate', deflateRawSync(json)],
    ['br', brotliCompressSync(json)],
    ['gzip, br', brotliCompressSync(gzipSync(json))],
    ['identity', json],
  ])('A body in %s is decoded to its UTF-8 text.', (coding, raw) => {
    expect(decodeBody(raw, coding, 1 << 20)).toMatchObject({ text: json.toString('utf8'), bytes: json.length });
  });

  test('A body that inflates beyond the cap is cut there: too large, as a body over the cap is.', () => {
    const bomb = gzipSync(Buffer.alloc(5 << 20, 32));
    expect(bomb.length).toBeLessThan(10_000);
    const d = decodeBody(bomb, 'gzip', 1 << 20);
    expect(d.tooLarge).toBe(true);
    const res = readBody(bomb, { status: 200, headers: { 'content-encoding': 'gzip' }, cap: 1 << 20 });
    expect(res.truncated).toBe(true);
  });

  test.each([
    ['zstd', json, /does not decode/],
    ['gzip', Buffer.from('not gzip'), /does not decode as gzip/],
  ])('A body in %s that cannot be decoded says why (RESP-BODY-JSON reports it).', (coding, raw) => {
    const res = readBody(raw, { status: 200, headers: { 'content-encoding': coding }, cap: 1 << 20 });
    expect(res.coding?.error).toMatch(coding === 'zstd' ? /content coding "zstd"/ : /does not decode as gzip/);
    expect(res.bodyText).toBe('');
  });

  test('A body without Content-Encoding is read as it came, with no coding recorded.', () => {
    expect(readBody(json, { status: 200, headers: {}, cap: 1 << 20 })).toEqual({
      status: 200,
      headers: {},
      bodyText: json.toString('utf8'),
      bodyBytes: json.length,
      truncated: false,
    });
  });
});

describe('acceptable codings (RFC 9110 §12.5.3)', () => {
  test.each([
    [undefined, 'gzip', true],
    ['gzip, deflate', 'gzip', true],
    ['gzip, deflate', 'x-gzip', true],
    ['deflate', 'gzip', false],
    ['identity', 'gzip', false],
    ['', 'gzip', false],
    ['*', 'br', true],
    ['*;q=0, gzip', 'br', false],
    ['gzip;q=0, *', 'gzip', false],
    ['GZIP ; q=0.5', 'gzip', true],
    ['gzip;q=0, gzip', 'gzip', true],
    ['deflate;q=0, deflate, gzip', 'deflate', true],
  ])('Accept-Encoding %j accepts %s: %s.', (header, coding, ok) => {
    expect(accepts(header, coding)).toBe(ok);
  });
});
