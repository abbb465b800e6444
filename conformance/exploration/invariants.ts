import type { RequirementId } from '../../src/core/catalogue.ts';

/** The requirements the exploration phase's invariants are tied to (src/explore/oracle.ts and the check registry). */
export const INVARIANTS: readonly RequirementId[] = [
  'RESP-STATUS-DOCUMENTED',
  'CREATE-201-PET',
  'INPUT-NUMBER-PRECISION',
  'CREATE-400-MISSING-FIELD',
  'CREATE-400-WRONG-TYPE',
  'CREATE-400-BAD-STATUS',
  'CREATE-400-BAD-BODY',
  'LIST-200-PETS',
  'LIST-LIMIT-HONOURED',
  'LIST-LIMIT-OUT-OF-RANGE',
  'LIST-STATUS-FILTER',
  'LIST-STATUS-UNKNOWN-NO-5XX',
  'GET-404-UNKNOWN',
  'GET-NON-INTEGER-ID-4XX',
  'INPUT-SILENT-HANDLING',
  'HTTP-EQUIVALENT-FORMS',
];
