/**
 * The rules of "Add an animal" (POST /pets), written once: every phase that creates a pet — the conformance specs,
 * the exploration's generated and stateful requests — sends, then calls these with what it saw.
 * Pure (bundled for k6).
 */
import type { Judgement } from '../define.ts';
import { RESPONSES } from '../responses/requirements.ts';
import { CREATE_PET } from './requirements.ts';
import type { JsonValue } from '../../json.ts';
import { describeDifference, differences, fieldsOf, petAt, type Difference, type PetText, type SentPet } from '../pets.ts';

/** A conclusive answer as the rules read it: its status and its losslessly parsed body (undefined: not JSON). */
export interface Answer {
  status: number;
  body?: JsonValue;
}

export const answerText = (a: Answer): string => `HTTP ${a.status}`;

/** The requirement a 201 for this request judges: CREATE-STATUS-OPTIONAL for a NewPet without status. */
export type CreatedRequirement = 'CREATE-201-PET' | 'CREATE-STATUS-OPTIONAL';

/**
 * A valid (or accepted) NewPet's answer: 201 with a Pet carrying an integer id and the sent name, categoryId and
 * status. `what` says what was sent, for people. A changed value an RFC leaves to the server is a warning
 * (INPUT-NUMBER-PRECISION) or an observation (INPUT-SILENT-HANDLING), never a failure of the requirement.
 */
export function judgeCreated(sent: SentPet, a: Answer, what: string, requirement: CreatedRequirement = 'CREATE-201-PET'): Judgement[] {
  if (a.status !== 201)
    return [
      CREATE_PET.judge(requirement, {
        ok: false,
        fail: 'status',
        message: `${what}: ${answerText(a)}`,
        evidence: { expected: '201', actual: answerText(a) },
      }),
    ];
  const got = petAt(a.body) ?? {};
  const fields = (['name', 'categoryId', 'status'] as const).filter((f) => sent.fields[f] !== undefined);
  const found = differences(sent.fields, got, fields, sent.written);
  if (got.id === undefined || !/^-?\d+$/.test(got.id))
    found.push({ field: 'id', expected: '(an integer)', ...(got.id ? { got: got.id } : {}) });
  return [...latitudes(found, sent.written, `${what}: the 201 body`), differing(requirement, found, sent.written, what)];
}

/** The claim on the differences that are no latitude's. */
function differing(requirement: CreatedRequirement, found: readonly Difference[], written: PetText, what: string): Judgement {
  const real = found.filter((d) => !d.latitude);
  const shown = real.map((d) => describeDifference(d, written)).join('; ');
  return CREATE_PET.judge(requirement, {
    ok: real.length === 0,
    args: { fields: fieldsOf(real) },
    message: real.length ? `${shown} — ${what}` : what,
    evidence: { expected: 'the sent name, categoryId and status, and an integer id', actual: shown },
  });
}

/**
 * The judgements a change an RFC allows gets, wherever it is seen (`where`: which answer showed it): a number read
 * through a double warns (INPUT-NUMBER-PRECISION, with the RFC and the fix); a trimmed name or a lone surrogate
 * replaced is observed (INPUT-SILENT-HANDLING).
 */
export function latitudes(found: readonly Difference[], written: PetText, where: string): Judgement[] {
  const out: Judgement[] = [];
  for (const d of found) {
    const shown = `${where}: ${describeDifference(d, written)}`;
    if (d.latitude === 'number-precision')
      out.push(
        CREATE_PET.judge('INPUT-NUMBER-PRECISION', {
          ok: false,
          args: { field: d.field },
          message: `${shown}. RFC 8259 §6 lets a JSON parser read a number beyond ±(2^53 − 1) with the precision of an IEEE 754 double, so this is a warning; but the value stored is not the one sent. Fix: refuse integers written with a fraction or an exponent with a 400 Error, or parse them exactly.`,
          evidence: { expected: `${d.expected} (or a 400 Error)`, actual: d.got ?? '(absent)' },
        }),
      );
    else if (d.latitude === 'name-trimmed')
      out.push(
        RESPONSES.judge('INPUT-SILENT-HANDLING', {
          outcome: 'observe',
          title: 'trimmed',
          message: `${where}: the name was stored without its leading and trailing spaces`,
        }),
      );
    else if (d.latitude === 'lone-surrogate')
      out.push(
        RESPONSES.judge('INPUT-SILENT-HANDLING', {
          outcome: 'observe',
          title: 'surrogate',
          message: `${shown} (RFC 8259 §8.2: such a string is unpredictable in any implementation)`,
        }),
      );
  }
  return out;
}

