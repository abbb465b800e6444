/**
 * The keys one-finding-per-cause groups by (causes.ts): what names a bug first (a requirement's rank), the exchange a
 * finding's evidence records, the request on one line without the base URL (which differs from run to run), the
 * operation's path template, and the stable id of a cause's signature.
 */
import { createHash } from 'node:crypto';
import { documentedStatuses, OPERATION_IDS, OPERATIONS } from '../core/operations.ts';
import type { Evidence } from '../core/sections/define.ts';
import type { Finding } from './types.ts';

const hash = (text: string, n: number) => createHash('sha256').update(text).digest('hex').slice(0, n);

/** What names a bug first: the lower the rank, the more of the response it breaks. */
export function rankOf(requirement: string): number {
  if (requirement.startsWith('TRANSPORT-')) return 0;
  if (requirement === 'RESP-STATUS-DOCUMENTED') return 1;
  if (requirement === 'RESP-BODY-JSON') return 2;
  if (requirement.startsWith('SCHEMA-')) return 3;
  const after = ['RESP-CONTENT-TYPE-JSON', 'ERROR-', 'RL-', 'DEPRECATION-', 'HYGIENE-'];
  const at = after.findIndex((p) => requirement.startsWith(p));
  return at < 0 ? 4 : 5 + at;
}

/** Ranks of what a spec test judges: kept with the primary of its exchange. Above: a property of every response. */
export const SPEC_RANK = 4;

/** The exchange a finding's evidence records, as a key (undefined: none recorded). */
export function exchangeKey(ev: Evidence | undefined): string | undefined {
  if (!ev || (!ev.request && !ev.response && ev.error === undefined)) return undefined;
  const q = ev.request;
  const r = ev.response;
  return JSON.stringify([q?.method, q?.url, q?.body, q?.headers, r?.status, r?.headers, r?.body, ev.error]);
}

/** The URL from the API's own path on ("/pets?limit=5"): the base URL and its port differ from run to run. */
export function relativeUrl(url: string): string {
  let path = url;
  try {
    const u = new URL(url);
    path = `${u.pathname}${u.search}`;
  } catch {
    // a relative or invalid URL: as it is
  }
  const at = path.search(/\/pets(?=[/?]|$)/);
  return at > 0 ? path.slice(at) : path;
}

/** The operation's path template: "/pets" or "/pets/{petId}". */
export function pathTemplate(url: string): string {
  const path = relativeUrl(url).split('?')[0];
  return /^\/pets\/[^/]+$/.test(path) ? '/pets/{petId}' : path;
}

/** "GET /pets?limit=5", or undefined when the finding records no request. */
export function requestLine(f: Finding): string | undefined {
  const q = f.evidence?.request;
  if (q?.url) return `${q.method ?? 'GET'} ${relativeUrl(q.url)}`;
  return f.replay?.url ? `${f.replay.method ?? 'GET'} ${relativeUrl(f.replay.url)}` : undefined;
}

/** The stable id of a signature. */
export function causeId(signature: string): string {
  return `C-${hash(signature, 8).toUpperCase()}`;
}

/** A request key for a finding no producer gave one: its method, relative URL and body. */
export function requestKey(f: Finding): string {
  const body = f.evidence?.request?.body;
  const line = requestLine(f) ?? `${f.requirement} · ${f.title}`;
  return body ? `${line} ${hash(body, 12)}` : line;
}

/** A load scenario's name from a finding's source ("load: ceiling (pro, node engine)" → "ceiling"). */
export function scenarioOf(source: string): string | undefined {
  return /^load: ([\w-]+)/.exec(source)?.[1];
}

/**
 * A success status the operation does not document (createPet answering 200): a wrong status whatever else was found
 * on the response. Undefined for a path that is no operation of the API.
 */
export function undocumentedSuccess(method: string, url: string, status: number): boolean {
  const path = pathTemplate(url);
  const op = OPERATION_IDS.find((id) => OPERATIONS[id].method === method && OPERATIONS[id].path === path);
  return !!op && status >= 200 && status < 300 && !documentedStatuses(op).includes(status);
}
