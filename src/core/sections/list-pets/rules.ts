/**
 * The rules of "List all animals" (GET /pets), written once: the conformance specs and the exploration's generated,
 * stateful and read-back requests list animals, then call these with what they saw. Pure (bundled for k6).
 */
import type { Judgement } from '../define.ts';
import { LIST_PETS } from './requirements.ts';
import type { JsonValue } from '../../json.ts';
import { answerText, latitudes, type Answer } from '../create-pet/rules.ts';
import { describeDifference, differences, fieldsOf, idsOf, petAt, PET_FIELDS, type PetText } from '../pets.ts';

/** The spec's page size: limit 1 to 100, default 20. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The page of a conclusive answer: its array, when it is a 200 with one. */
export const pageOf = (a: Answer): JsonValue[] | undefined => (a.status === 200 && Array.isArray(a.body) ? a.body : undefined);

/** LIST-200-PETS: a valid listPets request is answered 200 with a page. */
export function judgePage(a: Answer, what: string): Judgement {
  return LIST_PETS.judge('LIST-200-PETS', {
    ok: pageOf(a) !== undefined,
    message: `${what}: ${answerText(a)}`,
    evidence: { expected: '200 with Pets', actual: answerText(a) },
  });
}

/** LIST-LIMIT-HONOURED (a limit was sent) or LIST-DEFAULT-LIMIT (none): the page never holds more than asked. */
export function judgePageSize(page: readonly JsonValue[], limit: number | undefined, what: string): Judgement {
  const max = limit ?? DEFAULT_LIMIT;
  return LIST_PETS.judge(limit === undefined ? 'LIST-DEFAULT-LIMIT' : 'LIST-LIMIT-HONOURED', {
    ok: page.length <= max,
    message: `${what}: ${page.length} animals`,
    evidence: { expected: `at most ${max}`, actual: String(page.length) },
  });
}

/**
 * LIST-LIMIT-FILLS-PAGE: a page of `limit` holds as many animals as it may when at least `known` exist (the largest
 * page seen so far): min(limit, known). Undefined while no animal is known to exist.
 */
export function judgeFillsPage(page: readonly JsonValue[], { limit, known }: { limit: number; known: number }): Judgement | undefined {
  if (known <= 0) return undefined;
  const n = page.length;
  const want = Math.min(limit, known);
  const full = n >= want;
  return LIST_PETS.judge('LIST-LIMIT-FILLS-PAGE', {
    ok: full,
    args: { limit },
    message: full
      ? `limit=${limit} returned ${n} animals: a full page, as at least ${known} exist`
      : `limit=${limit} returned only ${n} animals although at least ${known} exist`,
    evidence: full ? undefined : { expected: `${want}`, actual: String(n) },
  });
}

/** LIST-STATUS-FILTER: a page filtered by status holds only animals of that status. */
export function judgeStatusFilter(page: readonly JsonValue[], status: string, what: string): Judgement {
  const other = page.map((_, i) => petAt(page as JsonValue, `/${i}`)?.status).filter((s) => s !== JSON.stringify(status));
  const kinds = [...new Set(other.map((s) => s ?? '(no status)'))].join(', ');
  return LIST_PETS.judge('LIST-STATUS-FILTER', {
    ok: other.length === 0,
    message: other.length
      ? `${what}: ${other.length} of ${page.length} animals with another status (${kinds})`
      : `${what}: ${page.length} animals`,
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
  const at = idsOf(l.page).indexOf(id);
  if (at < 0)
    return provesAbsence(l)
      ? [
          LIST_PETS.judge('LIST-COMPLETE-PAGE', {
            ok: false,
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
    LIST_PETS.judge('LIST-COMPLETE-PAGE', { ok: true, message: `${l.what}: pet ${id}` }),
    LIST_PETS.judge('LIST-ROUND-TRIP', {
      ok: real.length === 0,
      args: { fields: fieldsOf(real) },
      message: real.length ? `${diff} — ${l.what}` : `${l.what}: pet ${id}`,
      evidence: { expected: JSON.stringify({ ...expected, id }), actual: diff },
    }),
  ];
}

/** LIST-LIMIT-OUT-OF-RANGE: a limit outside 1..100 or no integer yields neither more than 100 animals nor a 5xx. */
export function judgeOutOfRange(a: Answer, what: string): Judgement {
  const page = pageOf(a);
  const shown = `${answerText(a)}${page ? `, ${page.length} animals` : ''}`;
  return LIST_PETS.judge('LIST-LIMIT-OUT-OF-RANGE', {
    ok: a.status < 500 && (a.status !== 200 || (page !== undefined && page.length <= MAX_LIMIT)),
    fail: a.status >= 500 ? 'server-error' : 'too-many',
    message: `${what}: ${shown}`,
    evidence: { expected: '400 with an Error, or 200 with at most 100 animals', actual: shown },
  });
}

/**
 * LIST-LIMIT-OUT-OF-RANGE-HANDLING, observed: whether an out-of-range limit (`what`, e.g. `limit="0"`) was clamped or
 * ignored (200, with how many animals) or rejected (any other status). The spec documents no 400 for listPets.
 */
export function judgeOutOfRangeHandling(a: Answer, what: string): Judgement {
  const n = Array.isArray(a.body) ? a.body.length : undefined;
  return LIST_PETS.judge('LIST-LIMIT-OUT-OF-RANGE-HANDLING', {
    outcome: 'observe',
    title: 'observed',
    message: `${what} → ${a.status === 200 ? `200 (clamped/ignored, ${n} animals)` : `${a.status} (rejected)`}`,
  });
}

/** LIST-PAGINATION-CONTROLS, observed: a page's Link header and its paging headers (X-Total…, X-Next…, X-Page…, X-Cursor…). */
export function judgePaginationControls(headers: Readonly<Record<string, string>>): Judgement {
  const link = headers.link;
  const other = Object.keys(headers).filter((h) => /^x-(total|next|page|cursor)/i.test(h));
  return LIST_PETS.judge('LIST-PAGINATION-CONTROLS', {
    outcome: 'observe',
    title: 'observed',
    message: link || other.length ? `Link: ${link ?? '-'}; headers: ${other.join(', ') || '-'}` : 'no Link or paging headers on the page',
  });
}

/** LIST-STATUS-UNKNOWN-NO-5XX: a status outside the enumeration is answered without a 5xx. */
export function judgeUnknownStatus(a: Answer, what: string): Judgement {
  return LIST_PETS.judge('LIST-STATUS-UNKNOWN-NO-5XX', {
    ok: a.status < 500,
    message: `${what}: ${answerText(a)}`,
    evidence: { expected: '2xx or 4xx', actual: answerText(a) },
  });
}
