/**
 * The read-backs of the stateful part, as the core's rules judge them: a created pet comes back exactly by its id
 * (GET-ROUND-TRIP) and in the list of its status (LIST-ROUND-TRIP, LIST-COMPLETE-PAGE), and a refused create shows
 * up nowhere (CREATE-400-NOTHING-STORED). Pure: an exchange in, verdicts out.
 */
import type { Judgement } from '../core/sections/define.ts';
import { judgeNothingStored } from '../core/sections/create-pet/rules.ts';
import { refusedListed } from '../core/sections/create-pet/refused.ts';
import { judgeReadBack } from '../core/sections/get-pet/rules.ts';
import { judgeListed, pageOf, provesAbsence, type Listing } from '../core/sections/list-pets/rules.ts';
import { differences, expectedAfterCreate, sentPet, type PetText, type SentPet } from '../core/sections/pets.ts';
import type { ApiExchange } from '../http/client.ts';
import { answerOf } from '../harness/ops.ts';
import type { Probe } from './probe.ts';

/** A pet the phase created: the request, the id the 201 gave and the 201 body's Pet fields. */
export interface Created {
  probe: Probe;
  id: string;
  created: PetText;
}

/**
 * The reading of a created pet's request that the server took: its only one, or — when the request had several (a
 * member given twice) — the one its 201 showed (the first, when the 201 matches none).
 */
export function takenReading(c: Created): SentPet | undefined {
  const texts = c.probe.readings ?? (c.probe.body !== undefined ? [c.probe.body] : []);
  const readings = texts.map(sentPet).filter((x) => x !== undefined);
  const fields = ['name', 'categoryId', 'status'] as const;
  const shows = (r: SentPet) =>
    !differences(
      r.fields,
      c.created,
      fields.filter((f) => r.fields[f] !== undefined),
      r.written,
    ).some((d) => !d.latitude);
  return readings.length > 1 ? (readings.find(shows) ?? readings[0]) : readings[0];
}

/** What a read of a created pet must show: the pet as created, and how the reading the server took wrote its numbers. */
function expectation(c: Created): { expected: PetText; written: PetText } {
  const taken = takenReading(c);
  return taken ? { expected: expectedAfterCreate(taken, c.created), written: taken.written } : { expected: c.created, written: {} };
}

/** GET-ROUND-TRIP: the created pet, read back by its id. */
export function readBack(c: Created, ex: ApiExchange): Judgement[] {
  const a = answerOf(ex);
  if (!a || a.status === 401 || a.status === 429) return [];
  const { expected, written } = expectation(c);
  return judgeReadBack(a, { id: c.id, expected, origin: `created by ${c.probe.label}`, written });
}

/** The listing a 200 page of `ex` offers (undefined for any other answer). */
export function listingOf(ex: ApiExchange, limit: number, largest: number, what: string): Listing | undefined {
  const a = answerOf(ex);
  const page = a && pageOf(a);
  return page ? { page, limit, largest, what } : undefined;
}

/** LIST-ROUND-TRIP and LIST-COMPLETE-PAGE: the created pet on a page of its status's list. */
export function listedBack(c: Created, l: Listing): Judgement[] {
  const { expected, written } = expectation(c);
  return judgeListed(expected, c.id, l, written);
}

/** CREATE-400-NOTHING-STORED on one page: refused creates listed (by their unique names), or a page proving them absent. */
export function storedVerdicts(l: Listing, probes: readonly Probe[], status?: string): { verdicts: Judgement[]; hit?: Probe } {
  const names = new Map(probes.map((p) => [p.name, p]));
  const found = refusedListed(
    l.page,
    [...names.keys()].filter((n): n is string => n !== undefined),
  );
  const hit = found.length ? names.get(found[0]) : undefined;
  if (!hit && !provesAbsence(l)) return { verdicts: [] };
  const example = hit && { name: found[0], why: hit.why };
  const claim = judgeNothingStored({ listed: found.length, refused: probes.length, ...(example ? { example } : {}), status });
  return { verdicts: [claim], ...(hit ? { hit } : {}) };
}
