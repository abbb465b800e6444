/**
 * A response body read as its Content-Encoding declares (RFC 9110 §8.4): gzip (and x-gzip), deflate (the zlib format;
 * the raw deflate some servers send is read too, as browsers do), br, identity — each coding applied in turn, last
 * first — and never more than the transport's cap of decoded bytes (a small body that inflates without end is cut
 * there, as a body too large). A coding the suite cannot decode (zstd, compress, an unknown one) is said, not guessed.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

export interface Decoded {
  /** The decoded body as UTF-8 text (JSON's encoding, RFC 8259 §8.1). */
  text: string;
  /** Decoded bytes. */
  bytes: number;
  /** The codings applied, in the order the server applied them (identity left out). */
  codings: string[];
  /** Why the body could not be decoded (an unknown coding, corrupt data). */
  error?: string;
  /** The decoded body would exceed the cap. */
  tooLarge?: boolean;
}

const DECODERS: Readonly<Record<string, (b: Buffer, max: number) => Buffer>> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
  deflate: (b, max) => {
    try {
      return inflateSync(b, { maxOutputLength: max });
    } catch (e) {
      if (e instanceof RangeError) throw e;
      return inflateRawSync(b, { maxOutputLength: max });
    }
  },
};

/** The codings of a Content-Encoding value, in the order applied (identity left out). */
export const codingsOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');

/** The body `raw` decoded as `contentEncoding` says, at most `cap` bytes of it. */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined, cap: number): Decoded {
  const codings = codingsOf(contentEncoding);
  let body = raw;
  for (const c of [...codings].reverse()) {
    const decode = DECODERS[c];
    if (!decode)
      return {
        text: '',
        bytes: 0,
        codings,
        error: `the body is in the content coding ${JSON.stringify(c)}, which the suite does not decode`,
      };
    try {
      body = decode(body, cap);
    } catch (e) {
      if (e instanceof RangeError || (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        return { text: '', bytes: cap, codings, tooLarge: true, error: `the body decoded from ${c} exceeds the ${cap}-byte cap` };
      return { text: '', bytes: 0, codings, error: `the body does not decode as ${c}: ${(e as Error).message}` };
    }
  }
  return { text: body.toString('utf8'), bytes: body.length, codings };
}
