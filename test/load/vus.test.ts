/**
 * The k6 engine sizes a paced scenario's VUs from the latency the key's last
 * scenario saw (Little's law, with half again for jitter, at most 64): k6's
 * arrival-rate executor drops the iterations no VU is free for, so with one VU a
 * slow server would never see the sustained or overload rate. The Node engine's
 * requests are not tied to VUs: its jobs are left as they are (simulated time, a
 * scripted engine).
 */
import { describe, expect, it } from 'vitest';
import type { LoadReport } from '../../src/core/load-report.ts';
import type { ScenarioName } from '../../src/core/scenarios.ts';
import type { EngineResult, LoadEngine, LoadJob } from '../../load/node/engine.ts';
import { vusFor } from '../../load/node/key-rest.ts';
import { orchestrate } from '../../load/node/orchestrator.ts';
import { VirtualClock } from '../support/virtual.ts';
import { job, runVirtual, T0, virtualApp } from './helpers.ts';
import { builtBundles } from '../support/bundles.ts';
import { EmulatedK6 } from '../support/k6-shim/engine.ts';

/** Business: 1,000 a minute; sustained offers 900 a window, overload more. */
const business = (scenario: ScenarioName, over: Partial<LoadJob> = {}) =>
  job(scenario, { plan: 'business', perMinute: 1000, windowMs: 60_000, ...over });

describe('VUs for a paced scenario', () => {
  it.each([
    ['sustained', 1500, 34], // 1.5 × 900 × 1.5 s / 60 s = 33.75
    ['sustained', 2, 1], // a fast server: the configured one
    ['sustained', 10_000, 64], // capped
    ['ceiling', 1500, 1], // not paced: one VU batches its requests in flight
    ['recovery', 1500, 1],
    ['overload', 1500, 1], // throttled by design: VUs sharing no state would retry early after another's 429
    ['daily', 1500, 1],
  ] as const)('%s at %d ms responses runs on %d VUs.', (scenario, latencyMs, vus) => {
    expect(vusFor(business(scenario), { latencyMs }).maxVus).toBe(vus);
  });

  it('More VUs configured (--max-vus) than the latency needs are kept; no latency seen leaves the job as it is.', () => {
    expect(vusFor(business('sustained', { maxVus: 50 }), { latencyMs: 1500 }).maxVus).toBe(50);
    expect(vusFor(business('overload'), {}).maxVus).toBe(1);
  });
});

/** An engine that reports, for each run, the latency its key saw. */
class Scripted implements LoadEngine {
  readonly runs: LoadJob[] = [];
  constructor(
    readonly name: 'node' | 'k6',
    private readonly clock: VirtualClock,
    private readonly latencyMs: number,
  ) {}

  async run(j: LoadJob): Promise<EngineResult> {
    this.runs.push(j);
    const startedAt = new Date(this.clock.now()).toISOString();
    await this.clock.wait(j.windowMs).done;
    const report: LoadReport = {
      scenario: j.scenario,
      plan: j.plan,
      engine: this.name,
      target: j.baseUrl,
      startedAt,
      endedAt: new Date(this.clock.now()).toISOString(),
      verdict: 'pass',
      requestsSent: 10,
      judgements: [],
      timeline: [],
      key: { lastResponseAt: this.clock.now(), latencyMs: this.latencyMs },
    };
    return { report };
  }
}

describe('the orchestrator', () => {
  it.each([
    ['k6', [1, 34, 1]], // overload stays on one VU
    ['node', [1, 1, 1]],
  ] as const)(
    'On the %s engine, after a ceiling whose responses took 1.5 s, sustained and overload run on %o VUs, and the console says why.',
    async (engineName, vus) => {
      const clock = new VirtualClock(T0);
      const engine = new Scripted(engineName, clock, 1500);
      const waits: string[] = [];
      await clock.run(() =>
        orchestrate([business('ceiling'), business('sustained'), business('overload')], { engine, clock, onWait: (l) => waits.push(l) }),
      );
      expect(engine.runs.map((j) => j.maxVus)).toEqual(vus);
      expect(waits.some((w) => w.includes("k6 VUs: the key's responses took 1500 ms on average"))).toBe(engineName === 'k6');
    },
  );
});

describe('several VUs of a paced scenario in one k6 process (the emulator: one VU carrying its share)', () => {
  const bundles = builtBundles('vus-dist');
  it.each([
    ['a correct server', 'pass', {}],
    ['sustained-throttle', 'fail', { faults: ['sustained-throttle'] }],
  ] as const)(
    'Against %s the VUs carry their requests and the report is judged on all of them as one run: RL-SUSTAINED-BELOW-CEILING %s.',
    async (_name, outcome, options) => {
      const out = await runVirtual('k6', ['sustained'], options, { dist: bundles.dir, job: { maxVus: 2 } });
      const r = out.reports[0];
      expect(r.judgements.find((j) => j.requirement === 'RL-SUSTAINED-BELOW-CEILING')?.outcome).toBe(outcome);
      expect(r.judgements.some((j) => j.title === 'Not judged on a share')).toBe(false);
      expect(r.notes?.[0]).toBe(
        "Run on 2 k6 VUs (for the latency the key's earlier scenario saw): judged on the requests of them all, on one timeline.",
      );
    },
  );
});

describe('plans side by side in one k6 process', () => {
  const bundles = builtBundles('vus-plans-dist');
  it('Every plan runs on the most VUs any of them needs, and each plan is judged on all of its VUs as one run.', async () => {
    const clock = new VirtualClock(T0);
    const app = virtualApp({}, clock);
    const engine = new EmulatedK6(bundles.dir, app, clock);
    const deadlineAt = T0 + 3_600_000;
    const jobs = [
      job('sustained', { plan: 'enterprise', maxVus: 2, dedicatedKey: true, deadlineAt }),
      job('sustained', { plan: 'free', perMinute: 60, perDay: 1000, apiKey: app.keys.free, maxVus: 1, dedicatedKey: true, deadlineAt }),
    ];
    const results = await clock.run(() => engine.runBatch(jobs));
    for (const { report } of results) {
      expect(report.judgements.find((j) => j.requirement === 'RL-SUSTAINED-BELOW-CEILING')?.outcome, report.plan).toBe('pass');
      expect(report.notes?.[0], report.plan).toMatch(/^Run on 2 k6 VUs/);
    }
  });
});
