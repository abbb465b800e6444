/**
 * List all animals (GET /pets): the page, its limit, the status filter.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const LIST_PETS = section('listPets', {
  'LIST-200-PETS': {
    level: 'MUST',
    section: 'Endpoints / List all animals',
    quote: '| 200 | Pets (array of Pet) | Page of animals. |',
    title: 'GET /pets with a valid key answers 200 with a page of animals.',
    faults: ['list-500', 'list-500-bare', 'list-500-every-7th', 'list-500-after-astral'],
    titles: {
      pass: 'Valid query answered 200',
      fail: 'Valid listPets query not answered 200',
    },
  },
  'LIST-DEFAULT-LIMIT': {
    level: 'MUST',
    section: 'Limits / Page size',
    quote: 'limit on GET /pets: integer from 1 to 100, default 20.',
    title: 'Without limit, a page holds at most 20 animals.',
    faults: ['default-limit-50', 'query-kept-per-connection'],
    titles: {
      pass: 'Default page within 20',
      fail: 'Default page larger than 20',
    },
  },
  'LIST-LIMIT-HONOURED': {
    level: 'MUST',
    section: 'Endpoints / List all animals',
    quote: 'Maximum number of animals returned.',
    title: 'A limit of 1, 20 or 100 is never exceeded.',
    faults: ['limit-ignored', 'limit-ignored-with-status', 'list-cache-key-status'],
    titles: {
      pass: 'Page within the limit',
      fail: 'Page larger than the limit',
    },
  },
  'LIST-LIMIT-FILLS-PAGE': {
    level: 'SHOULD',
    section: 'Endpoints / List all animals',
    quote: 'the limit parameter controls page size.',
    title: 'When more animals exist than the limit, the page holds exactly limit animals.',
    faults: ['limit-short-page'],
    titles: {
      pass: 'limit={limit} page is full',
      fail: 'Page shorter than limit though more animals exist',
    },
  },
  'LIST-LIMIT-OUT-OF-RANGE': {
    level: 'MUST',
    section: 'Limits / Page size',
    quote: 'Minimum 1, maximum 100, default 20.',
    title: 'An out-of-range or non-integer limit never yields more than 100 animals nor a 5xx.',
    faults: ['limit-unbounded', 'limit-sign-500', 'limit-float-parse', 'limit-int32-overflow-500'],
    titles: {
      pass: 'Out-of-range limit handled',
      'server-error': 'Out-of-range limit causes a server error',
      'too-many': 'Out-of-range limit returns more than 100 animals',
    },
  },
  'LIST-LIMIT-OUT-OF-RANGE-HANDLING': {
    level: 'INFO',
    section: 'Endpoints / List all animals',
    quote: 'integer from 1 to 100, default 20.',
    title: 'How an out-of-range limit is handled (400 with Error, or clamping) is observed.',
    note: 'listPets documents only 200 and 401, so rejecting with 400 and clamping are both accepted.',
    titles: {
      observed: 'Out-of-range limit handling',
    },
  },
  'LIST-STATUS-FILTER': {
    level: 'MUST',
    section: 'Endpoints / List all animals',
    quote: 'status | PetStatus | no | Returns only animals with this status.',
    title: 'The status filter returns only animals with that status.',
    faults: ['filter-ignored', 'filter-needs-limit'],
    titles: {
      pass: 'Filtered page holds only that status',
      fail: 'Filtered page holds another status',
    },
  },
  'LIST-ROUND-TRIP': {
    level: 'MUST',
    section: 'Endpoints / List all animals',
    quote: '| 200 | Pets (array of Pet) | Page of animals. |',
    title: 'A created pet appears in the list with exactly the Pet fields it was created with, id digits included.',
    faults: ['list-lossy-category-id', 'list-nbsp-as-space', 'list-cuts-names-200', 'list-strips-controls'],
    titles: {
      pass: 'Listed pet has exactly the created fields',
      fail: 'Listed pet differs from the created one in {fields}',
    },
  },
  'LIST-COMPLETE-PAGE': {
    level: 'MUST',
    section: 'What the service does',
    quote: 'A client can list animals, optionally filtered by availability status.',
    title:
      'A created pet is found in the list of its status: a page shorter than its limit (and than the largest page the server has served, as limit is only a maximum) holds every animal that matches.',
    note: 'A server may serve fewer animals than the limit (a cap of its own: LIST-LIMIT-FILLS-PAGE warns), so only a page shorter than both its limit and the largest page the server has served in the run proves an animal absent.',
    faults: ['list-always-empty', 'list-omits-created', 'default-status-unlisted', 'limit-before-filter'],
    titles: {
      pass: 'Created pet found in the list',
      fail: 'A page that lists every match misses a created pet',
    },
  },
  'LIST-STATUS-UNKNOWN-NO-5XX': {
    level: 'SHOULD',
    section: 'Resources and their fields / PetStatus',
    quote: 'Allowed values: available, pending, sold.',
    title: 'An unknown status value is answered without a 5xx.',
    faults: ['unknown-status-500', 'status-astral-500', 'status-near-miss-500'],
    titles: {
      pass: 'Unknown status answered without a 5xx',
      fail: 'Unknown status causes a server error',
    },
  },
  'LIST-PAGINATION-CONTROLS': {
    level: 'INFO',
    section: 'Endpoints / List all animals',
    quote: 'Pagination controls other than limit (cursor, offset, page number, links in the response): not shown.',
    title: 'Pagination controls other than limit (Link header…) are observed, not judged.',
    titles: {
      observed: 'Pagination controls observed',
    },
  },
});
