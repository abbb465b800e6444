/**
 * The one orchestrator keeps the key safe between and within scenarios, the
 * same on both engines (simulated time): never a request while a Retry-After
 * runs; a wait longer than --max-wait-ms ends the run at once with the
 * scenarios left "not run" and the flag that would run them — never a hang;
 * recovery without a usable Retry-After waits for X-RateLimit-Reset, sends a
 * single probe and reports RL-RECOVERY as not judgeable; the run's deadline
 * holds.
 */
import { describe, expect, it } from 'vitest';
import type { App, AppOptions } from '../../reference/app.ts';
import { outcomesOf, runVirtual, T0, WINDOW_MS, type EngineKind } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';

const bundles = builtBundles('orch-dist');

const ENGINES: EngineKind[] = ['node', 'k6'];

interface Seen {
  t: number;
  status: number;
  retryAfterMs?: number;
}

/** Record every request the app answers: when, what, and how long its Retry-After asked to wait. */
function recording(log: Seen[]) {
  return (app: App, clock: { now(): number }) => {
    const call = app.call;
    app.call = (req) => {
      const res = call(req);
      const ra = res.headers['retry-after'];
      log.push({ t: clock.now(), status: res.status, ...(ra && /^\d+$/.test(ra) ? { retryAfterMs: Number(ra) * 1000 } : {}) });
      return res;
    };
  };
}

/** Requests sent while an earlier 429's Retry-After was still running. */
function early(log: readonly Seen[]): Seen[] {
  return log.filter((x, i) => log.slice(0, i).some((p) => p.status === 429 && p.retryAfterMs !== undefined && x.t < p.t + p.retryAfterMs));
}

describe.each(ENGINES)('on the %s engine', (kind) => {
  const run = (scenarios: Parameters<typeof runVirtual>[1], options: AppOptions, log: Seen[] = [], job = {}) =>
    runVirtual(kind, scenarios, options, { dist: bundles.dir, before: recording(log), job });

  it('Scenarios back to back on one key never send while a Retry-After runs, and a key that bans early retries is never banned.', async () => {
    const log: Seen[] = [];
    const r = await run(['ceiling', 'recovery', 'sustained', 'overload'], { variants: { banOnEarlyRetry: true } }, log);
    expect(early(log)).toEqual([]);
    expect(r.reports.map((x) => x.verdict)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(log.filter((x) => x.status === 429 && (x.retryAfterMs ?? 0) > WINDOW_MS + 2000)).toEqual([]);
  });

  it('On a server whose quota days are known, the daily scenario on an unused key starts on a fresh day, so the day it spends is all its own.', async () => {
    const DAY = 20 * WINDOW_MS;
    const log: Seen[] = [];
    // An unused key, started 7 windows into a 20-window day: the rest of the day is too short to spend the quota in it.
    const start = Math.floor(T0 / DAY) * DAY + 7 * WINDOW_MS;
    const r = await runVirtual(
      kind,
      ['daily'],
      { dayMs: DAY, enterprise: { perMinute: 20, perDay: 200 } },
      {
        dist: bundles.dir,
        start,
        before: recording(log),
        job: { perDay: 200, dayMs: DAY, maxWaitMs: DAY, nextDayAt: (now: number) => Math.ceil(now / DAY) * DAY },
      },
    );
    expect(log[0].t).toBeGreaterThanOrEqual(start - 7 * WINDOW_MS + DAY);
    expect(outcomesOf(r.reports[0].judgements)['RL-DAILY-QUOTA']).toBe('pass');
  });

  it("A Retry-After of an hour (beyond --max-wait-ms) ends the run at once: recovery is not run, with the flag that would run it; on the key's first 429 it is a ban nothing earned (RL-BAN-EARNED fails).", async () => {
    const r = await run(['ceiling', 'recovery'], { variants: { retryAfterPaddingS: 3600 } }, [], { maxWaitMs: 70_000 });
    expect(r.clock.now() - T0).toBeLessThan(70_000);
    expect(r.reports.map((x) => x.scenario)).toEqual(['ceiling']);
    expect(r.stopped?.kind).toBe('max-wait');
    expect(r.notRun).toEqual([expect.objectContaining({ scenario: 'recovery', remedy: expect.stringContaining('--max-wait-ms') })]);
    expect(outcomesOf(r.reports[0].judgements)['RL-CEILING-429']).toBe('pass');
    expect(outcomesOf(r.reports[0].judgements)['RL-BAN-EARNED']).toBe('fail');
  });

  it('The same Retry-After inside the recovery scenario stops it without a probe: RL-RECOVERY not exercised, not failed; RL-BAN-EARNED failed.', async () => {
    const log: Seen[] = [];
    const r = await run(['recovery'], { variants: { retryAfterPaddingS: 3600 } }, log, { maxWaitMs: 70_000 });
    expect(r.clock.now() - T0).toBeLessThan(70_000);
    expect(early(log)).toEqual([]);
    expect(outcomesOf(r.reports[0].judgements)['RL-RECOVERY']).toBe('skip');
    expect(outcomesOf(r.reports[0].judgements)['RL-BAN-EARNED']).toBe('fail');
    expect(r.reports[0].verdict).toBe('fail');
  });

  it('Without a usable Retry-After, recovery waits for X-RateLimit-Reset, sends one probe, and does not judge RL-RECOVERY.', async () => {
    const log: Seen[] = [];
    const r = await run(['recovery'], { faults: ['retry-after-negative'] }, log);
    const first429 = log.findIndex((x) => x.status === 429);
    const after = log.slice(first429 + 1);
    expect(after).toHaveLength(1);
    expect(after[0].t).toBeGreaterThanOrEqual(Math.floor(T0 / WINDOW_MS) * WINDOW_MS + WINDOW_MS);
    const o = outcomesOf(r.reports[0].judgements);
    expect(o['RL-RECOVERY']).toBe('skip');
    expect(o['RL-429-RETRY-AFTER']).toBe('fail');
  });

  it('The run deadline ends a scenario in time and leaves the next one not run, with --deadline-ms as the remedy.', async () => {
    const r = await run(['sustained', 'overload'], {}, [], { deadlineAt: T0 + 0.5 * WINDOW_MS });
    expect(r.clock.now()).toBeLessThanOrEqual(T0 + 0.5 * WINDOW_MS + 5_000);
    expect(r.reports[0].stoppedBecause).toMatch(/deadline/);
    expect(r.notRun).toEqual([expect.objectContaining({ scenario: 'overload', remedy: expect.stringContaining('--deadline-ms') })]);
    expect(outcomesOf(r.reports[0].judgements)['RL-SUSTAINED-BELOW-CEILING']).toBe('skip');
  });

  it('Each scenario the deadline leaves out names itself: the first with the wait it would have needed, the later ones as not reached.', async () => {
    // The ceiling ends in its first window; the sustained scenario would first wait for a fresh one, past the deadline.
    const r = await run(['ceiling', 'sustained', 'overload'], {}, [], { deadlineAt: T0 + 0.5 * WINDOW_MS });
    expect(r.reports.map((x) => x.scenario)).toEqual(['ceiling']);
    expect(r.notRun.map((n) => [n.scenario, n.reason])).toEqual([
      ['sustained', expect.stringMatching(/^the run deadline leaves no time for sustained after waiting/)],
      ['overload', 'the run deadline leaves no time for overload (the run stopped before sustained)'],
    ]);
  });
});
