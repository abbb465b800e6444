/**
 * Add an animal (POST /pets): the 201 with the Pet, the 400s, the id the service assigns.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

/** What the rule that judges an invalid body says (judgeRefused), the same for every kind of invalid body. */
const REFUSED = {
  pass: 'Invalid body refused with 400',
  fail: 'Invalid body not refused with 400',
  accepted: 'Invalid body accepted',
} as const;

/** What the rule that judges a valid body's 201 says (judgeCreated). */
const CREATED = {
  pass: '201 with the sent fields',
  fail: 'Created Pet differs from the request in {fields}',
  status: 'Valid NewPet not answered 201',
} as const;

export const CREATE_PET = section('createPet', {
  'CREATE-201-PET': {
    level: 'MUST',
    section: 'Endpoints / Add an animal',
    quote: '| 201 | Pet | Animal added; the body carries the assigned id. |',
    title: 'A valid NewPet is answered 201 with a Pet carrying an id and the sent name, categoryId and status.',
    faults: [
      'create-drops-status',
      'name-truncated',
      'lossy-category-id',
      'name-apostrophe-400',
      'name-normalized',
      'trailing-data-last-value',
      'escape-upper-hex-400',
      'escaped-solidus-400',
      'surrogate-escapes-garbled',
      'category-before-name-400',
      'name-html-escaped',
    ],
    titles: {
      ...CREATED,
      'long-name-whole': 'the {length}-character name was accepted and echoed whole',
      'long-name-altered': 'Accepted name altered',
    },
  },
  'CREATE-STATUS-OPTIONAL': {
    level: 'MUST',
    section: 'Resources and their fields / NewPet',
    quote: 'status | PetStatus | no',
    title: 'A NewPet without status is accepted.',
    faults: ['status-required'],
    titles: CREATED,
  },
  'CREATE-DEFAULT-STATUS': {
    level: 'INFO',
    section: 'States and transitions',
    quote: 'Default status when status is omitted on creation: not shown.',
    title: 'The status given to a pet created without one is observed.',
    titles: {
      observed: 'Default status observed',
    },
  },
  'CREATE-400-MISSING-FIELD': {
    level: 'MUST',
    section: 'Endpoints / Add an animal',
    quote: 'name and categoryId are required.',
    title: 'A body missing name or categoryId is answered 400 with an Error.',
    faults: ['missing-field-accepted', 'member-names-case-insensitive'],
    titles: REFUSED,
  },
  'CREATE-400-WRONG-TYPE': {
    level: 'MUST',
    section: 'Errors',
    quote: 'Request body missing required fields or containing invalid values.',
    title: 'A body whose name is not a string or whose categoryId is not an int64 is answered 400.',
    faults: ['wrong-type-accepted', 'name-container-accepted'],
    titles: REFUSED,
  },
  'CREATE-400-BAD-STATUS': {
    level: 'MUST',
    section: 'Resources and their fields / PetStatus',
    quote: 'Allowed values: available, pending, sold.',
    title: 'A status outside the enumeration is answered 400.',
    faults: [
      'bad-status-accepted',
      'status-null-accepted',
      'status-whitespace-accepted',
      'status-index-accepted',
      'status-one-typo-accepted',
    ],
    titles: REFUSED,
  },
  'CREATE-400-BAD-BODY': {
    level: 'MUST',
    section: 'Endpoints / Add an animal',
    quote: 'Request body: required, application/json, shape NewPet.',
    title: 'Malformed JSON (a text no reading makes a NewPet), an empty body or a non-object body is answered 400.',
    note: "A text that is no JSON but that an extension RFC 8259 §9 allows reads as a NewPet (JSON5 comments, trailing commas, single quotes; data after the value, read by Go's json.Decoder and Jackson) is not judged here but by HYGIENE-JSON-EXTENSION: refused is a pass, accepted a warning.",
    faults: ['malformed-json-500'],
    titles: REFUSED,
  },
  'CREATE-ID-SERVER-ASSIGNED': {
    level: 'MUST',
    section: 'Resources and their fields / Pet',
    quote: 'Unique identifier assigned by the service on creation. Never sent by the client on creation.',
    title: "An id sent by the client does not become the pet's id.",
    faults: ['client-id-honoured'],
    titles: {
      rejected: 'client id rejected with 400',
      ignored: 'client id ignored (assigned {id})',
      fail: 'Client-sent id became the pet id',
    },
  },
  'CREATE-ID-UNIQUE': {
    level: 'MUST',
    section: 'Resources and their fields / Pet',
    quote: 'Unique identifier assigned by the service on creation.',
    title: 'Every created pet gets a distinct id.',
    faults: ['list-duplicate-id', 'duplicate-ids', 'ids-reuse-existing', 'create-id-race', 'dedupe-identical-create'],
    titles: {
      'page-distinct': 'the ids on the limit={limit} page are distinct',
      'page-repeats': 'Two animals on one page share an id',
      'created-distinct': '{count} distinct ids',
      'created-shared': 'Two pets share an id',
      'not-reused': 'no created id was already used by one of the {listed} pets listed before creation',
      reused: 'A created pet reuses the id of an existing pet',
    },
  },
  'CREATE-NAME-MAX-LENGTH': {
    level: 'INFO',
    section: 'Limits',
    quote: 'The maximum length of name: not shown.',
    title: 'Whether a long name is accepted is observed, not judged.',
    titles: {
      observed: 'Long name handling observed',
    },
  },
  'CREATE-400-NOTHING-STORED': {
    level: 'SHOULD',
    section: 'Endpoints / Add an animal',
    quote: '| 400 | Error | Body is missing required fields or contains invalid values. |',
    title: 'A createPet request refused with a 4xx stores nothing: no complete page of its status lists the refused pet.',
    note: 'Implied: only the 201 says "Animal added"; a refused request that adds the animal anyway makes every retrying client create it twice. Judged by the exploration phase on complete pages (fewer animals than the limit) only.',
    faults: ['invalid-stored', 'create-401-stored'],
    titles: { pass: 'No refused createPet was stored', fail: 'A refused createPet was stored anyway' },
  },
  'INPUT-NUMBER-PRECISION': {
    level: 'SHOULD',
    section: 'Resources and their fields / NewPet',
    quote: 'categoryId | integer, format int64 | yes | Identifier of the category the animal belongs to.',
    title:
      'An integer beyond ±(2^53 − 1) written with a fraction or an exponent (18014398509481983.0, 9.007199254740993e15) is read exactly or refused with a 400 Error, not read through a double.',
    note: 'RFC 8259 §6 lets an implementation limit the precision of the numbers it accepts, so a value read as the nearest IEEE 754 double is a warning (the latitude number-precision), never a MUST failure; an integer written canonically keeps the int64 promise (CREATE-201-PET, GET-ROUND-TRIP, LIST-ROUND-TRIP).',
    faults: ['category-id-double'],
    titles: { fail: 'A {field} written with a fraction or an exponent was read through a double' },
  },
});
