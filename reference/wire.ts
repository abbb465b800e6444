/**
 * Variants of how a reply goes on the wire: unusual but valid HTTP framing and
 * headers a real server may show. Each is valid per HTTP, so the suite must never
 * fail a server using it; each is valid per the spec too, and certified with no
 * warning, except contentType 'problem': error bodies labelled
 * application/problem+json depart from the spec's "application/json", which
 * RESP-CONTENT-TYPE-JSON reports as a warning (passed, incomplete; not certified).
 */

export interface WireVariants {
  /**
   * 'charset': `application/json; charset=utf-8` on every response (a media-type
   * parameter; still application/json). 'problem': that on successes, and
   * `application/problem+json` (RFC 9457) on error responses, whose body is
   * still the spec's Error (code, message, status) plus the RFC 9457 members
   * `type` and `title` — the +json suffix says the body is JSON (RFC 6839 §3.1).
   */
  contentType?: 'charset' | 'problem';
  /** 401s carry `WWW-Authenticate: Bearer realm="animal-store"` (RFC 9110 §11.6.1 wants a challenge on a 401; RFC 6750 §3). */
  wwwAuthenticate?: boolean;
  /** No Date header (RFC 9110 §6.6.1: an origin without a clock must not send one). */
  noDate?: boolean;
  /** `Connection: close` on every response and the body sent chunked, without Content-Length (RFC 9112 §6.1, §9.6). */
  chunkedClose?: boolean;
  /**
   * Header names in unusual case (all lower or all upper; RFC 9110 §5.1: names
   * are case-insensitive), plus the headers servers and proxies commonly add:
   * ETag, Cache-Control: no-store, Vary, X-Request-Id, and the IETF draft
   * RateLimit-Policy / RateLimit fields next to X-RateLimit-*.
   */
  oddHeaders?: boolean;
  /** JSON written with whitespace (`", "`, `": "`, a trailing newline): insignificant per RFC 8259 §2. */
  prettyJson?: boolean;
  /** Bodies in the content coding the request's Accept-Encoding prefers (gzip, br, deflate), Vary: Accept-Encoding (RFC 9110 §12.5.3). */
  compress?: boolean;
  /**
   * A connection serves at most this many requests, the last answered `Connection: close` (RFC 9112 §9.6; nginx's
   * keepalive_requests, Node's server.maxRequestsPerSocket). A socket's matter: in process it changes nothing.
   */
  maxRequestsPerConnection?: number;
}

export interface WireMessage {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Send without Content-Length (chunked). */
  chunked: boolean;
}

/** Whitespace between JSON tokens (outside strings): `,` → `, `, `:` → `: `, and a trailing newline. */
export function spacedJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    out += ch;
    if (inString) {
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === ',' || ch === ':') out += ' ';
  }
  return `${out}\n`;
}

/** RFC 9457 members added to an Error body sent as application/problem+json. */
function asProblem(body: string, status: number): string {
  try {
    const v = JSON.parse(body) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return body;
    return JSON.stringify({ type: 'about:blank', title: `HTTP ${status}`, ...v });
  } catch {
    return body;
  }
}

function weakEtag(body: string): string {
  let h = 2166136261;
  for (let i = 0; i < body.length; i++) h = Math.imul(h ^ body.charCodeAt(i), 16777619) >>> 0;
  return `W/"${h.toString(16)}-${body.length.toString(16)}"`;
}

let requestCounter = 0;

/** A reply before the variants: its status, headers and body text; `isJson`: the body is the server's own JSON. */
export interface PlainMessage {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
  isJson: boolean;
}

/** The message as the variants put it on the wire. */
export function wireMessage({ status, headers, bodyText, isJson }: PlainMessage, w: WireVariants): WireMessage {
  let h: Record<string, string> = { ...headers };
  let text = bodyText;
  const error = status >= 400;
  if (isJson && w.contentType) {
    const problem = w.contentType === 'problem' && error;
    if (problem) text = asProblem(text, status);
    h['Content-Type'] = problem ? 'application/problem+json' : 'application/json; charset=utf-8';
  }
  // A response without content (OPTIONS's 204) stays without: a 204 carries no body (RFC 9110 §15.3.5).
  if (isJson && w.prettyJson && text !== '') text = spacedJson(text);
  if (w.wwwAuthenticate && status === 401) h['WWW-Authenticate'] = 'Bearer realm="animal-store"';
  if (w.noDate) delete h.Date;
  if (w.chunkedClose) h.Connection = 'close';
  if (w.oddHeaders) {
    h.ETag = weakEtag(text);
    h['Cache-Control'] = 'no-store';
    h.Vary = 'Authorization, Accept';
    h['X-Request-Id'] = `req-${++requestCounter}`;
    const limit = h['X-RateLimit-Limit'];
    const remaining = h['X-RateLimit-Remaining'];
    if (limit !== undefined && remaining !== undefined) {
      h['RateLimit-Policy'] = `"default";q=${limit};w=60`;
      h.RateLimit = `"default";r=${remaining}`;
    }
    const renamed: Record<string, string> = {};
    let i = 0;
    for (const [k, v] of Object.entries(h)) renamed[i++ % 2 ? k.toUpperCase() : k.toLowerCase()] = v;
    h = renamed;
  }
  return { status, headers: h, body: Buffer.from(text, 'utf8'), chunked: w.chunkedClose === true };
}
