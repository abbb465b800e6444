/**
 * The requirement catalogue: every testable statement of the spec, with an id,
 * a level (MUST: the spec states it; SHOULD: the spec implies it or HTTP
 * conventions recommend it; INFO: the spec leaves it "not shown", so the suite
 * only observes; ADVISORY: the spec is silent, but a user must know — hygiene
 * and security, which warns and never fails a run), the spec section and a
 * short quote (an ADVISORY entry's `note` says why a user must know).
 *
 * Specs, response checks and load rules reference these ids; the lint test
 * fails on an unknown id or on an entry nothing checks. `noFault` says why no
 * fault mode of the reference server can prove a MUST entry (normally every MUST
 * has one). Pure data (bundled for k6: the load rules take their levels from here).
 */
import type { Area, Entry, JudgeInit, Judgement, Level, Section } from './sections/define.ts';
import { AUTH } from './sections/auth/requirements.ts';
import { CREATE_PET } from './sections/create-pet/requirements.ts';
import { DEPRECATION } from './sections/deprecation/requirements.ts';
import { GET_PET } from './sections/get-pet/requirements.ts';
import { HYGIENE } from './sections/hygiene/requirements.ts';
import { LIST_PETS } from './sections/list-pets/requirements.ts';
import { RATE_LIMIT_HEADERS } from './sections/rate-limit-headers/requirements.ts';
import { RATE_LIMIT_LOAD } from './sections/rate-limit-load/requirements.ts';
import { RESPONSES } from './sections/responses/requirements.ts';
import { TRANSPORT } from './sections/transport/requirements.ts';
import { VERSIONING } from './sections/versioning/requirements.ts';

export type { Area, Level };

/** The spec's sections, in the order the reports show them. */
export const SECTIONS = [
  TRANSPORT,
  RESPONSES,
  AUTH,
  LIST_PETS,
  CREATE_PET,
  GET_PET,
  DEPRECATION,
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_LOAD,
  VERSIONING,
  HYGIENE,
] as const;

/** Every requirement's id, typed: a misspelt id does not compile. */
type IdsOf<S> = S extends Section<infer E> ? keyof E & string : never;
export type RequirementId = IdsOf<(typeof SECTIONS)[number]>;

/** A requirement as the reports show it: its id, section and area, and its entry. */
export interface Requirement extends Omit<Entry, 'by'> {
  id: RequirementId;
  area: Area;
  /** Which part of the suite checks it. */
  by: 'conformance' | 'load';
}

/** Every requirement, section by section (ES2017: the k6 bundle reads its levels from here). */
export const REQUIREMENTS: readonly Requirement[] = (SECTIONS as readonly Section<Record<string, Entry>>[]).reduce<Requirement[]>(
  (all, s) =>
    all.concat(
      Object.keys(s.entries).map((id) => ({
        ...s.entries[id],
        id: id as RequirementId,
        area: s.area,
        by: s.entries[id].by ?? 'conformance',
      })),
    ),
  [],
);

const byId = new Map<string, Requirement>(REQUIREMENTS.map((q) => [q.id, q]));

const sectionOf = new Map<string, Section<Record<string, Entry>>>(
  (SECTIONS as readonly Section<Record<string, Entry>>[]).reduce<[string, Section<Record<string, Entry>>][]>(
    (all, s) => all.concat(Object.keys(s.entries).map((id): [string, Section<Record<string, Entry>>] => [id, s])),
    [],
  ),
);

/**
 * What the suite says of any requirement, whichever its section (a test it could not judge or did not run, a defect of
 * its own), with a common title (COMMON_TITLES): through the section's judge, like every other judgement.
 */
export function judgeAny(id: RequirementId, init: Extract<JudgeInit<Entry>, { outcome: unknown }>): Judgement {
  const s = sectionOf.get(id);
  if (!s) throw new Error(`Unknown requirement id ${id}`);
  return s.judge(id, init);
}

export function requirement(id: string): Requirement {
  const q = byId.get(id);
  if (!q) throw new Error(`Unknown requirement id ${id}`);
  return q;
}

export function isRequirementId(id: string): id is RequirementId {
  return byId.has(id);
}

/**
 * A rate-limit requirement: what the server answers depends on the requests sent on the key before (its window, its
 * first Limit), so one request replayed alone may not reproduce a finding (nor, passing, prove it fixed).
 */
export const dependsOnEarlierRequests = (id: string): boolean => isRequirementId(id) && requirement(id).area.startsWith('rate-limit');

/** The level of a requirement; an unknown id counts as MUST (never silently downgraded). */
export function levelOf(id: string): Level {
  const q = byId.get(id);
  return q ? q.level : 'MUST';
}

/**
 * A choice the spec, or an RFC it builds on, leaves to implementations: a server exercising it is never failed for it.
 * Each entry says where the latitude comes from, what it leaves open, and what the suite does when a server takes it
 * (accepts it, observes it, or warns, with the fix). The rules name the latitude they apply (src/core/sections/pets.ts).
 */
export interface Latitude {
  id: string;
  /** The spec's words or the RFC section. */
  source: string;
  leaves: string;
  /** What the suite does when a server takes the latitude. */
  suite: string;
  requirements: readonly string[];
}

