/**
 * How a finding of the exploration phase (generated inputs) is reproduced, as
 * plain lines every writer shows the same way: which part found it, the seed
 * and fast-check path, how far it was shrunk (first failing request → minimal),
 * for a saved counterexample replayed since when it fails, and the minimal
 * request as a curl line (the key read from its variable, never written) — with,
 * for a rate-limit finding, that it depends on the requests sent before it.
 */
import type { Replay, ReplayProbe } from '../types.ts';
import { oneLine } from './common.ts';
import { KEY_VARIABLE, shellQuote } from './curl.ts';
import { credentialArgs, urlWithKey } from './key-shell.ts';

const PHASE: Readonly<Record<Replay['phase'], string>> = {
  coverage: 'a coverage case (a boundary or class value of the schema)',
  generated: 'a generated request',
  stateful: 'a pet created and read back',
  replayed: 'a counterexample saved by an earlier run, replayed',
};

/** One request as a curl line (the key read from its variable, in the spelling the request used). */
function curlOf(method: string | undefined, url: string, p: ReplayProbe | undefined, keyVariable: string): string {
  const parts = ['curl', '-i'];
  if (method && method !== 'GET') parts.push('-X', shellQuote(method));
  if (p?.credential) parts.push(...credentialArgs(p.credential, keyVariable));
  else parts.push('-H', `"Authorization: ${(p?.spelled ?? 'Bearer {key}').replace('{key}', `$${keyVariable}`)}"`);
  const headers: Record<string, string | null> = { accept: 'application/json' };
  if (p?.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, p?.headers ?? {});
  // curl sends its own Accept (*/*) unless told: an empty value removes it.
  for (const [k, v] of Object.entries(headers)) parts.push('-H', shellQuote(v === null ? `${k}:` : `${k}: ${v}`));
  if (p?.body !== undefined) parts.push('--data-raw', shellQuote(p.body));
  parts.push(p?.credential ? urlWithKey(shellQuote(url), keyVariable) : shellQuote(url));
  return parts.join(' ');
}

/** How many of the requests to send first are shown as curl lines (all of them are in certification.json). */
const SHOWN_BEFORE = 5;

/**
 * The request that reproduces a counterexample as curl lines: for a finding that depends on stored state, the requests
 * that stored it first (each on its own line), then the failing one.
 */
export function replayCurl(r: Replay, keyVariable = KEY_VARIABLE): string | undefined {
  if (!r.url) return undefined;
  const last = curlOf(r.method, r.url, r.probe, keyVariable);
  if (!r.before?.length) return last;
  return [...r.before.map((b) => curlOf(b.method, b.url, b.probe, keyVariable)), last].join('\n');
}

/** What was established about reproducing it (replay.ts's `reproduced`), and the request(s) that do. */
function reproductionLines(r: Replay, curl: boolean, keyVariable: string): string[] {
  const last = curl && r.url ? curlOf(r.method, r.url, r.probe, keyVariable) : oneLine(r.request, 300);
  const before = r.before ?? [];
  if (before.length && r.reproduced === 'after-previous')
    return [
      `replayed alone it passed, and right after the request sent before it, it failed again: that request left the server (or the connection) in a state this one fails in; to reproduce it, send`,
      ...before.map((b) => `  first: ${curl ? curlOf(b.method, b.url, b.probe, keyVariable) : oneLine(b.request, 300)}`),
      `  then: ${last}`,
    ];
  if (before.length) {
    const shown = before
      .slice(0, SHOWN_BEFORE)
      .map((b) => `  first: ${curl ? curlOf(b.method, b.url, b.probe, keyVariable) : oneLine(b.request, 300)}`);
    const more =
      before.length > SHOWN_BEFORE
        ? [`  … and ${before.length - SHOWN_BEFORE} more requests like these (every one in certification.json)`]
        : [];
    return [
      `it depends on what the store holds: the same list passed before ${before.length === 1 ? 'this request stored its pet' : `these ${before.length} requests stored their pets (one of them stored what breaks it)`}, and fails since — alone, on a store without ${before.length === 1 ? 'it' : 'them'}, the failing request passes; to reproduce it, send`,
      ...shown,
      ...more,
      `  then: ${last}`,
    ];
  }
  if (r.reproduced === 'not-alone')
    return [
      `failing request: ${last}`,
      `replayed alone, this request did not fail again: it depends on requests sent before it; replay the whole phase with ${r.reproduce ?? 'its seed'}`,
    ];
  return [`${r.reproduced === 'alone' ? 'minimal request (replayed alone, it failed the same way again)' : 'minimal request'}: ${last}`];
}

/** The lines; `withCurl: false` leaves the curl lines out (a writer that shows them as a code block). */
export function replayLines(r: Replay | undefined, keyVariable = KEY_VARIABLE, withCurl = true): string[] {
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
  lines.push(...reproductionLines(r, withCurl, keyVariable));
  if (r.requestsBefore !== undefined)
    lines.push(
      `this request alone may not reproduce it: rate-limit headers depend on the requests sent on the key before it (the run had sent ${r.requestsBefore}, those of its window among them); replay the whole run with ${r.reproduce ?? 'its seed'}`,
    );
  if (r.probe?.kind === 'stateful') lines.push('then read back: GET /pets/{the id of the 201} and the list of its status');
  if (r.probe?.kind === 'stored') lines.push('then: GET /pets?status={its status}&limit=100 must not list it');
  if (r.reproduce) lines.push(`reproduce the whole phase: ${r.reproduce} (against the same server state)`);
  return lines;
}
