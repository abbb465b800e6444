/**
 * What the phase establishes about reproducing a finding (attribution.ts decides it): the kinds, and which problems
 * of a page of the list concern the page as a whole. Pure: no request sent here.
 */
import { dependsOnEarlierRequests } from '../core/catalogue.ts';
import type { ApiRequest } from '../http/client.ts';
import type { Finding } from '../results/types.ts';
import type { Probe } from './probe.ts';

export type Attribution =
  /** Replayed alone, it failed the same way again. */
  | { kind: 'alone' }
  /** Replayed alone, it did not fail again: it depends on requests before it. */
  | { kind: 'not-alone' }
  /** Replayed right after the request sent before it, it failed again: that one left the server (or the connection) so. */
  | { kind: 'after-previous'; failing: Probe; before: Probe[] }
  /** The list failed because of pets stored since the same filter's page last passed: these creates, then `failing`. */
  | { kind: 'stored'; failing: Probe; before: Probe[] }
  /** Not checked: a rate-limit finding (its answer depends on the key's window), or no budget left. */
  | { kind: 'unchecked' }
  /**
   * A request with forms HTTP makes equivalent failed, and so did the plain request they spell: the forms are not the
   * cause. The plain request's failures are reported instead (with what reproduces them), not the forms' warning.
   */
  | { kind: 'not-the-forms'; plain: Probe; failures: Finding[]; then?: Attribution };

/** Findings about one pet on a page (its round trip, its presence): the page as a whole is not in question. */
const ABOUT_ONE_PET = new Set([
  'LIST-ROUND-TRIP',
  'LIST-COMPLETE-PAGE',
  'CREATE-400-NOTHING-STORED',
  'INPUT-NUMBER-PRECISION',
  'INPUT-SILENT-HANDLING',
]);

/** A problem of a listPets page as a whole (any but one pet's, any but a rate-limit one). */
export const isPageProblem = (f: Finding): boolean =>
  (f.outcome === 'fail' || f.outcome === 'warn') && !ABOUT_ONE_PET.has(f.requirement) && !dependsOnEarlierRequests(f.requirement);

/** The filter of a list request ('' unfiltered) and its limit (the default page: 20). */
export function listKey(req: ApiRequest): { filter: string; limit: number } {
  const q = req.query ?? {};
  return { filter: q.status ?? '', limit: /^\d+$/.test(q.limit ?? '') ? Number(q.limit) : 20 };
}
