/**
 * The rules of "List all animals" (GET /pets), written once: the conformance specs and the exploration's generated,
 * stateful and read-back requests list animals, then call these with what they saw. Pure (bundled for k6).
 */
import { verdict, type Judgement } from '../judgement.ts';
import type { JsonValue } from '../json.ts';
import { answerText, latitudes, type Answer } from './create-pet.ts';
import { describeDifference, differences, fieldsOf, petAt, PET_FIELDS, type PetText } from './pets.ts';

/** The spec's page size: limit 1 to 100, default 20. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The page of a conclusive answer: its array, when it is a 200 with one. */
export const pageOf = (a: Answer): JsonValue[] | undefined => (a.status === 200 && Array.isArray(a.body) ? a.body : undefined);

/** LIST-200-PETS: a valid listPets request is answered 200 with a page. */
export function judgePage(a: Answer, what: string): Judgement {
  return verdict({
    requirement: 'LIST-200-PETS',
    ok: pageOf(a) !== undefined,
    pass: 'Valid query answered 200',
    fail: 'Valid listPets query not answered 200',
    message: `${what}: ${answerText(a)}`,
    evidence: { expected: '200 with Pets', actual: answerText(a) },
  });
}

/** LIST-LIMIT-HONOURED (a limit was sent) or LIST-DEFAULT-LIMIT (none): the page never holds more than asked. */
export function judgePageSize(page: readonly JsonValue[], limit: number | undefined, what: string): Judgement {
  const max = limit ?? DEFAULT_LIMIT;
  return verdict({
    requirement: limit === undefined ? 'LIST-DEFAULT-LIMIT' : 'LIST-LIMIT-HONOURED',
    ok: page.length <= max,
    pass: limit === undefined ? 'Default page within 20' : 'Page within the limit',
    fail: limit === undefined ? 'Default page larger than 20' : 'Page larger than the limit',
    message: `${what}: ${page.length} animals`,
    evidence: { expected: `at most ${max}`, actual: String(page.length) },
  });
}

/** LIST-STATUS-FILTER: a page filtered by status holds only animals of that status. */
export function judgeStatusFilter(page: readonly JsonValue[], status: string, what: string): Judgement {
  const other = page.map((_, i) => petAt(page as JsonValue, `/${i}`)?.status).filter((s) => s !== JSON.stringify(status));
  const kinds = [...new Set(other.map((s) => s ?? '(no status)'))].join(', ');
  return verdict({
    requirement: 'LIST-STATUS-FILTER',
    ok: other.length === 0,
    pass: 'Filtered page holds only that status',
    fail: 'Filtered page holds another status',
    message: other.length ? `${what}: ${other.length} of ${page.length} animals with another status (${kinds})` : `${what}: ${page.length} animals`,
    evidence: { expected: `only ${status}`, actual: kinds },
  });
}

/** What a read of the list may prove about one pet: its page, the page's limit, and the largest page of that limit. */
export interface Listing {
  /** The parsed body itself (its root: exact int64 digits are read through it). */
  page: readonly JsonValue[];
  /** The limit sent (the default when none). */
  limit: number;
  /** The largest page this server has served in the run for that limit (it fills such pages at least that far). */
  largest: number;
  what: string;
}

/**
 * Can the page prove an animal absent? When it is empty (a page of animals shows one when any matches), or shorter
 * than its limit and than the largest page of that limit the server has served: limit is only a maximum — a server
 * may cap its pages, or serve fewer than asked (LIST-LIMIT-FILLS-PAGE warns), but it fills them as far as it did before.
 */
export const provesAbsence = (l: Listing): boolean => l.page.length === 0 || (l.page.length < l.limit && l.page.length < l.largest);

/**
 * A created pet on a page of the list that can show it: found, it has exactly the Pet fields expected (LIST-ROUND-TRIP);
 * missing from a page that proves absence, LIST-COMPLETE-PAGE fails; missing from a full page, nothing is judged.
 */
export function judgeListed(expected: PetText, id: string, l: Listing, written: PetText = {}): Judgement[] {
  // The page is the parsed body's root: exact int64 digits are read through it.
  const root = l.page as JsonValue;
  const at = l.page.findIndex((_, i) => petAt(root, `/${i}`)?.id === id);
  if (at < 0)
    return provesAbsence(l)
      ? [
          verdict({
            requirement: 'LIST-COMPLETE-PAGE',
            ok: false,
            pass: '',
            fail: 'A page that lists every match misses a created pet',
            message: `${l.what}: ${l.page.length ? `${l.page.length} animals (fewer than its limit ${l.limit} and than the ${l.largest} of the largest page of that limit served)` : 'an empty page'}, not pet ${id}`,
            evidence: { expected: `pet ${id} listed`, actual: `${l.page.length} animals without it` },
          }),
        ]
      : [];
  const found = differences({ ...expected, id }, petAt(root, `/${at}`) ?? {}, PET_FIELDS, written);
  const real = found.filter((d) => !d.latitude);
  const diff = real.map((d) => describeDifference(d, written)).join('; ');
  return [
    ...latitudes(found, written, l.what),
    verdict({ requirement: 'LIST-COMPLETE-PAGE', ok: true, pass: 'Created pet found in the list', fail: '', message: `${l.what}: pet ${id}` }),
    verdict({
      requirement: 'LIST-ROUND-TRIP',
      ok: real.length === 0,
      pass: 'Listed pet has exactly the created fields',
      fail: `Listed pet differs from the created one in ${fieldsOf(real)}`,
      message: real.length ? `${diff} — ${l.what}` : `${l.what}: pet ${id}`,
      evidence: { expected: JSON.stringify({ ...expected, id }), actual: diff },
    }),
  ];
}

/** LIST-LIMIT-OUT-OF-RANGE: a limit outside 1..100 or no integer yields neither more than 100 animals nor a 5xx. */
export function judgeOutOfRange(a: Answer, what: string): Judgement {
  const page = pageOf(a);
  const shown = `${answerText(a)}${page ? `, ${page.length} animals` : ''}`;
  return verdict({
    requirement: 'LIST-LIMIT-OUT-OF-RANGE',
    ok: a.status < 500 && (a.status !== 200 || (page !== undefined && page.length <= MAX_LIMIT)),
    pass: 'Out-of-range limit handled',
    fail: a.status >= 500 ? 'Out-of-range limit causes a server error' : 'Out-of-range limit returns more than 100 animals',
    message: `${what}: ${shown}`,
    evidence: { expected: '400 with an Error, or 200 with at most 100 animals', actual: shown },
  });
}

/** LIST-STATUS-UNKNOWN-NO-5XX: a status outside the enumeration is answered without a 5xx. */
export function judgeUnknownStatus(a: Answer, what: string): Judgement {
  return verdict({
    requirement: 'LIST-STATUS-UNKNOWN-NO-5XX',
    ok: a.status < 500,
    pass: 'Unknown status answered without a 5xx',
    fail: 'Unknown status causes a server error',
    message: `${what}: ${answerText(a)}`,
    evidence: { expected: '2xx or 4xx', actual: answerText(a) },
  });
}
