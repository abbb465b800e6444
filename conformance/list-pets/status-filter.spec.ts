/**
 * listPets with the status filter returns only animals with that status, with limit=100, with no limit (default page
 * of 20) and with limit=1; an unknown status value is not a server error.
 *
 * When writes are allowed, one pet of each status is created first: a limit=100 or default page that can prove an
 * animal absent (shorter than its limit and than the largest page the server has served: limit is only a maximum)
 * must hold the pet the suite created with that status, with exactly its fields (ids compared as exact digits). A
 * limit=1 page is not judged for it. With writes off the store may hold no animal of a status: nothing is concluded.
 * Judged by the core's rules (src/core/sections/list-pets/rules.ts), the ones the exploration phase calls too.
 */
import { defineSpec, type SpecTest } from '../../src/harness/define-spec.ts';
import type { TestContext } from '../../src/harness/context.ts';
import { answerOf, createdPets, expectedPet, listPets, STATUSES } from '../../src/harness/ops.ts';
import {
  judgeListed,
  judgePage,
  judgePageSize,
  judgeStatusFilter,
  judgeUnknownStatus,
  pageOf,
} from '../../src/core/sections/list-pets/rules.ts';

interface Case {
  /** The limit sent (none: the default page). */
  limit?: number;
  /** Must the page show the pet created with its status, when it can prove it absent (see provesAbsence)? */
  finds: boolean;
  title(status: string): string;
}

const CASES: Case[] = [
  {
    limit: 100,
    finds: true,
    title: (s) =>
      `The filter status=${s} with limit=100 returns only animals whose status is ${s}, among them the pet created with status ${s} when the page lists every match.`,
  },
  {
    finds: true,
    title: (s) =>
      `The filter status=${s} without limit returns at most 20 animals, all with status ${s}, the pet created with it when the page lists every match.`,
  },
  {
    limit: 1,
    finds: false,
    title: (s) => `The filter status=${s} with limit=1 returns at most one animal, with status ${s}.`,
  },
];

async function run(t: TestContext, status: string, c: Case) {
  const mine = t.config.allowWrites ? (await createdPets(t)).find((p) => p.sent.status === status) : undefined;
  const query: Record<string, string> = c.limit ? { status, limit: String(c.limit) } : { status };
  const q = new URLSearchParams(query).toString();
  const ex = await t.request(listPets(query));
  const a = answerOf(ex);
  const page = a && pageOf(a);
  if (!a || !page) return void t.judge(ex, a ? [judgePage(a, q)] : []);
  const created = mine && c.finds ? expectedPet(mine) : undefined;
  const listing = { page, limit: c.limit ?? 20, largest: t.session.largestPage(c.limit ?? 20), what: q };
  t.judge(ex, [
    judgePage(a, q),
    judgeStatusFilter(page, status, q),
    judgePageSize(page, c.limit, q),
    ...(created ? judgeListed(created.expected, created.id, listing, created.sent.written) : []),
  ]);
}

export default defineSpec({
  operation: 'listPets',
  behaviour: 'status-filter',
  tests: [
    ...STATUSES.flatMap((status) =>
      CASES.map((c): SpecTest => ({
        title: c.title(status),
        requirements: [
          'LIST-200-PETS',
          'LIST-STATUS-FILTER',
          c.limit ? 'LIST-LIMIT-HONOURED' : 'LIST-DEFAULT-LIMIT',
          ...(c.finds ? (['LIST-COMPLETE-PAGE', 'LIST-ROUND-TRIP'] as const) : []),
        ],
        run: (t: TestContext) => run(t, status, c),
      })),
    ),
    {
      title: 'An unknown status value is answered without a server error.',
      requirements: ['LIST-STATUS-UNKNOWN-NO-5XX'],
      async run(t) {
        const ex = await t.request(listPets({ status: 'adopted-by-aliens' }, { alsoAcceptable: [400, 422] }));
        const a = answerOf(ex);
        t.judge(ex, a ? [judgeUnknownStatus(a, 'status=adopted-by-aliens')] : []);
      },
    },
  ],
});
