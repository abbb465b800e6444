/**
 * Methods a path does not take, OPTIONS and HEAD (issue 39). The reference server answers as RFC 9110 asks:
 * HEAD as GET (§9.3.2), a method a path does not take 405 with `Allow` (§15.5.6) and an Error body, OPTIONS 204 with
 * `Allow` (§9.3.7), a path no operation has 404 — all after authentication. Variants move the router before
 * authentication (404/405 with or without a key), answer a CORS preflight or any OPTIONS without credentials (204, or
 * Express's 200 with a text body), refuse HEAD with 405, serve a trailing slash, answer 400 for ids that are not int64.
 * Faults break one of these each.
 */
import type { ErrorFactory } from './errors.ts';
import type { Has } from './faults.ts';
import type { Reply } from './reply.ts';
import { allowedAt, type Routing } from './router.ts';
import type { Variants } from './options.ts';

/** How the router reads requests under these variants. */
export const routingOf = (v: Variants): Routing => ({ head: v.head === 'get', trailingSlash: v.trailingSlash });

/** A CORS preflight (Fetch standard): OPTIONS with Origin and Access-Control-Request-Method; it carries no credentials. */
export const isPreflight = (method: string, header: (name: string) => string | undefined) =>
  method === 'OPTIONS' && header('origin') !== undefined && header('access-control-request-method') !== undefined;

/** The preflight's answer (variant cors): 204 with the CORS headers, before authentication. */
export function preflightReply(pathname: string, v: Variants, header: (name: string) => string | undefined): Reply | undefined {
  const allow = v.cors ? allowedAt(pathname, routingOf(v)) : undefined;
  if (!allow || !isPreflight('OPTIONS', header)) return undefined;
  return {
    status: 204,
    body: '',
    bare: true,
    headers: {
      'Access-Control-Allow-Origin': header('origin')!,
      'Access-Control-Allow-Methods': allow.join(', '),
      'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    },
  };
}

/**
 * Variant options=open|express: OPTIONS answered before authentication — 204 with Allow, or as Express's router answers
 * a path with no OPTIONS route (`res.set('Allow', list); res.send(list)`): 200, Allow, the list as text/html, no
 * OPTIONS in it. Undefined: another method, a path no operation has, or OPTIONS after authentication (the default).
 */
export function openOptionsReply(method: string, pathname: string, v: Variants): Reply | undefined {
  const allow = method === 'OPTIONS' && v.options !== 'after-auth' ? allowedAt(pathname, routingOf(v)) : undefined;
  if (!allow) return undefined;
  if (v.options === 'open') return { status: 204, body: '', bare: true, headers: { Allow: allow.join(', ') } };
  const list = allow.filter((m) => m !== 'OPTIONS').join(',');
  return { status: 200, body: list, contentType: 'text/html; charset=utf-8', bare: true, headers: { Allow: list } };
}

/** A request no route serves: OPTIONS 204 with Allow, 405 with Allow, or 404 when no operation has the path. */
export function unroutedReply(
  { method, pathname }: { method: string; pathname: string },
  v: Variants,
  error: ErrorFactory,
  has: Has,
): Reply {
  const allow = allowedAt(pathname, routingOf(v));
  if (!allow) return error('not_found', `${method} ${pathname}`);
  if (method === 'OPTIONS') return { status: 204, body: '', headers: { Allow: allow.join(', ') } };
  // Fault method-405-bare: the framework's own 405 — text/plain, no Allow, no Error body, none of the app's headers.
  if (has('method-405-bare')) return { status: 405, body: 'Method Not Allowed', contentType: 'text/plain', bare: true };
  // Fault method-405-allow-partial: the Allow of the first route matching the path only.
  const listed = has('method-405-allow-partial') ? allow.slice(0, 1) : allow;
  return error('method_not_allowed', `${method} ${pathname}; allowed: ${listed.join(', ')}`, { Allow: listed.join(', ') });
}

/** Fault undocumented-delete-no-auth: a DELETE route nobody documented, served before authentication. */
export function undocumentedDelete(method: string, pathname: string, has: Has): Reply | undefined {
  if (!has('undocumented-delete-no-auth') || method !== 'DELETE' || !/^\/v1\/pets\/[^/]+$/.test(pathname)) return undefined;
  return { status: 204, body: '', bare: true };
}

/**
 * Fault head-always-200: HEAD answered by an existence check of its own, after the key, that looks nothing up: 200.
 * Fault head-ignores-query: HEAD of the collection answered by a route that reads no query: 200 whatever the limit.
 */
export function headAlways200(method: string, operation: string, has: Has): Reply | undefined {
  if (method !== 'HEAD') return undefined;
  const always = has('head-always-200') && (operation === 'getPet' || operation === 'listPets');
  return always || (has('head-ignores-query') && operation === 'listPets') ? { status: 200, body: '' } : undefined;
}