export const LATITUDES: readonly Latitude[] = [
  {
    id: 'number-precision',
    source: 'RFC 8259 §6',
    leaves:
      'the range and precision of the numbers an implementation accepts: a number beyond ±(2^53 − 1) written with a fraction or an exponent may be read as the nearest IEEE 754 double',
    suite:
      'a value read back as that double warns (INPUT-NUMBER-PRECISION, with the fix: refuse such spellings with a 400 or parse them exactly); an integer written canonically must keep every int64 digit',
    requirements: ['INPUT-NUMBER-PRECISION', 'CREATE-201-PET', 'GET-ROUND-TRIP', 'LIST-ROUND-TRIP'],
  },
  {
    id: 'lone-surrogate',
    source: 'RFC 8259 §8.2',
    leaves: 'what software does with a string holding an unpaired surrogate ("unpredictable")',
    suite: 'such a name is not compared when read back; a replaced one is observed',
    requirements: ['INPUT-SILENT-HANDLING'],
  },
  {
    id: 'name-trimmed',
    source: "NewPet: name | string | yes | The animal's name. (nothing about whitespace)",
    leaves: 'whether leading and trailing spaces are part of a name',
    suite: 'a name stored without them is observed',
    requirements: ['INPUT-SILENT-HANDLING'],
  },
  {
    id: 'refusal-where-silent',
    source: 'The maximum length of name: not shown (and no word on characters, unknown properties or number spellings)',
    leaves: 'which names, properties and spellings a server takes',
    suite: 'a clean 400, 413 or 422 Error for such an input is observed; a 5xx or an undocumented status still fails',
    requirements: ['INPUT-SILENT-HANDLING', 'RESP-STATUS-DOCUMENTED'],
  },
  {
    id: 'limit-handling',
    source: 'listPets documents 200 and 401 only; limit: Minimum 1, maximum 100',
    leaves: 'whether an out-of-range or non-integer limit is refused or clamped, and whether a page may be shorter than the limit',
    suite: 'a 400 Error and a clamped page are both accepted (observed); a page shorter than the limit warns (LIST-LIMIT-FILLS-PAGE)',
    requirements: ['LIST-LIMIT-OUT-OF-RANGE-HANDLING', 'LIST-LIMIT-FILLS-PAGE', 'LIST-COMPLETE-PAGE'],
  },
  {
    id: 'retry-after-form',
    source: 'RFC 9110 §10.2.3',
    leaves: 'Retry-After as delay-seconds or as an HTTP-date',
    suite: 'both are accepted and waited for',
    requirements: ['RL-429-RETRY-AFTER', 'RL-RECOVERY'],
  },
  {
    id: 'clock-resolution',
    source: 'RFC 9110 §6.6.1 and §5.6.7',
    leaves: 'Date is stamped when the response is generated, to the second; Reset and Retry-After may be rounded either way',
    suite: 'every rule comparing Date, X-RateLimit-Reset and Retry-After allows a second of rounding and the time the exchange took',
    requirements: ['RL-RESET-UNIX-SECONDS', 'RL-RETRY-AFTER-CONSISTENT'],
  },
  {
    id: 'window-algorithm',
    source: 'Rate limits by plan: Requests per minute',
    leaves: 'how a window is counted: fixed, sliding, a token bucket',
    suite: 'every one is accepted; successes in any minute never exceed the limit',
    requirements: ['RL-CEILING-429', 'RL-NOT-EARLY', 'RL-WINDOW-PER-MINUTE'],
  },
  {
    id: 'limiter-scope',
    source: 'Rate limits by plan; "When the key is missing or invalid, the service answers 401 with an Error body."',
    leaves:
      'whether requests without a valid key count against a key, and how they are limited (per client address, all together, not at all)',
    suite:
      "observed under RL-SCOPE (a request without credentials between two of the key's: counted against the key or not), never failed; the key's own requests are one budget whatever the operation (RL-REMAINING-DECREMENTS fails a limit per route)",
    requirements: ['RL-SCOPE', 'RL-REMAINING-DECREMENTS'],
  },
  {
    id: 'duplicate-member-names',
    source: 'RFC 8259 §4',
    leaves: 'what a parser does with a member name given twice ("unpredictable": the first, the last, or an error)',
    suite:
      'a clean 400 Error, or a pet stored with either value, is accepted; a 5xx still fails. A response body whose object holds a name twice warns (RESP-JSON-UNIQUE-NAMES: the names SHOULD be unique)',
    requirements: ['INPUT-SILENT-HANDLING', 'CREATE-201-PET', 'RESP-JSON-UNIQUE-NAMES'],
  },
  {
    id: 'json-extensions',
    source: 'RFC 8259 §9',
    leaves:
      'whether a parser accepts "non-JSON forms or extensions": JSON5 comments, trailing commas, single quotes and unquoted names, and data after the first value (Go\'s json.NewDecoder(r.Body).Decode, Jackson without FAIL_ON_TRAILING_TOKENS)',
    suite:
      "a clean 4xx Error is a pass; accepted is a warning (HYGIENE-JSON-EXTENSION) naming the extension and its risk — a proxy or WAF that parses the body otherwise reads another request (a parser differential); what is stored must be the extension's reading, else the round trip fails; a 5xx still fails",
    requirements: ['HYGIENE-JSON-EXTENSION', 'CREATE-400-BAD-BODY', 'CREATE-201-PET'],
  },
  {
    id: 'content-coding',
    source: 'RFC 9110 §8.4, §12.5.3',
    leaves: 'which content coding a response is in: any, when the request has no Accept-Encoding; one it lists, or none, when it has one',
    suite:
      "every response is decoded as its Content-Encoding says (gzip, deflate, br; capped like any body) and judged; a coding the request's Accept-Encoding did not accept warns (RESP-CONTENT-CODING)",
    requirements: ['RESP-CONTENT-CODING', 'RESP-BODY-JSON'],
  },
  {
    id: 'byte-order-mark',
    source: 'RFC 8259 §8.1',
    leaves: 'whether a parser ignores a byte order mark before the JSON text or treats it as an error',
    suite: 'either is accepted (a clean 400 Error, or the pet created)',
    requirements: ['INPUT-SILENT-HANDLING'],
  },
  {
    id: 'nesting-and-size',
    source: 'RFC 8259 §9, RFC 9110 §15.5.14',
    leaves: 'the depth of nesting and the size of body an implementation accepts',
    suite: 'a clean 400 or 413 Error is accepted; a 5xx still fails',
    requirements: ['INPUT-SILENT-HANDLING', 'RESP-STATUS-DOCUMENTED'],
  },
  {
    id: 'request-media-type',
    source: 'RFC 9110 §15.5.16, §12.5.1',
    leaves:
      'whether a body without Content-Type or of another media type is refused (415) or read, and whether Accept: text/html gets a 406 or the JSON anyway',
    suite:
      'a clean 4xx Error (406, 415…) and the operation served as usual are both accepted; equivalent spellings of application/json must be served (HTTP-EQUIVALENT-FORMS warns)',
    requirements: ['INPUT-SILENT-HANDLING', 'HTTP-EQUIVALENT-FORMS'],
  },
  {
    id: 'query-structure',
    source: 'RFC 3986 §3.4',
    leaves:
      "what a repeated parameter, a parameter name in another case or an unknown parameter means (the query is the server's to interpret)",
    suite:
      'a clean 400 Error, either value of a repeated parameter, and an ignored or honoured unknown parameter are accepted: the page only has to respect every reading',
    requirements: ['INPUT-SILENT-HANDLING', 'LIST-LIMIT-HONOURED'],
  },
  {
    id: 'media-type-parameters',
    source: 'RFC 9110 §8.3.1, RFC 8259 §11',
    leaves:
      'parameters of a media type (application/json; charset=utf-8); a request\'s charset parameter "has no effect on compliant recipients" (RFC 8259 §11)',
    suite: 'accepted in responses; a request declaring any charset must be served as the UTF-8 it is (HTTP-EQUIVALENT-FORMS warns)',
    requirements: ['RESP-CONTENT-TYPE-JSON'],
  },
  {
    id: 'header-case-and-whitespace',
    source: 'RFC 9110 §5.1 and RFC 8259 §2',
    leaves: 'the case of header names and insignificant whitespace in JSON',
    suite: 'accepted',
    requirements: ['RL-HEADERS-PRESENT', 'RESP-BODY-JSON'],
  },
  {
    id: 'methods-not-shown',
    source: 'RFC 9110 §9.3.2, §9.3.7, §15.5.6; Other endpoints: not shown',
    leaves:
      'whether HEAD is served (as GET, without content) and OPTIONS answered, whether a router answers 404 or 405 before authentication, and what other operations a path has',
    suite:
      'no method is served 2xx without a valid key (AUTH-EVERY-METHOD; OPTIONS observed: a CORS preflight carries no credentials); a method a path does not take is refused — 405 with Allow, or 404, 401, 400, 501 — and a 2xx with the key is observed',
    requirements: ['AUTH-EVERY-METHOD', 'METHOD-405-ALLOW'],
  },
  {
    id: 'ids-outside-int64',
    source: 'petId, required, integer, format int64',
    leaves: 'what a petId outside int64 is answered: no animal has it',
    suite: 'a 404 or a 4xx passes; a 200 is another animal and fails (GET-404-UNKNOWN); a 5xx warns (GET-NON-INTEGER-ID-4XX)',
    requirements: ['GET-404-UNKNOWN', 'GET-NON-INTEGER-ID-4XX'],
  },
  {
    id: 'access-token-query',
    source: 'RFC 6750 §2.3, §5.3',
    leaves: 'a bearer token in the access_token URI query parameter (which clients SHOULD NOT use)',
    suite:
      'the key accepted there warns (AUTH-KEY-IN-URL); the key accepted from any other parameter, header or cookie fails (AUTH-KEY-CHANNEL)',
    requirements: ['AUTH-KEY-IN-URL', 'AUTH-KEY-CHANNEL'],
  },
];
