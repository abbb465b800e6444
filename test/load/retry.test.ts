/**
 * A scenario whose client fell short of its rate — on the embedded server, which shares the machine with the
 * client, a busy machine rather than a finding — runs once more, and its second attempt's report replaces the
 * first, saying so and counting the first one's requests. Never on a remote target (no retries there), never
 * when the first attempt found anything, at most once, and only within the budget and the deadline
 * (simulated time, a scripted engine).
 */
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../../src/core/sections/define.ts';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { EngineResult, LoadEngine, LoadJob } from '../../load/node/engine.ts';
import { orchestrate, type OrchestratorOptions } from '../../load/node/orchestrator.ts';
import { VirtualClock } from '../support/virtual.ts';
import { job, T0, WINDOW_MS } from './helpers.ts';

const SHORT: Judgement = {
  requirement: 'RL-SUSTAINED-BELOW-CEILING',
  outcome: 'skip',
  title: 'Sustained rate not reached',
  message: '119 requests at 18 per 1 min window (90% of 20; achieved 4.4) over 2.7 min: none was answered 429',
};
const PASS: Judgement = {
  requirement: 'RL-SUSTAINED-BELOW-CEILING',
  outcome: 'pass',
  title: 'Never throttled below the ceiling',
  message: 'ok',
};
const WARN: Judgement = { requirement: 'RL-429-ERROR-BODY', outcome: 'warn', title: 'Not an Error body', message: 'a 429 body' };

/** An engine that answers each run with the next judgements of its script, after two windows of simulated time. */
class Scripted implements LoadEngine {
  readonly name = 'node' as const;
  readonly runs: LoadJob[] = [];
  constructor(
    private readonly clock: VirtualClock,
    private readonly script: Judgement[][],
  ) {}

  async run(j: LoadJob): Promise<EngineResult> {
    const judgements = this.script[Math.min(this.runs.length, this.script.length - 1)];
    this.runs.push(j);
    const startedAt = new Date(this.clock.now()).toISOString();
    await this.clock.wait(2 * j.windowMs).done;
    const report: LoadReport = {
      scenario: j.scenario,
      plan: j.plan,
      engine: 'node',
      target: j.baseUrl,
      startedAt,
      endedAt: new Date(this.clock.now()).toISOString(),
      verdict: judgements.some((x) => x.outcome === 'skip') ? 'incomplete' : 'pass',
      requestsSent: 100 + this.runs.length,
      judgements,
      timeline: [],
      key: { lastResponseAt: this.clock.now() },
    };
    return { report };
  }
}

async function runScripted(script: Judgement[][], over: Partial<LoadJob>, retryBudget = 100_000, widen?: OrchestratorOptions['widen']) {
  const clock = new VirtualClock(T0);
  const engine = new Scripted(clock, script);
  const waits: string[] = [];
  const out = await clock.run(() =>
    orchestrate([job('sustained', { retries: 1, ...over }), job('overload', over)], {
      engine,
      clock,
      retryBudget,
      onWait: (line) => waits.push(line),
      widen,
    }),
  );
  return { out, runs: engine.runs, waits };
}