/** The requirements an invalid body judges, one per kind of invalid. */
export type RefusedRequirement = 'CREATE-400-MISSING-FIELD' | 'CREATE-400-WRONG-TYPE' | 'CREATE-400-BAD-STATUS' | 'CREATE-400-BAD-BODY';

/** CREATE-400-*: an invalid body must be refused with 400 (`requirement` says which kind of invalid it was). */
export function judgeRefused(requirement: RefusedRequirement, a: Answer, what: string): Judgement {
  return CREATE_PET.judge(requirement, {
    ok: a.status === 400,
    fail: a.status >= 200 && a.status < 300 ? 'accepted' : 'fail',
    message: `${what}: ${answerText(a)}`,
    evidence: { expected: '400', actual: answerText(a) },
  });
}

/** CREATE-ID-UNIQUE on one page of the list (`limit` asked, `size` animals): no id appears twice (`twice`: those that do). */
export function judgeDistinctOnPage(twice: readonly string[], { limit, size }: { limit: number; size: number }): Judgement {
  return CREATE_PET.judge('CREATE-ID-UNIQUE', {
    ok: twice.length === 0,
    pass: 'page-distinct',
    fail: 'page-repeats',
    args: { limit },
    message: twice.length
      ? `limit=${limit}: id ${twice.join(', ')} appears more than once on the page`
      : `limit=${limit}: no id repeated among ${size} animals`,
    evidence: twice.length ? { expected: 'distinct ids', actual: twice.join(', ') } : undefined,
  });
}

/**
 * CREATE-400-NOTHING-STORED on one page listing every match (of `status`): of `refused` refused createPet requests,
 * `listed` were found on it (by their unique names; `example`, the first).
 */
export function judgeNothingStored(r: {
  listed: number;
  refused: number;
  example?: { name: string; why: string };
  status?: string;
}): Judgement {
  return CREATE_PET.judge('CREATE-400-NOTHING-STORED', {
    ok: r.listed === 0,
    message: r.example
      ? `${r.listed} pet(s) of ${r.refused} refused createPet request(s) listed, e.g. ${JSON.stringify(r.example.name)} (${r.example.why})`
      : `${r.refused} refused, none on a page listing every match${r.status ? ` of status ${r.status}` : ''}`,
    evidence: { expected: 'no refused pet listed', actual: `${r.listed} listed` },
  });
}

/**
 * CREATE-ID-SERVER-ASSIGNED: a NewPet sent with an id (`sent`) is rejected with 400, or answered 201 with an id other
 * than the one sent (`id`: the 201 body's exact id digits, if any). `shown`: the answer, as the message says it.
 */
export function judgeClientIdIgnored(r: { sent: string; status?: number; id?: string; shown: string }): Judgement {
  const ok = r.status === 400 || (r.status === 201 && r.id !== undefined && r.id !== r.sent);
  return CREATE_PET.judge('CREATE-ID-SERVER-ASSIGNED', {
    ok,
    pass: r.status === 400 ? 'rejected' : 'ignored',
    args: { id: r.id ?? '-' },
    message: `createPet with id ${r.sent}: ${r.shown}, id ${r.id ?? '-'}`,
    evidence: ok ? undefined : { expected: `400, or 201 with an id other than ${r.sent}`, actual: `${r.shown}, id ${r.id ?? '-'}` },
  });
}

