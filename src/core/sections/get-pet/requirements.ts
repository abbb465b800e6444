/**
 * Get an animal (GET /pets/{petId}, deprecated): the round trip and the 404.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const GET_PET = section('getPet', {
  'GET-ROUND-TRIP': {
    level: 'MUST',
    section: 'Endpoints / Get an animal',
    quote: '| 200 | Pet | The requested animal. |',
    title: 'A created pet is returned by GET /pets/{petId} with exactly the same fields, id digits included.',
    faults: [
      'lossy-ids',
      'get-other-pet',
      'category-id-unsigned',
      'duplicate-status-echo-first',
      'get-truncates-long-names',
      'get-tab-as-space',
      'name-cut-utf8-255',
      'name-nfkc',
      'null-cached-lookup',
    ],
    titles: {
      pass: 'Pet read back by its id exactly',
      fail: 'Pet read back by its id differs in {fields}',
      notFound: 'Pet not found by its id',
      notRead: 'Pet not read back by its id',
    },
  },
  'GET-404-UNKNOWN': {
    level: 'MUST',
    section: 'Endpoints / Get an animal',
    quote: '| 404 | Error | The requested resource could not be found. |',
    title: 'An unknown id is answered 404 with an Error.',
    faults: ['unknown-id-200', 'get-mid-id-500', 'petid-uint64-wrap', 'petid-low-32-bits'],
    titles: {
      pass: 'An id no pet has answered 404',
      same: 'A 200 is the pet asked for',
      fail: 'An id no pet has not answered 404',
      other: 'Another pet returned for an id',
    },
  },
  'GET-NON-INTEGER-ID-4XX': {
    level: 'SHOULD',
    section: 'Endpoints / Get an animal',
    quote: 'petId, required, integer, format int64',
    title: 'A non-integer petId is answered with a 4xx, never a 5xx.',
    faults: ['non-integer-id-500', 'get-unicode-digits-500', 'petid-leading-digits'],
    titles: {
      pass: 'Non-integer id refused',
      fail: 'Non-integer id not rejected',
      serverError: 'Non-integer id causes a server error',
    },
  },
});
