/**
 * The rules of "Get an animal" (GET /pets/{petId}, deprecated), written once: the conformance specs and the
 * exploration's generated and stateful requests read a pet, then call these with what they saw. Pure (bundled for k6).
 */
import type { Judgement } from '../define.ts';
import { GET_PET } from './requirements.ts';
import { answerText, latitudes, type Answer } from '../create-pet/rules.ts';
import { describeDifference, differences, fieldsOf, petAt, PET_FIELDS, type PetText } from '../pets.ts';

/** A pet read back by its id: the pet expected and where it came from (`origin`), as the message says it. */
export interface ReadBack {
  id: string;
  /** The pet as created (see expectedAfterCreate) or as listed. */
  expected: PetText;
  origin: string;
  /** How the request that created it wrote its numbers (a change an RFC allows warns instead, under its own requirement). */
  written?: PetText;
}

/** GET-ROUND-TRIP: a pet read back by its id has exactly the Pet fields expected, id digits included. */
export function judgeReadBack(a: Answer, { id, expected, origin, written = {} }: ReadBack): Judgement[] {
  const shown = `GET /pets/${id} (${origin})`;
  if (a.status !== 200)
    return [
      GET_PET.judge('GET-ROUND-TRIP', {
        ok: false,
        fail: a.status === 404 ? 'notFound' : 'notRead',
        message: `${shown}: ${answerText(a)}`,
        evidence: { expected: '200 with the pet', actual: answerText(a) },
      }),
    ];
  const found = differences({ ...expected, id }, petAt(a.body) ?? {}, PET_FIELDS, written);
  const real = found.filter((d) => !d.latitude);
  const diff = real.map((d) => describeDifference(d, written)).join('; ');
  return [
    ...latitudes(found, written, shown),
    GET_PET.judge('GET-ROUND-TRIP', {
      ok: real.length === 0,
      args: { fields: fieldsOf(real) },
      message: real.length ? `${diff} — ${shown}` : shown,
      evidence: { expected: JSON.stringify({ ...expected, id }), actual: diff },
    }),
  ];
}

/**
 * GET-ROUND-TRIP not judged: the list gave no pet to read back (`listed` false), or one without an integer id.
 */
export function judgeNothingToReadBack(listed: boolean): Judgement {
  return GET_PET.judge('GET-ROUND-TRIP', {
    outcome: 'skip',
    title: 'not-judged',
    message: listed ? 'the listed pet has no integer id' : 'the list returned no pet to fetch',
  });
}

/**
 * GET-404-UNKNOWN: an id no pet has is answered 404. A generated id may be one the server issued: a 200 is then
 * judged only as the pet asked for (`digits`) — unless the id is `surelyUnknown` (a second far-off id answered 200 too).
 */
export function judgeUnknownId(digits: string, a: Answer, shown: string, surelyUnknown = false): Judgement {
  const got = a.status === 200 ? petAt(a.body)?.id : undefined;
  const other = a.status === 200 && got !== digits;
  const ok = a.status === 404 || (a.status === 200 && !other && !surelyUnknown);
  const actual = `${answerText(a)}${other ? ` with id ${got ?? '(none)'}` : ''}`;
  return GET_PET.judge('GET-404-UNKNOWN', {
    ok,
    pass: a.status === 404 ? 'pass' : 'same',
    fail: other ? 'other' : 'fail',
    message: `${shown}: ${actual}`,
    evidence: { expected: surelyUnknown ? '404' : `404, or the pet with id ${digits}`, actual },
  });
}

/** GET-NON-INTEGER-ID-4XX: a petId that is no int64 is refused with a 4xx, never a 5xx. */
export function judgeNonIntegerId(a: Answer, shown: string): Judgement {
  const ok = a.status >= 400 && a.status < 500;
  return GET_PET.judge('GET-NON-INTEGER-ID-4XX', {
    ok,
    fail: a.status >= 500 ? 'serverError' : 'fail',
    message: `${shown}: ${answerText(a)}`,
    evidence: { expected: '4xx', actual: answerText(a) },
  });
}

/**
 * A petId outside int64 (a held id shifted by 2^64, say): no animal can have it, so a 200 is another animal
 * (GET-404-UNKNOWN, "Another pet returned for an id": an id parsed with its overflow ignored); any other answer is
 * judged as a petId that is no int64 (GET-NON-INTEGER-ID-4XX: a 4xx, never a 5xx).
 */
export function judgeIdOutsideInt64(digits: string, a: Answer, shown: string): Judgement {
  if (a.status < 200 || a.status >= 300) return judgeNonIntegerId(a, shown);
  const got = petAt(a.body)?.id;
  const actual = `${answerText(a)} with id ${got ?? '(none)'}`;
  return GET_PET.judge('GET-404-UNKNOWN', {
    ok: false,
    fail: 'other',
    message: `${shown}: ${actual}`,
    evidence: { expected: `4xx: ${digits} is outside int64, no animal has it`, actual },
  });
}

/** GET-404-UNKNOWN and GET-NON-INTEGER-ID-4XX not judged: the first page of listPets gave no id to shift. */
export const judgeNothingToShift = (): Judgement[] =>
  (['GET-404-UNKNOWN', 'GET-NON-INTEGER-ID-4XX'] as const).map((id) =>
    GET_PET.judge(id, { outcome: 'skip', title: 'not-judged', message: 'the first page of listPets gave no id to shift' }),
  );
