/**
 * Every response: its status, media type, body and Error body; and requests HTTP makes equivalent, and inputs the spec is silent about.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const RESPONSES = section('responses', {
  'RESP-STATUS-DOCUMENTED': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'Responses: | Status | Body | Meaning |',
    title: 'Every response status is one the spec documents for the operation (or 429).',
    faults: [
      'create-returns-200',
      'name-astral-500',
      'extra-property-500',
      'name-non-latin1-415',
      'duplicate-member-500',
      'bom-500',
      'deep-nesting-500',
      'repeated-param-500',
      'next-after-large-body-500',
      'name-newline-500',
      'html-error',
      'always-500',
      'accept-language-500',
      'user-agent-403',
      'petid-sign-500',
      'query-trailing-amp-500',
      'id-blocks-overlap-500',
    ],
    titles: {
      pass: 'Documented status code',
      fail: 'Undocumented status code',
    },
  },
  'RESP-CONTENT-TYPE-JSON': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'All success and error bodies are application/json.',
    title: 'Every response body is labelled Content-Type application/json.',
    faults: ['content-type-text', 'content-type-missing', 'errors-text-plain'],
    titles: {
      pass: 'JSON content type',
      fail: 'Content-Type is not application/json',
      'plus-json': 'A +json type instead of application/json',
    },
  },
  'RESP-BODY-JSON': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'an HTTP interface that exchanges JSON',
    title: 'Every response body is well-formed JSON.',
    faults: ['list-body-not-json', 'created-empty-body', 'unauthorized-empty-body', 'name-unescaped', 'body-not-json', 'json-truncated'],
    titles: {
      pass: 'Well-formed JSON body',
      fail: 'Body is not JSON',
      empty: 'Empty body',
    },
  },
  'RESP-JSON-UNIQUE-NAMES': {
    level: 'SHOULD',
    section: 'What the service does',
    quote: "The service keeps a store's catalogue of animals over an HTTP interface that exchanges JSON.",
    title: 'No JSON object of a response body holds a member name twice: the names within each object are unique.',
    note: 'RFC 8259 §4: "The names within an object SHOULD be unique." and "When the names within an object are not unique, the behavior of software that receives such an object is unpredictable." JavaScript and most parsers keep the last value, some the first, some refuse the body: clients of one server read different data. The suite reads the last value for every other check; an RFC\'s SHOULD, so a repeated name warns, never fails.',
    faults: ['list-duplicate-member'],
    titles: {
      pass: 'Member names unique in every object',
      fail: 'Member name repeated in a JSON object',
    },
  },
  'RESP-CONTENT-CODING': {
    level: 'SHOULD',
    section: 'Endpoints',
    quote: 'All success and error bodies are application/json.',
    title:
      "A response's content coding is one its request's Accept-Encoding accepts (none but identity when it names no other), and its body decodes to the JSON the other checks read.",
    note: 'RFC 9110 §12.5.3: a server SHOULD answer without a content coding when none the request lists is available, and a request with no Accept-Encoding accepts any. Every response is read as its Content-Encoding says (gzip, deflate, br); a body that does not decode fails RESP-BODY-JSON; a coding the request did not accept warns here.',
    faults: ['gzip-unasked'],
    titles: {
      pass: 'Content coding accepted by the request',
      fail: 'Content coding the request did not accept ({coding})',
    },
  },
  'SCHEMA-PETS': {
    level: 'MUST',
    section: 'Resources and their fields / Pets',
    quote: 'A JSON array whose items are Pet records.',
    title: 'A listPets 200 body validates against the Pets schema.',
    faults: ['list-wrapped', 'list-status-unknown-value'],
    titles: {
      pass: 'Body is a valid Pets',
      fail: 'Body does not match the Pets schema',
    },
  },
  'SCHEMA-PET': {
    level: 'MUST',
    section: 'Resources and their fields / Pet',
    quote: 'A Pet has every field of NewPet plus:',
    title: 'A createPet 201 or getPet 200 body validates against the Pet schema.',
    faults: ['id-as-string', 'name-numeric-json', 'zero-values-omitted'],
    titles: {
      pass: 'Body is a valid Pet',
      fail: 'Body does not match the Pet schema',
    },
  },
  'SCHEMA-ERROR': {
    level: 'MUST',
    section: 'Errors',
    quote: 'Every error response has the Error body (code, message, status).',
    title: 'Every 4xx body but the 429 (400, 401, 404, and any other 4xx a server sends) validates against the Error schema.',
    faults: ['error-missing-message', 'error-422-not-error'],
    titles: {
      pass: 'Body is a valid Error',
      fail: 'Body does not match the Error schema',
    },
  },
  'ERROR-STATUS-FIELD': {
    level: 'MUST',
    section: 'Resources and their fields / Error',
    quote: 'status | integer | yes | The HTTP status code of the response.',
    title: 'Error.status equals the HTTP status of the response.',
    faults: ['error-status-mismatch'],
    titles: {
      pass: 'Error.status matches',
      fail: 'Error.status differs from the HTTP status',
    },
  },
  'HTTP-EQUIVALENT-FORMS': {
    level: 'SHOULD',
    section: 'What the service does',
    quote: "The service keeps a store's catalogue of animals over an HTTP interface that exchanges JSON.",
    title:
      'A request HTTP or URI syntax makes equivalent to a valid one is served alike: a media type or an authentication scheme in another case or with parameters, Accept */* or none, percent-encoded query names and values, parameters in another order.',
    note: 'RFC 9110 §8.3.1 (media types are case-insensitive; RFC 8259 §11: a charset parameter has no effect), §11.1 (authentication schemes are case-insensitive), §12.5.1 (no Accept: any media type), RFC 3986 §6.2.2 (percent-encoded unreserved characters are equivalent), RFC 9112 §7.1 (a body sent chunked, without Content-Length: a recipient MUST be able to parse the chunked coding). The spec names none of these forms, so a server that refuses one is warned, never failed.',
    faults: [
      'charset-415',
      'bearer-case-sensitive',
      'query-encoded-name-ignored',
      'accept-charset-406',
      'charset-latin1',
      'query-lowercase-hex-ignored',
      'query-empty-pair-400',
      'chunked-body-empty',
    ],
    titles: { pass: 'Served like its equivalent request', fail: 'Not served like its equivalent request ({form})' },
  },
  'ERROR-CODE-VALUES': {
    level: 'INFO',
    section: 'Errors',
    quote: 'The set of values of the code field for each condition: not shown.',
    title: 'The Error codes the service uses are observed, not judged.',
    titles: {
      observed: 'Error code observed',
    },
  },
  'INPUT-SILENT-HANDLING': {
    level: 'INFO',
    section: 'Limits',
    quote: 'The maximum length of name: not shown.',
    title:
      'Inputs the spec is silent about (long names, control characters, characters outside printable ASCII, unknown properties, non-canonical numbers, non-positive ids) are accepted and read back exactly, or refused with a clean error: what the server does is observed.',
    note: 'The exploration phase (generated inputs) observes it; a 5xx or an undocumented status for such an input still fails RESP-STATUS-DOCUMENTED, and an accepted one that reads back differently fails the round trip of the operation that showed it (CREATE-201-PET, GET-ROUND-TRIP, LIST-ROUND-TRIP), unless a latitude of the LATITUDES table explains the change.',
    titles: {
      trimmed: 'Name trimmed',
      surrogate: 'Lone surrogate replaced',
      refused: 'Refused where the spec is silent',
    },
  },
  'METHOD-405-ALLOW': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'Method and path: `GET /pets` (operation name `listPets`).',
    title:
      'A method a documented path does not take, sent with the key, is answered 405 with an Allow header (or 404, 401 or 501), never served.',
    note: 'RFC 9110 §15.5.6: the origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods. A 2xx with the key is observed: an operation the spec does not show ("Other endpoints: not shown"). What the 405 says beyond Allow is METHOD-405-DETAILS\'s.',
    faults: ['method-405-bare'],
    titles: {
      pass: '{method} {path} refused',
      fail: 'A method a path does not take answered without Allow',
      observed: '{method} {path} answered',
    },
  },
  'METHOD-HEAD-AS-GET': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'Method and path: `GET /pets/{petId}` (operation name `getPet`).',
    title: 'HEAD, where a server serves it, answers as GET would: never served (2xx) where GET is refused (a 404, a 401, a 400).',
    note: "RFC 9110 §9.3.2: \"The HEAD method is identical to GET except that the server MUST NOT send content in the response\", and the server SHOULD send the same header fields. Whether HEAD is served at all is the server's choice (methods-not-shown): refused (405, 501, a router's 404) passes. A HEAD served where GET is refused tells what GET does not (an id that exists, a key that works): a failure. A served HEAD whose Content-Type is not GET's warns.",
    faults: ['head-always-200', 'head-ignores-query'],
    titles: {
      pass: 'HEAD {path} answered as GET',
      refused: 'HEAD {path} not served',
      fail: 'HEAD served where GET is refused',
      headers: "HEAD's Content-Type is not GET's",
    },
  },
  'METHOD-405-DETAILS': {
    level: 'SHOULD',
    section: 'Errors',
    quote: 'Every error response has the Error body (`code`, `message`, `status`).',
    title:
      "A 405's Allow lists every method the spec documents for its path, its body is an Error, and a method a path does not take causes no server error.",
    note: 'The Error heading says "body of every error response described below", and no 405 is described: a 405 without an Error body warns. An Allow that omits a documented method is not the resource\'s "currently supported methods" (RFC 9110 §15.5.6; a router that answers from the first route matching the path does this): it warns. A 5xx (but 501) for a method the server does not take warns.',
    faults: ['method-405-allow-partial'],
    titles: {
      pass: '405 complete',
      incomplete: 'Allow omits a documented method',
      bare: 'A 405 without an Error body',
      serverError: 'A method a path does not take causes a server error',
    },
  },
});
