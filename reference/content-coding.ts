/**
 * Content codings of the reference server's responses (RFC 9110 §8.4, §12.5.3): the valid variant `compress` answers
 * in the coding the request's Accept-Encoding prefers among gzip, br and deflate (q-values honoured, identity when it
 * names none of them), with Vary: Accept-Encoding; the fault gzip-unasked answers gzip whatever the request accepts.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Has } from './faults.ts';

const CODERS: Readonly<Record<string, (b: Buffer) => Buffer>> = {
  gzip: (b) => gzipSync(b),
  'x-gzip': (b) => gzipSync(b),
  br: (b) => brotliCompressSync(b),
  deflate: (b) => deflateSync(b),
};

/** The codings an Accept-Encoding value accepts, best first (q > 0; a coding named twice keeps its first weight). */
export function acceptedCodings(value: string | undefined): string[] {
  if (value === undefined) return [];
  const items = value
    .split(',')
    .map((part) => {
      const [name, ...params] = part.split(';').map((x) => x.trim());
      const q = params.map((p) => /^q\s*=\s*([\d.]+)$/i.exec(p)?.[1]).find((x) => x !== undefined);
      // x-gzip is gzip (RFC 9110 §8.4.1.3).
      const n = name.toLowerCase();
      return { name: n === 'x-gzip' ? 'gzip' : n, q: q === undefined ? 1 : Number(q) };
    })
    .filter((it) => it.name !== '');
  const star = items.find((it) => it.name === '*');
  // A coding named twice with two weights: its first weight.
  const first = items.filter((it, i) => items.findIndex((o) => o.name === it.name) === i);
  const named = first.filter((it) => it.name in CODERS && it.q > 0);
  const fromStar =
    star && star.q > 0 ? ['gzip'].filter((c) => !items.some((it) => it.name === c)).map((name) => ({ name, q: star.q })) : [];
  return [...named, ...fromStar].sort((a, b) => b.q - a.q).map((it) => it.name);
}

/** The coding a response is sent in (undefined: identity). */
export function codingFor(acceptEncoding: string | undefined, o: { compress?: boolean; has: Has }): string | undefined {
  if (o.has('gzip-unasked')) return 'gzip';
  return o.compress ? acceptedCodings(acceptEncoding)[0] : undefined;
}

/** The body in `coding`. */
export const encode = (coding: string, body: Buffer): Buffer => CODERS[coding](body);
