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
/**
 * How binding a requirement is: MUST (a violation fails), SHOULD (warns), INFO
 * (only observed), ADVISORY (not required by the spec; a violation warns, never fails).
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO' | 'ADVISORY';

export type Area =
  | 'transport'
  | 'responses'
  | 'auth'
  | 'listPets'
  | 'createPet'
  | 'getPet'
  | 'deprecation'
  | 'rate-limit-headers'
  | 'rate-limit-load'
  | 'versioning'
  | 'hygiene';

export interface Requirement {
  id: string;
  level: Level;
  area: Area;
  section: string;
  quote: string;
  title: string;
  /** Which part of the suite checks it. */
  by: 'conformance' | 'load';
  /** Why no fault mode can prove this MUST entry. */
  noFault?: string;
  /** Where the level comes from when the quote alone does not say it (HTTP conventions, RFCs); for ADVISORY, why a user must know. */
  note?: string;
}

interface Extra {
  by?: 'conformance' | 'load';
  noFault?: string;
  note?: string;
}

const r = (id: string, level: Level, area: Area, section: string, quote: string, title: string, extra: Extra = {}): Requirement => ({
  id,
  level,
  area,
  section,
  quote,
  title,
  by: extra.by ?? 'conformance',
  ...(extra.noFault ? { noFault: extra.noFault } : {}),
  ...(extra.note ? { note: extra.note } : {}),
});

