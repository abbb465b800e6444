/**
 * The id a 200 carries is the id asked for: a held id shifted by 2^32 (still an int64) is another id, and shifted by
 * ±2^64 it is outside int64. A server that parses the id into 64 bits ignoring overflow, or looks it up by part of its
 * bits (a cache keyed by a 32-bit int), answers with the held animal instead (issue 39). The id comes from the first
 * page of listPets, so it runs with writes off too.
 */
import { defineSpec } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { answerOf, getPet, listPets, pageIds } from '../../src/harness/ops.ts';
import { judgeIdOutsideInt64, judgeNothingToShift, judgeUnknownId } from '../../src/core/sections/get-pet/rules.ts';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The shifts: by 2^32 (the low 32 bits kept), by 2^64 up and down (the low 64 bits kept). */
const SHIFTS = [2n ** 32n, 2n ** 64n, -(2n ** 64n)];

async function heldId(t: TestContext): Promise<string | undefined> {
  const ex = await t.request(listPets({ limit: '1' }));
  return t.conclusive(ex) ? pageIds(ex)[0] : undefined;
}

export default defineSpec({
  operation: 'getPet',
  behaviour: 'shifted-ids',
  tests: [
    {
      title: 'A held id shifted by 2^32 or by ±2^64 is answered 404 or refused, never with the held animal.',
      requirements: ['GET-404-UNKNOWN', 'GET-NON-INTEGER-ID-4XX'],
      async run(t) {
        const held = await heldId(t);
        if (held === undefined) return void t.judge(undefined, judgeNothingToShift());
        await t.together(SHIFTS, async (shift) => {
          const id = (BigInt(held) + shift).toString();
          const ex = await t.request(getPet(id, { alsoAcceptable: [400, 422] }));
          const a = answerOf(ex);
          const shown = `GET /pets/${id} (the listed id ${held} ${shift < 0n ? '-' : '+'} 2^${shift === 2n ** 32n ? 32 : 64})`;
          const inRange = BigInt(id) >= INT64_MIN && BigInt(id) <= INT64_MAX;
          t.judge(ex, a ? [inRange ? judgeUnknownId(id, a, shown) : judgeIdOutsideInt64(id, a, shown)] : []);
        });
      },
    },
  ],
});
