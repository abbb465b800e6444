/**
 * How a finding of the exploration phase (generated inputs) is reproduced, as
 * plain lines every writer shows the same way: which part found it, the seed
 * and fast-check path, how far it was shrunk (first failing request → minimal),
 * for a saved counterexample replayed since when it fails, and the minimal
 * request as a curl line (the key read from its variable, never written) — with,
 * for a rate-limit finding, that it depends on the requests sent before it.
 */
import type { Replay } from '../types.ts';
import { oneLine } from './common.ts';
import { KEY_VARIABLE, shellQuote } from './curl.ts';

const PHASE: Readonly<Record<Replay['phase'], string>> = {
  coverage: 'a coverage case (a boundary or class value of the schema)',
  generated: 'a generated request',
  stateful: 'a pet created and read back',
  replayed: 'a counterexample saved by an earlier run, replayed',
};

/** The minimal request of a counterexample as a curl line. */
export function replayCurl(r: Replay, keyVariable = KEY_VARIABLE): string | undefined {
  if (!r.url) return undefined;
  const parts = ['curl', '-i'];
  if (r.method && r.method !== 'GET') parts.push('-X', shellQuote(r.method));
  parts.push('-H', `"Authorization: Bearer $${keyVariable}"`, '-H', shellQuote('accept: application/json'));
  const body = r.probe?.body;
  if (body !== undefined) parts.push('-H', shellQuote('content-type: application/json'), '--data-raw', shellQuote(body));
  parts.push(shellQuote(r.url));
  return parts.join(' ');
}

/** The lines; `withCurl: false` leaves the curl line out (a writer that shows it as a code block). */
export function replayLines(r: Replay | undefined, keyVariable?: string, withCurl = true): string[] {
  if (!r) return [];
  const how = [
    r.seed !== undefined ? `seed ${r.seed}` : '',
    r.path ? `fast-check path ${r.path}` : '',
    r.shrinks ? `shrunk in ${r.shrinks} step${r.shrinks === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const lines = [`found by the exploration phase: ${PHASE[r.phase]}${how.length ? ` (${how.join(', ')})` : ''}`];
  if (r.firstSeen) lines.push(r.fixed ? `fixed: ${r.signature ?? 'it'} failed since ${r.firstSeen}` : `failing since ${r.firstSeen}`);
  const path = r.shrinkPath ?? [];
  if (path.length > 1)
    lines.push(`shrink path (${path.length} failing requests): ${oneLine(path[0], 140)} → … → ${oneLine(path[path.length - 1], 140)}`);
  const curl = withCurl ? replayCurl(r, keyVariable) : undefined;
  lines.push(curl ? `minimal request: ${curl}` : `minimal request: ${oneLine(r.request, 300)}`);
  if (r.requestsBefore !== undefined)
    lines.push(
      `this request alone may not reproduce it: rate-limit headers depend on the requests sent on the key before it (the run had sent ${r.requestsBefore}, those of its window among them); replay the whole run with ${r.reproduce ?? 'its seed'}`,
    );
  if (r.probe?.kind === 'stateful') lines.push('then read back: GET /pets/{the id of the 201} and the list of its status');
  if (r.probe?.kind === 'stored') lines.push('then: GET /pets?status={its status}&limit=100 must not list it');
  if (r.reproduce) lines.push(`reproduce the whole phase: ${r.reproduce} (against the same server state)`);
  return lines;
}
