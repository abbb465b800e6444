/**
 * Faults in how the key is read (issue 39): each lets in a request the spec says must get 401. The key is read from
 * the Authorization header as a Bearer token, compared exactly; these read it from elsewhere or compare it loosely.
 */
import type { Has } from './faults.ts';
import type { KeyInfo } from './keys.ts';

/** Query parameters and headers frameworks read API keys from (fault key-from-query, key-from-header). */
export const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'key', 'token'] as const;
export const KEY_HEADERS = ['x-api-key', 'api-key', 'apikey'] as const;

const bearer = (token: string) => `Bearer ${token}`;

/** The key of a Basic credential's user or password, if either is one (fault basic-password-key). */
function basicKey(header: string, keys: Map<string, KeyInfo>): string | undefined {
  const m = /^\s*basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const parts = colon < 0 ? [decoded] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return parts.find((p) => keys.has(p));
}

/** A cookie's value by name. */
const cookie = (header: string | undefined, name: string) =>
  header
    ?.split(';')
    .map((c) => c.trim().split('='))
    .find(([n]) => n === name)?.[1];

/**
 * The Authorization header as a faulty server reads it: from a query parameter, a header or a cookie when none is
 * sent, from a Basic credential's user or password; unchanged without these faults.
 */
export function credentialRead(
  { url, header }: { url: URL; header: (name: string) => string | undefined },
  keys: Map<string, KeyInfo>,
  has: Has,
): string | undefined {
  const authorization = header('authorization');
  if (authorization !== undefined && authorization.trim() !== '') {
    const basic = has('basic-password-key') ? basicKey(authorization, keys) : undefined;
    return basic !== undefined ? bearer(basic) : authorization;
  }
  if (has('key-from-query')) {
    const found = KEY_QUERY_PARAMS.map((p) => url.searchParams.get(p)).find((v) => v);
    if (found) return bearer(found);
  }
  if (has('access-token-query-accepted')) {
    const token = url.searchParams.get('access_token');
    if (token) return bearer(token);
  }
  if (has('key-from-header')) {
    const found = [...KEY_HEADERS.map((h) => header(h)), cookie(header('cookie'), 'api_key')].find((v) => v);
    if (found) return bearer(found);
  }
  return authorization;
}

/** The token of a Bearer credential as a faulty server reads it: its first word (fault token-unanchored). */
export const tokenRead = (token: string, has: Has) => (has('token-unanchored') ? (/^\S+/.exec(token)?.[0] ?? token) : token);

/** The key a token names when keys are compared without case (fault key-case-insensitive). */
export function keyIgnoringCase(keys: Map<string, KeyInfo>, token: string, has: Has): KeyInfo | undefined {
  if (!has('key-case-insensitive')) return undefined;
  const lower = token.toLowerCase();
  for (const info of keys.values()) if (info.key.toLowerCase() === lower) return info;
  return undefined;
}