export const REQUIREMENTS: readonly Requirement[] = [
  // transport and every response
  r(
    'TRANSPORT-COMPLETE-RESPONSE',
    'MUST',
    'transport',
    'Endpoints',
    'All success and error bodies are application/json.',
    'Every request gets a complete HTTP response within the timeout and the body size cap.',
  ),
  r(
    'TRANSPORT-NO-CROSS-ORIGIN-REDIRECT',
    'MUST',
    'transport',
    'Authentication',
    'The client sends its API key as the bearer token in the Authorization header.',
    'The service answers on its own origin instead of redirecting the credential to another host.',
  ),
  r(
    'RESP-STATUS-DOCUMENTED',
    'MUST',
    'responses',
    'Endpoints',
    'Responses: | Status | Body | Meaning |',
    'Every response status is one the spec documents for the operation (or 429).',
  ),
  r(
    'RESP-CONTENT-TYPE-JSON',
    'MUST',
    'responses',
    'Endpoints',
    'All success and error bodies are application/json.',
    'Every response body is labelled Content-Type application/json.',
  ),
  r(
    'RESP-BODY-JSON',
    'MUST',
    'responses',
    'Endpoints',
    'an HTTP interface that exchanges JSON',
    'Every response body is well-formed JSON.',
  ),
  r(
    'SCHEMA-PETS',
    'MUST',
    'responses',
    'Resources and their fields / Pets',
    'A JSON array whose items are Pet records.',
    'A listPets 200 body validates against the Pets schema.',
  ),
  r(
    'SCHEMA-PET',
    'MUST',
    'responses',
    'Resources and their fields / Pet',
    'A Pet has every field of NewPet plus:',
    'A createPet 201 or getPet 200 body validates against the Pet schema.',
  ),
  r(
    'SCHEMA-ERROR',
    'MUST',
    'responses',
    'Errors',
    'Every error response has the Error body (code, message, status).',
    'Every 4xx body but the 429 (400, 401, 404, and any other 4xx a server sends) validates against the Error schema.',
  ),
  r(
    'ERROR-STATUS-FIELD',
    'MUST',
    'responses',
    'Resources and their fields / Error',
    'status | integer | yes | The HTTP status code of the response.',
    'Error.status equals the HTTP status of the response.',
  ),
  r(
    'ERROR-CODE-VALUES',
    'INFO',
    'responses',
    'Errors',
    'The set of values of the code field for each condition: not shown.',
    'The Error codes the service uses are observed, not judged.',
  ),
  // authentication
  r(
    'AUTH-MISSING-401',
    'MUST',
    'auth',
    'Authentication',
    'When the key is missing or invalid, the service answers 401 with an Error body.',
    'A request without an Authorization header is answered 401 on every operation.',
  ),
  r(
    'AUTH-WRONG-SCHEME-401',
    'MUST',
    'auth',
    'Authentication',
    'Scheme: HTTP bearer.',
    'A key sent with another scheme than Bearer is answered 401 on every operation.',
  ),
  r(
    'AUTH-EMPTY-TOKEN-401',
    'MUST',
    'auth',
    'Authentication',
    'When the key is missing or invalid, the service answers 401 with an Error body.',
    'A Bearer header with an empty token is answered 401 on every operation.',
  ),
  r(
    'AUTH-UNKNOWN-KEY-401',
    'MUST',
    'auth',
    'Authentication',
    'When the key is missing or invalid, the service answers 401 with an Error body.',
    'An unknown key is answered 401 on every operation.',
  ),
  r(
    'AUTH-BEFORE-VALIDATION',
    'MUST',
    'auth',
    'Authentication',
    'All endpoints require the bearer credential described under Authentication.',
    'Authentication is decided before validation or lookup: unauthenticated bad requests get 401, not 400 or 404.',
  ),
  r(
    'AUTH-VALID-KEY-ACCEPTED',
    'MUST',
    'auth',
    'Authentication',
    'The client sends its API key as the bearer token in the Authorization header.',
    'A valid key is accepted (no 401) on every operation.',
  ),
  // listPets
  r(
    'LIST-200-PETS',
    'MUST',
    'listPets',
    'Endpoints / List all animals',
    '| 200 | Pets (array of Pet) | Page of animals. |',
    'GET /pets with a valid key answers 200 with a page of animals.',
  ),
  r(
    'LIST-DEFAULT-LIMIT',
    'MUST',
    'listPets',
    'Limits / Page size',
    'limit on GET /pets: integer from 1 to 100, default 20.',
    'Without limit, a page holds at most 20 animals.',
  ),
  r(
    'LIST-LIMIT-HONOURED',
    'MUST',
    'listPets',
    'Endpoints / List all animals',
    'Maximum number of animals returned.',
    'A limit of 1, 20 or 100 is never exceeded.',
  ),
  r(
    'LIST-LIMIT-FILLS-PAGE',
    'SHOULD',
    'listPets',
    'Endpoints / List all animals',
    'the limit parameter controls page size.',
    'When more animals exist than the limit, the page holds exactly limit animals.',
  ),
  r(
    'LIST-LIMIT-OUT-OF-RANGE',
    'MUST',
    'listPets',
    'Limits / Page size',
    'Minimum 1, maximum 100, default 20.',
    'An out-of-range or non-integer limit never yields more than 100 animals nor a 5xx.',
  ),
  r(
    'LIST-LIMIT-OUT-OF-RANGE-HANDLING',
    'INFO',
    'listPets',
    'Endpoints / List all animals',
    'integer from 1 to 100, default 20.',
    'How an out-of-range limit is handled (400 with Error, or clamping) is observed.',
    { note: 'listPets documents only 200 and 401, so rejecting with 400 and clamping are both accepted.' },
  ),
  r(
    'LIST-STATUS-FILTER',
    'MUST',
    'listPets',
    'Endpoints / List all animals',
    'status | PetStatus | no | Returns only animals with this status.',
    'The status filter returns only animals with that status.',
  ),
  r(
    'LIST-ROUND-TRIP',
    'MUST',
    'listPets',
    'Endpoints / List all animals',
    '| 200 | Pets (array of Pet) | Page of animals. |',
    'A created pet appears in the list with exactly the Pet fields it was created with, id digits included.',
  ),
  r(
    'LIST-COMPLETE-PAGE',
    'MUST',
    'listPets',
    'What the service does',
    'A client can list animals, optionally filtered by availability status.',
    'A created pet is found in the list of its status: a page shorter than its limit (and than the largest page the server has served, as limit is only a maximum) holds every animal that matches.',
    {
      note: 'A server may serve fewer animals than the limit (a cap of its own: LIST-LIMIT-FILLS-PAGE warns), so only a page shorter than both its limit and the largest page the server has served in the run proves an animal absent.',
    },
  ),
  r(
    'LIST-STATUS-UNKNOWN-NO-5XX',
    'SHOULD',
    'listPets',
    'Resources and their fields / PetStatus',
    'Allowed values: available, pending, sold.',
    'An unknown status value is answered without a 5xx.',
  ),
  r(
    'LIST-PAGINATION-CONTROLS',
    'INFO',
    'listPets',
    'Endpoints / List all animals',
    'Pagination controls other than limit (cursor, offset, page number, links in the response): not shown.',
    'Pagination controls other than limit (Link header…) are observed, not judged.',
  ),
  // createPet
  r(
    'CREATE-201-PET',
    'MUST',
    'createPet',
    'Endpoints / Add an animal',
    '| 201 | Pet | Animal added; the body carries the assigned id. |',
    'A valid NewPet is answered 201 with a Pet carrying an id and the sent name, categoryId and status.',
  ),
  r(
    'CREATE-STATUS-OPTIONAL',
    'MUST',
    'createPet',
    'Resources and their fields / NewPet',
    'status | PetStatus | no',
    'A NewPet without status is accepted.',
  ),
  r(
    'CREATE-DEFAULT-STATUS',
    'INFO',
    'createPet',
    'States and transitions',
    'Default status when status is omitted on creation: not shown.',
    'The status given to a pet created without one is observed.',
  ),
  r(
    'CREATE-400-MISSING-FIELD',
    'MUST',
    'createPet',
    'Endpoints / Add an animal',
    'name and categoryId are required.',
    'A body missing name or categoryId is answered 400 with an Error.',
  ),
  r(
    'CREATE-400-WRONG-TYPE',
    'MUST',
    'createPet',
    'Errors',
    'Request body missing required fields or containing invalid values.',
    'A body whose name is not a string or whose categoryId is not an int64 is answered 400.',
  ),
  r(
    'CREATE-400-BAD-STATUS',
    'MUST',
    'createPet',
    'Resources and their fields / PetStatus',
    'Allowed values: available, pending, sold.',
    'A status outside the enumeration is answered 400.',
  ),
  r(
    'CREATE-400-BAD-BODY',
    'MUST',
    'createPet',
    'Endpoints / Add an animal',
    'Request body: required, application/json, shape NewPet.',
    'Malformed JSON, an empty body or a non-object body is answered 400.',
  ),
  r(
    'CREATE-ID-SERVER-ASSIGNED',
    'MUST',
    'createPet',
    'Resources and their fields / Pet',
    'Unique identifier assigned by the service on creation. Never sent by the client on creation.',
    "An id sent by the client does not become the pet's id.",
  ),
  r(
    'CREATE-ID-UNIQUE',
    'MUST',
    'createPet',
    'Resources and their fields / Pet',
    'Unique identifier assigned by the service on creation.',
    'Every created pet gets a distinct id.',
  ),
  r(
    'CREATE-NAME-MAX-LENGTH',
    'INFO',
    'createPet',
    'Limits',
    'The maximum length of name: not shown.',
    'Whether a long name is accepted is observed, not judged.',
  ),
  r(
    'CREATE-400-NOTHING-STORED',
    'SHOULD',
    'createPet',
    'Endpoints / Add an animal',
    '| 400 | Error | Body is missing required fields or contains invalid values. |',
    'A createPet request refused with a 4xx stores nothing: no complete page of its status lists the refused pet.',
    {
      note: 'Implied: only the 201 says "Animal added"; a refused request that adds the animal anyway makes every retrying client create it twice. Judged by the exploration phase on complete pages (fewer animals than the limit) only.',
    },
  ),
  r(
    'INPUT-SILENT-HANDLING',
    'INFO',
    'responses',
    'Limits',
    'The maximum length of name: not shown.',
    'Inputs the spec is silent about (long names, control characters, characters outside printable ASCII, unknown properties, non-canonical numbers, non-positive ids) are accepted and read back exactly, or refused with a clean error: what the server does is observed.',
    {
      note: 'The exploration phase (generated inputs) observes it; a 5xx or an undocumented status for such an input still fails RESP-STATUS-DOCUMENTED, and an accepted one that reads back differently fails the round trip of the operation that showed it (CREATE-201-PET, GET-ROUND-TRIP, LIST-ROUND-TRIP), unless a latitude of the LATITUDES table explains the change.',
    },
  ),
  r(
    'INPUT-NUMBER-PRECISION',
    'SHOULD',
    'createPet',
    'Resources and their fields / NewPet',
    'categoryId | integer, format int64 | yes | Identifier of the category the animal belongs to.',
    'An integer beyond ±(2^53 − 1) written with a fraction or an exponent (18014398509481983.0, 9.007199254740993e15) is read exactly or refused with a 400 Error, not read through a double.',
    {
      note: 'RFC 8259 §6 lets an implementation limit the precision of the numbers it accepts, so a value read as the nearest IEEE 754 double is a warning (the latitude number-precision), never a MUST failure; an integer written canonically keeps the int64 promise (CREATE-201-PET, GET-ROUND-TRIP, LIST-ROUND-TRIP).',
    },
  ),
  // getPet
  r(
    'GET-ROUND-TRIP',
    'MUST',
    'getPet',
    'Endpoints / Get an animal',
    '| 200 | Pet | The requested animal. |',
    'A created pet is returned by GET /pets/{petId} with exactly the same fields, id digits included.',
  ),
  r(
    'GET-404-UNKNOWN',
    'MUST',
    'getPet',
    'Endpoints / Get an animal',
    '| 404 | Error | The requested resource could not be found. |',
    'An unknown id is answered 404 with an Error.',
  ),
  r(
    'GET-NON-INTEGER-ID-4XX',
    'SHOULD',
    'getPet',
    'Endpoints / Get an animal',
    'petId, required, integer, format int64',
    'A non-integer petId is answered with a 4xx, never a 5xx.',
  ),
  // deprecation
  r(
    'DEPRECATION-SIGNALLED',
    'SHOULD',
    'deprecation',
    'Versioning',
    'GET /pets/{petId} is deprecated, with removal announced for 5 December 2030',
    'getPet responses signal the deprecation (Deprecation, Sunset or a deprecation Link).',
  ),
  r(
    'DEPRECATION-SUNSET-DATE',
    'MUST',
    'deprecation',
    'Endpoints / Get an animal',
    'announced for removal on 5 December 2030',
    'A Sunset header, if sent, is a valid HTTP-date on 5 December 2030.',
  ),
  r(
    'DEPRECATION-HEADER-VALID',
    'SHOULD',
    'deprecation',
    'Endpoints / Get an animal',
    'the operation is marked deprecated',
    'A Deprecation header, if sent, is an RFC 9745 date (@epoch-seconds).',
    { note: 'RFC 9745 defines the Deprecation field as a Structured Field Date, @<epoch-seconds>.' },
  ),
  r(
    'DEPRECATION-BEFORE-SUNSET',
    'SHOULD',
    'deprecation',
    'Endpoints / Get an animal',
    'announced for removal on 5 December 2030',
    'The Deprecation date is not after the Sunset date.',
    { note: 'RFC 9745: the Sunset timestamp should not be earlier than the Deprecation timestamp.' },
  ),
  r(
    'DEPRECATION-SUCCESSOR-LINK',
    'INFO',
    'deprecation',
    'Versioning',
    'clients migrate to GET /pets with the status filter.',
    'A Link to documentation or to the successor is observed.',
  ),
  // rate-limit headers
  r(
    'RL-HEADERS-PRESENT',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'Every API response carries these headers',
    'Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.',
  ),
  r(
    'RL-HEADERS-INTEGER',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'X-RateLimit-Limit | The request limit in force.',
    'X-RateLimit-Limit and X-RateLimit-Remaining are non-negative integers.',
  ),
  r(
    'RL-REMAINING-LE-LIMIT',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'X-RateLimit-Remaining | Requests remaining in the current window.',
    'X-RateLimit-Remaining never exceeds X-RateLimit-Limit.',
  ),
  r(
    'RL-LIMIT-PLAN',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limits by plan',
    '| Free | 60 | 1,000 |',
    "X-RateLimit-Limit on an authenticated response equals the plan's per-minute (or per-day) limit.",
  ),
  r(
    'RL-LIMIT-CONSTANT',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'X-RateLimit-Limit | The request limit in force.',
    'X-RateLimit-Limit stays the same for one key throughout a run.',
  ),
  r(
    'RL-RESET-UNIX-SECONDS',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'X-RateLimit-Reset | Unix timestamp at which the limit resets.',
    'X-RateLimit-Reset is a Unix timestamp in seconds, no earlier than the response and at most one window later.',
  ),
  r(
    'RL-REMAINING-DECREMENTS',
    'MUST',
    'rate-limit-headers',
    'Limits / Rate limit headers',
    'Requests remaining in the current window.',
    'X-RateLimit-Remaining falls by one for each request in a window.',
  ),
  r(
    'RL-429-RETRY-AFTER',
    'MUST',
    'rate-limit-headers',
    'Limits / Behaviour at the limit',
    'The response carries a Retry-After header',
    'Every 429 carries a Retry-After header with delay-seconds or an HTTP-date.',
    { by: 'load' },
  ),
  r('RL-429-ERROR-BODY', 'SHOULD', 'rate-limit-headers', 'Errors', 'The body of a 429 response: not shown.', 'A 429 body is an Error.', {
    by: 'load',
    note: 'The Errors section says every error response has the Error body; the 429 body itself is not shown, so this is a SHOULD.',
  }),
  r(
    'RL-429-REMAINING-ZERO',
    'SHOULD',
    'rate-limit-headers',
    'Limits / Behaviour at the limit',
    'A request exceeding the limit receives 429 Too Many Requests.',
    'A 429 carries X-RateLimit-Remaining 0.',
    { by: 'load' },
  ),
  r(
    'RL-SCOPE',
    'INFO',
    'rate-limit-headers',
    'Limits / Behaviour at the limit',
    'Whether these rate limits apply to the animal endpoints specifically: not shown.',
    'Whether the animal endpoints are rate limited is observed from the headers.',
  ),
  // rate-limit load scenarios
  r(
    'RL-CEILING-429',
    'MUST',
    'rate-limit-load',
    'Limits / Behaviour at the limit',
    'A request exceeding the limit receives 429 Too Many Requests.',
    "The first request beyond the plan's per-minute limit is answered 429, exactly when Remaining said.",
    { by: 'load' },
  ),
  r(
    'RL-NOT-EARLY',
    'MUST',
    'rate-limit-load',
    'Limits / Rate limits by plan',
    '| Plan | Requests per minute |',
    "No request is throttled while X-RateLimit-Remaining is above zero or below the plan's limit.",
    { by: 'load' },
  ),
  r(
    'RL-RETRY-AFTER-CONSISTENT',
    'SHOULD',
    'rate-limit-load',
    'Limits / Behaviour at the limit',
    'the client waits the indicated time before retrying.',
    'Retry-After agrees with X-RateLimit-Reset within a small tolerance.',
    { by: 'load' },
  ),
  r(
    'RL-RECOVERY',
    'MUST',
    'rate-limit-load',
    'Limits / Behaviour at the limit',
    'The response carries a Retry-After header; the client waits the indicated time before retrying.',
    'After waiting Retry-After, the next request succeeds.',
    { by: 'load' },
  ),
  r(
    'RL-SUSTAINED-BELOW-CEILING',
    'MUST',
    'rate-limit-load',
    'Limits / Rate limits by plan',
    '| Pro | 300 | 10,000 |',
    'A steady rate just below the ceiling for a full window is never throttled.',
    { by: 'load' },
  ),
  r(
    'RL-WINDOW-PER-MINUTE',
    'MUST',
    'rate-limit-load',
    'Limits / Rate limits by plan',
    'Requests per minute',
    'Above the ceiling, successes in any minute never exceed the limit, and the limit is per minute, not per shorter window.',
    { by: 'load' },
  ),
  r(
    'RL-DAILY-QUOTA',
    'MUST',
    'rate-limit-load',
    'Limits / Rate limits by plan',
    'Requests per day',
    "The per-day quota is enforced at the plan's number (opt-in scenario).",
    { by: 'load' },
  ),
  // versioning
  r(
    'VERSION-BASE-PATH',
    'SHOULD',
    'versioning',
    'Versioning',
    'The version appears in the base address as the path segment /v1.',
    'The base address ends with the /v1 version segment.',
  ),
  // hygiene and security: the spec is silent, a user must know (ADVISORY: warns, never fails)
  r(
    'HYGIENE-CREDENTIAL-NOT-REFLECTED',
    'ADVISORY',
    'hygiene',
    'Authentication',
    'The client sends its API key as the bearer token in the Authorization header.',
    'No response reflects the credential its request carried (the key raw, under Bearer or Basic, in any case or encoding) in its body or headers.',
    {
      note: 'A server that echoes credentials writes them into client logs, error trackers, proxies and caches: a leaked key. The spec does not forbid it, so it is a warning; the evidence shown is redacted.',
    },
  ),
  r(
    'HYGIENE-DEPRECATION-ONLY-GETPET',
    'ADVISORY',
    'hygiene',
    'Versioning',
    'GET /pets/{petId} is deprecated, with removal announced for 5 December 2030; clients migrate to GET /pets with the status filter.',
    'Only getPet signals deprecation: listPets and createPet carry no Deprecation, Sunset or deprecation Link.',
    {
      note: 'The spec deprecates getPet alone and names GET /pets as its replacement; a deprecation signal on another operation tells clients to migrate away from the replacement, or alarms them for nothing. The spec does not forbid it, so it is a warning.',
    },
  ),
];

const byId = new Map(REQUIREMENTS.map((q) => [q.id, q]));

export function requirement(id: string): Requirement {
  const q = byId.get(id);
  if (!q) throw new Error(`Unknown requirement id ${id}`);
  return q;
}

export function isRequirementId(id: string): boolean {
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
 * (accepts it, observes it, or warns, with the fix). The rules name the latitude they apply (src/core/spec/pets.ts).
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
    id: 'media-type-parameters',
    source: 'RFC 9110 §8.3.1',
    leaves: 'parameters of a media type (application/json; charset=utf-8)',
    suite: 'accepted',
    requirements: ['RESP-CONTENT-TYPE-JSON'],
  },
  {
    id: 'header-case-and-whitespace',
    source: 'RFC 9110 §5.1 and RFC 8259 §2',
    leaves: 'the case of header names and insignificant whitespace in JSON',
    suite: 'accepted',
    requirements: ['RL-HEADERS-PRESENT', 'RESP-BODY-JSON'],
  },
];
