/**
 * The exploration phase, stateful part: generated values travel through storage. First, the createPet requests the
 * server refused must not show up on any page of their status that lists every match. Then every pet the phase
 * created is looked for in bulk (on the page of its status, by its id when no page can prove it absent), and
 * generated sequences create pets — status given or left out, names of any script and length — and read each back
 * wherever a client can find it: by id, in its status's list and in the unfiltered one. Each must come back exactly as
 * sent (name code point for code point, categoryId digit for digit, status). A failing sequence is shrunk as one.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import { bulkReadBack, explorationTest, statefulPhase, storedPhase } from '../../src/explore/index.ts';

export default defineSpec({
  operation: 'exploration',
  behaviour: 'stateful-round-trip',
  tests: [
    explorationTest({
      title: 'A createPet request the server refused stores nothing: no page of its status that lists every match shows it.',
      requirements: ['CREATE-400-NOTHING-STORED'],
      writes: true,
      part: storedPhase,
    }),
    explorationTest({
      title:
        'A created pet is found wherever a client can find it, exactly as sent: every pet the phase created, in bulk, then generated sequences of creates and reads.',
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
  ],
});