describe('a scenario whose client fell short of its rate', () => {
  it('Runs once more on the embedded server; the second report replaces the first, says why, and counts its requests.', async () => {
    const { out, runs, waits } = await runScripted([[SHORT], [PASS]], {});
    expect(runs.map((j) => j.scenario)).toEqual(['sustained', 'sustained', 'overload']);
    expect(out.reports.map((r) => [r.scenario, r.verdict, r.requestsSent])).toEqual([
      ['sustained', 'pass', 101 + 102],
      ['overload', 'pass', 103],
    ]);
    expect(out.reports[0].notes?.[0]).toMatch(
      /^Second attempt: a first one \(.*, 101 requests over 120\.0 s, counted here\) fell short of the scenario's rate — RL-SUSTAINED-BELOW-CEILING: 119 requests/,
    );
    expect(waits.join('\n')).toMatch(/sustained \(enterprise\) once more: the client fell short of its rate \(119 requests/);
    // The key rested a fresh window between the attempts, as between any two paced scenarios.
    expect(out.notRun).toEqual([]);
  });

  it.each([
    ['on a remote target (no retries)', [[SHORT], [PASS]], { retries: undefined }, 100_000],
    ['when the first attempt also warned', [[SHORT, WARN], [PASS]], {}, 100_000],
    ['when the budget left beyond the caps does not cover its caps again', [[SHORT], [PASS]], {}, 10],
    ['when its time cap would pass the deadline', [[SHORT], [PASS]], { deadlineAt: T0 + 5 * WINDOW_MS }, 100_000],
  ] as const)('Does not run again %s: the first report stands.', async (_name, script, over, budget) => {
    const { out, runs } = await runScripted(script as unknown as Judgement[][], over, budget);
    expect(runs[0].scenario).toBe('sustained');
    expect(runs[1].scenario).not.toBe('sustained');
    expect(out.reports[0].requestsSent).toBe(101);
    expect(out.reports[0].notes ?? []).toEqual([]);
  });

  it('Runs again at most once: a second shortfall is reported as it is.', async () => {
    const { out, runs } = await runScripted([[SHORT], [SHORT], [PASS]], {});
    expect(runs.map((j) => j.scenario)).toEqual(['sustained', 'sustained', 'overload']);
    expect(out.reports[0].judgements).toEqual([SHORT]);
    expect(out.reports[0].notes?.[0]).toMatch(/^Second attempt/);
  });

  it('In a world that can grow (the embedded server), the second attempt and every scenario after it run in the longer window, on no fresh day.', async () => {
    let widened = 0;
    const widen = () => (widened++ ? undefined : (j: LoadJob) => ({ ...j, windowMs: 2 * j.windowMs, freshDay: undefined }));
    const day = { dayMs: 10 * WINDOW_MS, nextDayAt: (now: number) => Math.ceil(now / (10 * WINDOW_MS)) * 10 * WINDOW_MS };
    const { out, runs, waits } = await runScripted([[SHORT], [PASS]], day, 100_000, widen);
    expect(runs.map((j) => [j.scenario, j.windowMs / WINDOW_MS])).toEqual([
      ['sustained', 1],
      ['sustained', 2],
      ['overload', 2],
    ]);
    // Asked once, before the second attempt; a second attempt waits for no fresh quota day in it (its counts restarted).
    expect(widened).toBe(1);
    expect(runs[1].freshDay).toBeUndefined();
    expect(waits.join('\n')).not.toMatch(/fresh quota day/);
    expect(out.reports.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(out.reports[0].notes?.[0]).toMatch(/This one ran in a 120 s window, the first in 60 s\.$/);
  });

  it('In a world that cannot grow, the second attempt runs in the same window.', async () => {
    const { runs } = await runScripted([[SHORT], [PASS]], {}, 100_000, () => undefined);
    expect(runs.map((j) => j.windowMs / WINDOW_MS)).toEqual([1, 1, 1]);
  });

  it('A ceiling whose POST at the limit met a turned window (headers that cannot say which request is beyond the limit) runs once more.', async () => {
    const unpredictable: Judgement = {
      requirement: 'RL-429-NOTHING-STORED',
      outcome: 'skip',
      title: 'Not judged: the headers cannot say which request is beyond the limit',
      message:
        'the headers cannot say which request is beyond the limit (…): the createPet sent after 20 successes by count was answered 201 — a window turned during the ceiling',
    };
    const stored: Judgement = {
      requirement: 'RL-429-NOTHING-STORED',
      outcome: 'pass',
      title: 'A createPet refused with 429 stored nothing',
      message: 'ok',
    };
    const clock = new VirtualClock(T0);
    const engine = new Scripted(clock, [[unpredictable], [stored]]);
    const out = await clock.run(() => orchestrate([job('ceiling', { retries: 1 })], { engine, clock, retryBudget: 100_000 }));
    expect(engine.runs.map((j) => j.scenario)).toEqual(['ceiling', 'ceiling']);
    expect(out.reports[0].judgements).toEqual([stored]);
    expect(out.reports[0].notes?.[0]).toMatch(/^Second attempt: .* RL-429-NOTHING-STORED: .* a window turned during the ceiling/);
  });

  it('A recovery the client could not probe (its cap reached before the 429 and the probe, a busy machine) falls short too: it runs once more.', async () => {
    const notTried: Judgement = {
      requirement: 'RL-RECOVERY',
      outcome: 'skip',
      title: 'Recovery not tried',
      message: "no probe was sent after request #605's 429 (Retry-After: 1): request cap of 605 reached",
    };
    const recovered: Judgement = { requirement: 'RL-RECOVERY', outcome: 'pass', title: 'Served after Retry-After', message: 'ok' };
    const clock = new VirtualClock(T0);
    const engine = new Scripted(clock, [[notTried], [recovered]]);
    const out = await clock.run(() => orchestrate([job('recovery', { retries: 1 })], { engine, clock, retryBudget: 100_000 }));
    expect(engine.runs.map((j) => j.scenario)).toEqual(['recovery', 'recovery']);
    expect(out.reports[0].judgements).toEqual([recovered]);
    expect(out.reports[0].notes?.[0]).toMatch(/^Second attempt: .* RL-RECOVERY: no probe was sent/);
  });
});
