/**
 * The deprecation of GET /pets/{petId}, removal on 5 December 2030.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const DEPRECATION = section('deprecation', {
  'DEPRECATION-SIGNALLED': {
    level: 'SHOULD',
    section: 'Versioning',
    quote: 'GET /pets/{petId} is deprecated, with removal announced for 5 December 2030',
    title: 'getPet responses signal the deprecation (Deprecation, Sunset or a deprecation Link).',
    faults: ['no-deprecation-headers'],
    titles: {
      pass: 'Deprecation is signalled',
      fail: 'No deprecation signal',
    },
  },
  'DEPRECATION-SUNSET-DATE': {
    level: 'MUST',
    section: 'Endpoints / Get an animal',
    quote: 'announced for removal on 5 December 2030',
    title: 'A Sunset header, if sent, is a valid HTTP-date on 5 December 2030.',
    faults: ['wrong-sunset', 'sunset-not-http-date'],
    titles: {
      pass: 'Sunset is the announced date',
      fail: 'Sunset is not the announced removal date',
      'not-http-date': 'Sunset is not an HTTP-date',
      absent: 'No Sunset header',
    },
  },
  'DEPRECATION-HEADER-VALID': {
    level: 'SHOULD',
    section: 'Endpoints / Get an animal',
    quote: 'the operation is marked deprecated',
    title: 'A Deprecation header, if sent, is an RFC 9745 date (@epoch-seconds).',
    note: 'RFC 9745 defines the Deprecation field as a Structured Field Date, @<epoch-seconds>.',
    faults: ['deprecation-boolean'],
    titles: {
      pass: 'Deprecation is an RFC 9745 date',
      fail: 'Deprecation is not an RFC 9745 date',
    },
  },
  'DEPRECATION-BEFORE-SUNSET': {
    level: 'SHOULD',
    section: 'Endpoints / Get an animal',
    quote: 'announced for removal on 5 December 2030',
    title: 'The Deprecation date is not after the Sunset date.',
    note: 'RFC 9745: the Sunset timestamp should not be earlier than the Deprecation timestamp.',
    faults: ['deprecation-after-sunset'],
    titles: {
      pass: 'Deprecation precedes the Sunset',
      fail: 'Deprecation is after the Sunset',
    },
  },
  'DEPRECATION-SUCCESSOR-LINK': {
    level: 'INFO',
    section: 'Versioning',
    quote: 'clients migrate to GET /pets with the status filter.',
    title: 'A Link to documentation or to the successor is observed.',
    titles: {
      observed: 'Deprecation links observed',
    },
  },
});
