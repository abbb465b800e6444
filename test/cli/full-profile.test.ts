/**
 * The full profile can certify completely — proven on simulated time, so the
 * proof holds on any machine: the profile's conformance specs (writes on) and
 * every per-minute scenario, and the daily one (allowed by default on the
 * embedded server), run against a reference server on a virtual clock with the
 * spec's real minute, or in the embedded server's own short world; every MUST
 * requirement is exercised and passes, and the run is CERTIFIED. With the
 * daily scenario refused, the same run is incomplete, and says RL-DAILY-QUOTA
 * is certified only with --allow-daily. Each rate-limit fault mode keeps it
 * from certifying (a SHOULD fault is reported as a warning).
 */
import { describe, expect, it } from 'vitest';
import type { AppOptions } from '../../reference/app.ts';
import { FAULTS, faultsFor } from '../../reference/faults.ts';
import { readConfig } from '../../src/settings/read-config.ts';
import { certifyVirtually as certify, notPassedMusts } from '../support/certify-virtual.ts';
import { SMALL_EXPLORE_BUDGET } from '../support/explore-budget.ts';

const MINUTE = 60_000;
const DAY = 30 * MINUTE; // a short quota day: 400 requests, reachable in 25 minutes at 18 a minute

/** The spec's minute and a 30-minute day. */
const SHORT_DAY = { 'window-ms': String(MINUTE), 'day-ms': String(DAY), 'max-wait-ms': String(DAY) };
/** A world of its own: enterprise at 20 a minute and 400 a day, on that minute and day. */
const SHORT = { ...SHORT_DAY, plan: 'enterprise', rpm: '20', rpd: '400' };
/** A run judged on a rate-limit fault: the conformance specs warm the key as they do, the exploration phase on a small budget. */
const SMALL_EXPLORATION = { 'explore-budget': String(SMALL_EXPLORE_BUDGET) };

/** A certification run on simulated time against the embedded server as `npm start` configures it (`world`: its settings). */
async function certifyVirtually(flags: Record<string, string | boolean>, app: AppOptions = {}, world: Record<string, string> = SHORT) {
  return (await certify(readConfig({}, { ...world, ...flags }, 'start'), app)).report;
}

describe('the full profile', () => {
  // This run explores on the default budget (the full profile as a user runs it); the others judge the rate-limit
  // world of a plan, a header variant or what is left out: their exploration phase runs on the small budget (each part
  // of it still runs, so every MUST is still exercised), about a third of the CPU time of each run.
  it('With the daily opt-in it exercises every MUST requirement, and a correct server is CERTIFIED.', async () => {
    const r = await certifyVirtually({ profile: 'full', 'allow-daily': true });
    expect(notPassedMusts(r)).toEqual([]);
    expect(r.notExercised).toEqual([]);
    expect(r.outcome).toBe('certified');
    expect(r.load?.map((l) => l.scenario)).toEqual(['ceiling', 'recovery', 'sustained', 'overload', 'daily']);
  }, 90_000);

  it.each<Record<string, string>>([{}, { plan: 'free' }, { plan: 'business' }, { plan: 'enterprise', rpm: '600' }])(
    'On the embedded server in its own short world (its window, day and quotas for the plan), the full profile certifies %o.',
    async (plan) => {
      const r = await certifyVirtually({ profile: 'full', ...plan, ...SMALL_EXPLORATION }, {}, {});
      expect(notPassedMusts(r)).toEqual([]);
      expect(r.outcome).toBe('certified');
    },
    90_000,
  );

  it('On the embedded server with headers that count the day, the full profile certifies: Limit is judged against its quota, and a POST at the limit is refused.', async () => {
    const r = await certifyVirtually({ profile: 'full' }, { variants: { rateLimitHeaders: 'day' } }, {});
    // Remaining counting the day cannot say which request is beyond the limit: the POST goes after the limit's successes
    // by count, and a window that turned during the ceiling serves it; each served POST makes the next request at the
    // limit a POST again (load/lib/operations.ts), until one is refused and read back (RL-429-NOTHING-STORED).
    // That is a heuristic: when every POST of the ceiling lands after a turn (seen once in CI's npm test) the ceiling
    // runs once more (a shortfall: load/lib/load-shapes.ts); when the second attempt meets turns too, the run says
    // RL-429-NOTHING-STORED was not exercised, and is INCOMPLETE — never a failure.
    const left = notPassedMusts(r);
    if (left.length === 0) expect(r.outcome).toBe('certified');
    else {
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(/^RL-429-NOTHING-STORED skip: .*a window turned/);
      expect(r.outcome).toBe('incomplete');
    }
  }, 90_000);

  it('With the daily scenario refused (--allow-daily false) it passes but is incomplete, and says RL-DAILY-QUOTA needs --allow-daily.', async () => {
    const r = await certifyVirtually({ profile: 'full', 'allow-daily': 'false', ...SMALL_EXPLORATION });
    expect(r.outcome).toBe('incomplete');
    expect(r.notExercised.map((n) => n.id)).toEqual(['RL-DAILY-QUOTA']);
    expect(r.notExercised[0].remedy).toMatch(/--allow-daily/);
  }, 90_000);

  it.each(faultsFor('load').filter((f) => !FAULTS[f].sideBySide))(
    'With the load fault %s the full profile is not conformant (a MUST fault) or warns on its requirement (a SHOULD fault).',
    async (fault) => {
      const r = await certifyVirtually({ profile: 'full', 'allow-daily': true, ...SMALL_EXPLORATION }, { faults: [fault] });
      const { requirement, outcome } = FAULTS[fault].expect;
      // A MUST fault is never certified (after conformance warmed the key, a fault may be caught by a later scenario's
      // requirement than the one the fault's own proof names); a SHOULD fault is reported as a warning on its requirement.
      if (outcome === 'fail') expect(r.outcome).toBe('not-conformant');
      else expect(r.requirements.find((q) => q.id === requirement)?.status).toBe('warn');
    },
    90_000,
  );
});

describe('several plans in one run', () => {
  it('Free and pro certified side by side: each plan is judged on its own key, and the run is as complete as its plans.', async () => {
    const r = await certifyVirtually({ profile: 'full', plans: 'free,pro', 'allow-daily': 'false', ...SMALL_EXPLORATION }, {}, SHORT_DAY);
    expect(r.plans?.map((p) => [p.plan, p.outcome, p.notExercised.map((n) => n.id)])).toEqual([
      ['free', 'incomplete', ['RL-DAILY-QUOTA']],
      ['pro', 'incomplete', ['RL-DAILY-QUOTA']],
    ]);
    expect(r.outcome).toBe('incomplete');
    expect(r.load?.map((l) => l.plan)).toEqual(['free', 'free', 'free', 'free', 'pro', 'pro', 'pro', 'pro']);
  }, 90_000);

  it('A server counting free and pro in one bucket makes both plans, and the run, not conformant.', async () => {
    const r = await certifyVirtually(
      { profile: 'full', plans: 'free,pro', ...SMALL_EXPLORATION },
      { faults: ['plans-share-bucket'] },
      SHORT_DAY,
    );
    expect(r.plans?.map((p) => [p.plan, p.outcome])).toEqual([
      ['free', 'not-conformant'],
      ['pro', 'not-conformant'],
    ]);
    expect(r.outcome).toBe('not-conformant');
    expect(r.requirements.find((q) => q.id === 'RL-REMAINING-DECREMENTS')?.status).toBe('fail');
  }, 90_000);
});
