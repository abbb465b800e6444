/**
 * Hygiene and security: the spec is silent, a user must know (ADVISORY: warns, never fails).
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const HYGIENE = section('hygiene', {
  'HYGIENE-CREDENTIAL-NOT-REFLECTED': {
    level: 'ADVISORY',
    section: 'Authentication',
    quote: 'The client sends its API key as the bearer token in the Authorization header.',
    title:
      'No response reflects the credential its request carried (the key raw, under Bearer or Basic, in any case or encoding) in its body or headers.',
    note: 'A server that echoes credentials writes them into client logs, error trackers, proxies and caches: a leaked key. The spec does not forbid it, so it is a warning; the evidence shown is redacted.',
    faults: ['reflect-credentials', 'reflect-credentials-header'],
    titles: {
      pass: 'Credential not reflected',
      'in-body': 'Credential reflected in the response body',
      'in-header': 'Credential reflected in a response header',
      'key-in-body': 'Credential reflected in the response body (the configured key)',
      'key-in-header': 'Credential reflected in a response header (the configured key)',
    },
  },
  'HYGIENE-DEPRECATION-ONLY-GETPET': {
    level: 'ADVISORY',
    section: 'Versioning',
    quote:
      'GET /pets/{petId} is deprecated, with removal announced for 5 December 2030; clients migrate to GET /pets with the status filter.',
    title: 'Only getPet signals deprecation: listPets and createPet carry no Deprecation, Sunset or deprecation Link.',
    note: 'The spec deprecates getPet alone and names GET /pets as its replacement; a deprecation signal on another operation tells clients to migrate away from the replacement, or alarms them for nothing. The spec does not forbid it, so it is a warning.',
    faults: ['deprecate-list'],
    titles: {
      pass: 'No deprecation signal',
      fail: 'Deprecation signalled on an operation the spec does not deprecate',
    },
  },
  'HYGIENE-JSON-EXTENSION': {
    level: 'ADVISORY',
    section: 'Add an animal',
    quote: 'Request body: required, application/json, shape NewPet.',
    title:
      'A createPet body that is JSON only through an extension RFC 8259 §9 allows (comments, trailing commas, single quotes, unquoted names, data after the value…) is refused; one that is accepted is read as the extension reads it.',
    note: 'RFC 8259 §9: "A JSON parser MAY accept non-JSON forms or extensions", so accepting one is no failure. But a proxy, WAF or gateway in front that parses the body strictly, or takes another extension, then reads another request than the server (a parser differential: a field it checked is not the one stored). A warning names the extension taken; a server that stores something else than the extension\'s reading (the second of two values) fails the round trip.',
    faults: ['trailing-data-accepted', 'json5-accepted'],
    titles: {
      pass: 'Body that is no JSON refused',
      accepted: 'Body accepted through a JSON extension ({extension})',
    },
  },
});
