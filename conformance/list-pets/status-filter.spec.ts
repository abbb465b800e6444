/**
 * listPets with the status filter returns only animals with that status, with
 * limit=100, with no limit (default page of 20) and with limit=1; an unknown
 * status value is not a server error.
 *
 * When writes are allowed, one pet of each status is created first: the
 * limit=100 and default pages must then list something, and a limit=100 page
 * holding fewer than 100 animals is the complete set, so it must hold the pet
 * the suite created with that status (ids compared as exact digits). A limit=1
 * page is not judged for emptiness: a page shorter than its limit is only a
 * SHOULD concern (LIST-LIMIT-FILLS-PAGE). With writes off the store may hold no
 * animal of a status, and emptiness proves nothing.
 */
import { defineSpec } from '../../src/harness/spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { createdPets, describeStatus, isObject, listPets, pageIds, STATUSES } from '../../src/harness/ops.ts';

interface Case {
  /** The limit sent (none: the default page). */
  limit?: string;
  /** The largest page allowed, and the requirement judging it. */
  max: number;
  sizeRequirement: 'LIST-LIMIT-HONOURED' | 'LIST-DEFAULT-LIMIT';
  /**
   * What the page must hold once a pet with this status exists: `listed`, at
   * least one animal; `complete`, also that pet when the page is shorter than `max`.
   */
  holds?: 'listed' | 'complete';
  title(status: string): string;
}

const CASES: Case[] = [
  {
    limit: '100',
    max: 100,
    sizeRequirement: 'LIST-LIMIT-HONOURED',
    holds: 'complete',
    title: (s) =>
      `The filter status=${s} with limit=100 returns only animals whose status is ${s}, among them the pet created with status ${s} when the page is not full.`,
  },
  {
    max: 20,
    sizeRequirement: 'LIST-DEFAULT-LIMIT',
    holds: 'listed',
    title: (s) => `The filter status=${s} without limit returns at most 20 animals, all with status ${s}.`,
  },
  {
    limit: '1',
    max: 1,
    sizeRequirement: 'LIST-LIMIT-HONOURED',
    title: (s) => `The filter status=${s} with limit=1 returns at most one animal, with status ${s}.`,
  },
];

async function run(t: TestContext, status: string, c: Case) {
  const mine = t.config.allowWrites ? (await createdPets(t)).find((p) => p.sent.status === status && p.id !== undefined) : undefined;
  const query: Record<string, string> = c.limit ? { status, limit: c.limit } : { status };
  const q = new URLSearchParams(query).toString();
  const ex = await t.request(listPets(query));
  if (ex.response?.status !== 200 || !Array.isArray(ex.json)) {
    t.check(ex, {
      requirement: 'LIST-STATUS-FILTER',
      ok: false,
      pass: '-',
      fail: 'Filtered list not answered with a page',
      message: `${q}: ${describeStatus(ex)}`,
      evidence: { expected: '200 with Pets', actual: describeStatus(ex) },
    });
    return;
  }
  const n = ex.json.length;
  const wrong = ex.json.filter((p) => !isObject(p) || p.status !== status).map((p) => (isObject(p) ? String(p.status) : typeof p));
  t.check(ex, {
    requirement: 'LIST-STATUS-FILTER',
    ok: wrong.length === 0,
    pass: `status=${status} filter holds (${n} animals)`,
    fail: 'Filter returns animals of another status',
    message: wrong.length
      ? `${q} returned ${wrong.length} of ${n} animals with another status (${[...new Set(wrong)].join(', ')})`
      : `${q} returned ${n} animals, all with status ${status}`,
    evidence: { expected: `only status ${status}`, actual: [...new Set(wrong)].join(', ') },
  });
  t.check(ex, {
    requirement: c.sizeRequirement,
    ok: n <= c.max,
    pass: `${q} page within ${c.max}`,
    fail: c.limit ? 'Filtered page larger than limit' : 'Filtered default page larger than 20',
    message: `${q} returned ${n} animals${n <= c.max ? '' : `, more than ${c.max}`}`,
    evidence: { expected: `≤ ${c.max}`, actual: String(n) },
  });
  if (!mine || !c.holds) return; // writes off or creation failed: the store may hold no animal with this status
  const complete = c.holds === 'complete' && n < c.max;
  const listed = pageIds(ex).includes(mine.id);
  t.check(ex, {
    requirement: 'LIST-STATUS-FILTER',
    ok: n > 0 && (!complete || listed),
    pass: complete ? `${q} lists the pet created with status ${status}` : `${q} lists animals`,
    fail:
      n === 0 ? 'Filtered page empty although an animal with that status exists' : 'Created pet missing from the complete filtered list',
    message:
      n === 0
        ? `${q} returned no animal although pet ${mine.id} was created with status ${status}`
        : complete
          ? `${q} returned ${n} animals (fewer than ${c.max}, so all of them), ${listed ? 'among them' : 'but not'} pet ${mine.id} created with status ${status}`
          : `${q} returned ${n} animals`,
    evidence: {
      expected: complete ? `a page holding id ${mine.id}` : 'at least 1 animal',
      actual: n === 0 ? 'empty page' : `${n} animals without id ${mine.id}`,
    },
  });
}

export default defineSpec({
  operation: 'listPets',
  behaviour: 'status-filter',
  tests: [
    ...STATUSES.flatMap((status) =>
      CASES.map((c) => ({
        title: c.title(status),
        requirements: ['LIST-STATUS-FILTER', c.sizeRequirement],
        run: (t: TestContext) => run(t, status, c),
      })),
    ),
    {
      title: 'An unknown status value is answered without a server error.',
      requirements: ['LIST-STATUS-UNKNOWN-NO-5XX'],
      async run(t) {
        const ex = await t.request(listPets({ status: 'adopted-by-aliens' }, { alsoAcceptable: [400, 422] }));
        const status = ex.response?.status ?? 0;
        t.check(ex, {
          requirement: 'LIST-STATUS-UNKNOWN-NO-5XX',
          ok: status < 500,
          pass: `unknown status answered ${status}`,
          fail: 'Unknown status causes a server error',
          message: `status=adopted-by-aliens: ${describeStatus(ex)}`,
          evidence: { expected: '2xx or 4xx', actual: describeStatus(ex) },
        });
      },
    },
  ],
});
