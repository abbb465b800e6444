/**
 * The exploration phase, stateful part: generated NewPets travel through
 * storage — every pet the phase created is read back in its status's list,
 * then generated ones go create → getPet → list by status with a generated
 * limit — and must come back exactly as sent (name code point for code point,
 * categoryId digit for digit, status). Then the createPet requests the server
 * refused must not show up in any complete page of their status.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { bulkReadBack, explorationTest, statefulPhase, storedPhase } from '../../src/explore/index.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'stateful-round-trip',
  tests: [
    explorationTest({
      title:
        'A generated pet that was created reads back exactly as sent, through getPet and through the list of its status (every pet the phase created, in bulk, first).',
      requirements: [
        'CREATE-201-PET',
        'GET-ROUND-TRIP',
        'LIST-ROUND-TRIP',
        'LIST-COMPLETE-PAGE',
        'LIST-STATUS-FILTER',
        'INPUT-NUMBER-PRECISION',
        'INPUT-SILENT-HANDLING',
      ],
      writes: true,
      part: async (x) => {
        await bulkReadBack(x);
        await statefulPhase(x);
      },
    }),
    explorationTest({
      title: 'A createPet request the server refused stores nothing: no complete page of its status lists it.',
      requirements: ['CREATE-400-NOTHING-STORED'],
      writes: true,
      part: storedPhase,
    }),
  ],
});