/** CREATE-ID-UNIQUE among the pets created in the run (`ids`: their exact digits): no two share one; under two, not judged. */
export function judgeCreatedIdsDistinct(ids: readonly string[]): Judgement {
  if (ids.length < 2)
    return CREATE_PET.judge('CREATE-ID-UNIQUE', { outcome: 'skip', title: 'not-judged', message: 'fewer than two pets were created' });
  const distinct = new Set(ids).size === ids.length;
  return CREATE_PET.judge('CREATE-ID-UNIQUE', {
    ok: distinct,
    pass: 'created-distinct',
    fail: 'created-shared',
    args: { count: ids.length },
    message: `ids assigned: ${ids.join(', ')}`,
    evidence: distinct ? undefined : { expected: 'distinct ids', actual: ids.join(', ') },
  });
}

/** A created pet's id that a pet listed before the suite created any already held, under another name (`listedAs`). */
export interface ReusedId {
  id: string;
  listedAs: JsonValue | undefined;
}

/**
 * CREATE-ID-UNIQUE against the `listed` pets listed before the suite created any: none of the `created` ids was held by
 * another pet (`reused`: those that were; a pet of the suite's own listed early is the same pet, not a reuse).
 */
export function judgeIdsNotReused(r: { reused: readonly ReusedId[]; created: number; listed: number }): Judgement {
  const { reused } = r;
  return CREATE_PET.judge('CREATE-ID-UNIQUE', {
    ok: reused.length === 0,
    pass: 'not-reused',
    fail: 'reused',
    args: { listed: r.listed },
    message: reused.length
      ? `created ids already held by other pets: ${reused.map((p) => `${p.id} (listed as ${JSON.stringify(p.listedAs)})`).join(', ')}`
      : `${r.created} created ids, none among the ${r.listed} listed before`,
    evidence: reused.length ? { expected: 'ids not held by any existing pet', actual: reused.map((p) => p.id).join(', ') } : undefined,
  });
}

/** CREATE-ID-UNIQUE against the pets listed before creation, not judged: that list was not available (`shown`: its answer). */
export function judgeEarlierListUnavailable(shown: string): Judgement {
  return CREATE_PET.judge('CREATE-ID-UNIQUE', {
    outcome: 'skip',
    title: 'not-judged',
    message: `the list of existing pets was not available (${shown})`,
  });
}

/** CREATE-NAME-MAX-LENGTH, observed (the maximum is "not shown"): how a NewPet with a `length`-character name was answered. */
export function judgeLongNameAnswer(length: number, shown: string): Judgement {
  return CREATE_PET.judge('CREATE-NAME-MAX-LENGTH', {
    outcome: 'observe',
    title: 'observed',
    message: `a ${length}-character name: ${shown}`,
  });
}

/**
 * CREATE-201-PET for a long name answered 201: the Pet carries the `sent` name whole (`got`: the body's name). The
 * maximum length is "not shown": rejecting is allowed, silently changing the name (truncating it) is not.
 */
export function judgeLongNameKept(sent: string, got: JsonValue): Judgement {
  const cut =
    typeof got === 'string'
      ? `a ${got.length}-character name${got.length < sent.length && sent.startsWith(got) ? ' (truncated)' : ''}`
      : JSON.stringify(got);
  const whole = got === sent;
  return CREATE_PET.judge('CREATE-201-PET', {
    ok: whole,
    pass: 'long-name-whole',
    fail: 'long-name-altered',
    args: { length: sent.length },
    message: whole
      ? 'name echoed whole'
      : `a ${sent.length}-character name was answered 201 with ${cut}; a name the service cannot keep must be rejected with 400, not altered`,
    evidence: whole ? undefined : { expected: `the ${sent.length}-character name sent`, actual: cut },
  });
}

/** CREATE-DEFAULT-STATUS, observed (the default is "not shown"): the status of a pet created without one (`pet`: the 201 body). */
export function judgeDefaultStatus(pet: Readonly<Record<string, JsonValue>>): Judgement {
  return CREATE_PET.judge('CREATE-DEFAULT-STATUS', {
    outcome: 'observe',
    title: 'observed',
    message: `a pet created without status has ${'status' in pet ? `status ${JSON.stringify(pet.status)}` : 'no status field'}`,
  });
}
