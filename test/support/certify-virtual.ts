/**
 * Test support: a certification run as `npm start` makes it (src/cli/certify-run.ts)
 * — the profile of a configuration, the embedded reference server it opens, the
 * conformance specs (in process), then the rate-limit scenarios, assembled into
 * one report — on simulated time, so that it proves what a run exercises on any
 * machine in a fraction of a second. `asIs`: the configuration's own request
 * budget (plus the scenarios' caps, as npm start adds them) and deadline;
 * otherwise both are widened for worlds with long days. `busy`: the client runs on
 * a busy machine (late timers, CPU per request: see Busy). `engine`: the engine the
 * scenarios run on (by default the Node engine; the k6 bundles in the emulator on the
 * same clock for a run that picked k6), with the record the certificate keeps of it.
 * Deterministic: the run's randomness comes from a generator seeded by `phase` (default 1).
 */
import { NodeEngine, type LoadEngine } from '../../load/node/engine.ts';
import type { EngineRecord } from '../../src/core/engine-record.ts';
import type { App } from '../../reference/app.ts';
import { costLines, runRateLimits } from '../../load/node/run.ts';
import { buildApp, type AppOptions } from '../../reference/app.ts';
import { profileFor } from '../../src/cli/profiles.ts';
import type { Config } from '../../src/settings/read-config.ts';
import { runSpecs, specPaths } from '../../src/harness/in-process-runner.ts';
import { collectSpecs } from '../../src/harness/define-spec.ts';
import { Session } from '../../src/harness/session.ts';
import { certificationReport } from '../../src/results/certification.ts';
import type { RunReport } from '../../src/results/types.ts';
import { embeddedNote, embeddedTarget, worldInfo, type Target } from '../../src/target/target.ts';
import { BusyClock, busySend, VirtualClock, virtualSend, type Busy } from './virtual.ts';

/** 2030-01-01 12:00:00.250 UTC. */
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0) + 250;

export interface VirtualCertification {
  report: RunReport;
  target: Target;
  /** The scenarios the profile ran, in order. */
  scenarios: string[];
  /** Simulated time from the first request to the report (waits only: no CPU time). */
  simulatedMs: number;
}

/** The engine of a virtual run: made on the run's reference app and clock, and what the certificate records of it. */
export interface VirtualEngine {
  make: (app: App, clock: VirtualClock) => LoadEngine;
  record: EngineRecord;
}

interface Options {
  start?: number;
  asIs?: boolean;
  busy?: Busy;
  phase?: number;
  engine?: VirtualEngine;
}

export async function certifyVirtually(config: Config, app: AppOptions = {}, o: Options = {}): Promise<VirtualCertification> {
  // The run's own randomness (the exploration seed, the jitter of its waits) drawn from a seeded generator: the same
  // call gives the same run, whatever the machine; `phase` picks another (another exploration, other waits).
  const random = Math.random;
  Math.random = seeded(o.phase ?? 1);
  try {
    const explore = { ...config.explore, seed: Math.floor(Math.random() * 2 ** 32) };
    return await certify({ ...config, explore }, app, o);
  } finally {
    Math.random = random;
  }
}

/** A small seeded generator (mulberry32) in place of Math.random. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The embedded target as openTarget makes it, on the virtual server (`asIs`: its own budget and deadline, not the tests' larger ones). */
function virtualTarget(embedded: ReturnType<typeof embeddedTarget>, baseUrl: string, asIs?: boolean): Target {
  const { windowMs, dayMs } = embedded.options;
  // Progress lines are for a terminal: none in a test's output.
  const base = { ...embedded.config, output: { ...embedded.config.output, progress: false } };
  const world = worldInfo(base, embedded.options, undefined, embedded.dailyKeys);
  return {
    config: asIs ? base : { ...base, maxRequests: 100_000, deadlineMs: 10 * dayMs },
    info: { env: base.env, baseUrl, plan: base.plan, embedded: true, world },
    windowMs,
    dayMs,
    dailyKeys: embedded.dailyKeys,
    close: async () => undefined,
  };
}

async function certify(config: Config, app: AppOptions, o: Options): Promise<VirtualCertification> {
  const profile = profileFor(config);
  const clock = o.busy ? new BusyClock(o.start ?? T0, o.busy) : new VirtualClock(o.start ?? T0);
  const started = clock.now();
  const baseUrl = 'http://127.0.0.1:4010/v1';
  const embedded = embeddedTarget(profile.config, baseUrl, { ...app, now: () => clock.now() });
  const { dayMs } = embedded.options;
  const reference = buildApp(embedded.options);
  const inProcess = virtualSend(reference, clock);
  const send = clock instanceof BusyClock ? busySend(inProcess, clock) : inProcess;
  const target = virtualTarget(embedded, baseUrl, o.asIs);
  const c = target.config;
  // As npm start does: a budget not given also covers the caps of the scenarios asked for.
  if (o.asIs && !c.maxRequestsGiven && profile.scenarios.length) c.maxRequests += costLines(target, profile.scenarios).maxRequests;
  const session = new Session({
    config: c,
    baseUrl,
    dayMs,
    embedded: true,
    now: () => clock.now(),
    sleep: (ms) => clock.wait(ms).done,
    send,
  });
  const files = await collectSpecs(specPaths());
  const conformance = profile.conformance ? await clock.run(() => runSpecs(session, files)) : { findings: [], requests: 0 };
  const load = await clock.run(() =>
    runRateLimits(target, profile.scenarios, {
      engine: o.engine ? o.engine.make(reference, clock) : new NodeEngine({ send, clock }, () => undefined),
      budget: c.maxRequests - conformance.requests,
      clock,
    }),
  );
  // The report as the certify command assembles it.
  const report = certificationReport({
    suiteVersion: 'test',
    specSha256: 'x',
    target: target.info,
    startedAt: new Date(started),
    endedAt: new Date(clock.now()),
    interrupted: false,
    ...(load.stopped ? { abort: load.stopped.reason } : {}),
    requestsSent: conformance.requests + load.reports.reduce((n, r) => n + r.requestsSent, 0),
    conformance: conformance.findings,
    lanes: load.lanes,
    ...(o.engine ? { engine: o.engine.record } : {}),
    ...(c.plans
      ? { plans: c.plans.map((p) => ({ plan: p.plan, perMinute: p.limits.perMinute, perDay: p.limits.perDay, keySource: p.keySource })) }
      : {}),
    notes: [embeddedNote(target) as string, ...profile.notes],
  });
  return { report, target, scenarios: [...profile.scenarios], simulatedMs: clock.now() - started };
}

/** The MUST requirements of a report that did not pass, with why (empty for a certified run). */
export const notPassedMusts = (r: RunReport): string[] =>
  r.requirements
    .filter((q) => q.level === 'MUST' && q.status !== 'pass')
    .map((q) => `${q.id} ${q.status}: ${q.findings[0]?.message ?? ''}`);
