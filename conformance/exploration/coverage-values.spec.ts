/**
 * The exploration phase, coverage part: for every parameter and body field of
 * every operation, the boundary and class values of its type, derived from the
 * JSON Schemas and the OpenAPI document — int64 extremes and their neighbours,
 * 2^53 ± 1, non-canonical spellings, every class of Unicode that breaks real
 * servers, each enumeration value and its near misses, wrong JSON types,
 * missing and unknown properties. Valid values must be served, invalid ones
 * refused, silent ones either — and never a 5xx.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { coveragePhase, explorationTest } from '../../src/explore/index.ts';
import { INVARIANTS } from './invariants.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'coverage-values',
  tests: [
    explorationTest({
      title:
        'Every boundary and class value of every parameter and body field is answered as the schema says: served when valid, refused when invalid, never a 5xx.',
      requirements: INVARIANTS,
      part: coveragePhase,
    }),
  ],
});
