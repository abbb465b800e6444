/**
 * The two load engines behind one interface: a job (one scenario on one key)
 * in, the scenario's LoadReport out. The Node engine runs the scenario of
 * load/lib in process (undici, or any `send` on any clock); the k6 engine
 * (k6.ts) runs the bundled script with the k6 binary. The orchestrator decides
 * what runs when; the engines only run.
 */
import type { LoadReport } from '../../src/core/load-report.ts';
import { buildLoadReport } from '../../src/core/load-report.ts';
import type { PlanName } from '../../src/core/plans.ts';
import { makeRedactor } from '../../src/core/redact.ts';
import { networkSecrets, type NetworkConfig } from '../../src/settings/network.ts';
import { send as undiciSend } from '../../src/http/transport.ts';
import { scenarioOptions } from '../lib/scenario-options.ts';
import { createRun, SCENARIOS } from '../lib/load-shapes.ts';
import type { ScenarioName, ScenarioOptions } from '../lib/types.ts';
import { realClock, type Clock } from './clock.ts';
import { drive, type Send } from './driver.ts';
import { Lateness } from './lateness.ts';
import { Progress } from './progress.ts';

/** One scenario on one key. */
export interface LoadJob {
  scenario: ScenarioName;
  plan: PlanName;
  perMinute: number;
  perDay?: number;
  baseUrl: string;
  apiKey: string;
  /** The route and TLS to the target (proxy, CA, client certificate, HTTP/2): both engines take the same. */
  network?: NetworkConfig;
  windowMs: number;
  dayMs: number;
  maxWaitMs: number;
  /** Epoch ms by which the job must be done (the run's overall deadline). */
  deadlineAt: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** k6: VUs of the arrival-rate scenarios; a share of a distributed run. */
  maxVus: number;
  distributed: boolean;
  progress: boolean;
  /** Scenario tuning (tests: the jitter source, tolerances…). */
  tuning?: Partial<ScenarioOptions>;
  /**
   * When the target's next quota day starts (epoch ms), if known — only for the
   * embedded reference server, whose days are aligned on the epoch: the daily
   * scenario then starts on a fresh day, so the day's quota is all its own.
   */
  nextDayAt?: (now: number) => number;
  /**
   * A real target: when its next quota day likely starts, taking days as aligned on the epoch (UTC midnight for
   * the spec's day; its true alignment is not known). The daily scenario waits for it only when the wait fits
   * --max-wait-ms and the deadline (a short --day-ms, or a run near midnight); its judgement counts the run's
   * earlier requests on the key either way.
   */
  likelyNextDayAt?: (now: number) => number;
  /**
   * The job's key is its own: no other job of the lane sends on it (the embedded server's daily key, reference/keys.ts
   * DAILY_KEYS): the orchestrator keeps its state (requests sent, 429s, rests) apart from the lane's key.
   */
  ownKey?: boolean;
  /**
   * What the daily scenario needs of a quota day on its own key (src/target/world.ts dayNeededMs): on that key unused, it
   * starts at once when the current day (nextDayAt) still leaves this much, rather than waiting for the next one.
   */
  dayNeededMs?: number;
  /** The key is used by nothing else (a key per plan): requests counted on it that are not the scenario's own are a finding. */
  dedicatedKey?: boolean;
  /**
   * How often the scenario runs again when its client fell short of its rate (the embedded server only: the client
   * shares the machine with the server, and a busy machine is no finding about either); none by default.
   */
  retries?: number;
  /** Start on a fresh quota day (with nextDayAt), as the daily scenario always does: a second attempt's, whose requests the day's quota was not sized for. */
  freshDay?: boolean;
  /**
   * The daily scenario: requests the run sent on the key before it (conformance, exploration, earlier scenarios;
   * the orchestrator counts them), which may have spent part of the quota day it judges.
   */
  earlierRequests?: number;
  /** No 429 came on the key earlier in the run (the orchestrator knows): a ban on this scenario's first 429 was not earned. */
  noEarlier429?: boolean;
  /**
   * Writes are allowed (the configuration's allowWrites): the ceiling and the recovery create a pet and send a POST at
   * the limit, read back when refused. Absent or false (production, unless allowed): they send only GETs.
   */
  allowWrites?: boolean;
  /** The prefix of the names of the pets they create (the configuration's namePrefix). */
  namePrefix?: string;
  /** False: a ceiling leaves its POST at the limit to the recovery after it on the key (the orchestrator decides). */
  postAtLimit?: boolean;
}

export interface EngineResult {
  report: LoadReport;
  /** Every request failed in transport: the target is unreachable. */
  unreachable?: string;
}

export interface LoadEngine {
  readonly name: 'node' | 'k6';
  run(job: LoadJob, signal?: AbortSignal): Promise<EngineResult>;
  /** The same scenario for several keys at once (one plan each); by default the jobs run concurrently. */
  runBatch?(jobs: readonly LoadJob[], signal?: AbortSignal): Promise<EngineResult[]>;
}

export const REQUEST_PATH = '/pets?limit=1';

export function jobOptions(job: LoadJob): ScenarioOptions {
  return scenarioOptions(
    {
      plan: job.plan,
      perMinute: job.perMinute,
      perDay: job.perDay,
      windowMs: job.windowMs,
      dayMs: job.dayMs,
      maxWaitMs: job.maxWaitMs,
      deadlineAt: job.deadlineAt,
      requestUrl: `${job.baseUrl}${REQUEST_PATH}`,
      earlierRequests: job.earlierRequests,
      // Known quota days (the embedded server): the orchestrator starts the daily scenario on a fresh one.
      freshQuotaDay: job.scenario === 'daily' && !!job.nextDayAt,
      noEarlier429: job.noEarlier429,
      writes: job.allowWrites,
      namePrefix: job.namePrefix,
      postAtLimit: job.postAtLimit,
    },
    { ...(job.dedicatedKey ? { dedicatedKey: true } : {}), ...job.tuning },
  );
}

export class NodeEngine implements LoadEngine {
  readonly name = 'node' as const;

  constructor(
    private readonly io: { send?: Send; clock?: Clock } = {},
    private readonly log: (line: string) => void = (l) => process.stderr.write(l),
  ) {}

  async run(job: LoadJob, signal?: AbortSignal): Promise<EngineResult> {
    const clock = this.io.clock || realClock;
    const o = jobOptions(job);
    const def = SCENARIOS[job.scenario];
    const run = createRun(job.scenario, o);
    const redact = makeRedactor([job.apiKey, ...networkSecrets(job.network)]);
    // Known quota days mean the embedded server (see nextDayAt): its demo key spends nobody's quota, so no warning.
    if (def.warning && !job.nextDayAt) this.log(`WARNING: ${def.warning(o)}\n`);
    const progress = new Progress(`${job.scenario} ${job.plan}`, run, { enabled: job.progress ? 'auto' : false });
    const startedAt = clock.now();
    progress.start();
    // The client's own lateness, so that a judgement reading time can tell it from the server's (judgeTransport).
    const lateness = new Lateness(clock);
    try {
      await drive(run, {
        baseUrl: job.baseUrl,
        apiKey: job.apiKey,
        send: lateness.around(
          this.io.send ||
            ((req) => undiciSend(req, { timeoutMs: job.timeoutMs, maxBodyBytes: Math.min(job.maxBodyBytes, 65536), network: job.network })),
        ),
        clock,
        signal,
        onWait: (why, ms) => progress.waiting(why, ms),
      });
    } finally {
      lateness.stop();
      progress.stop();
    }
    const st = run.state;
    for (const s of st.samples) {
      const late = lateness.within(s.sentAt, s.t);
      if (late > 0) s.lateMs = late;
    }
    const report = buildLoadReport(
      {
        scenario: job.scenario,
        plan: job.plan,
        engine: 'node',
        target: job.baseUrl,
        startedAt,
        endedAt: clock.now(),
        requestsSent: st.sentCount,
        judgements: run.judgements(),
        samples: st.samples,
        key: run.keyState(),
        stoppedBecause: run.stoppedBecause,
        notes: st.notes,
        earlierRequests: o.earlierRequests,
      },
      redact,
    );
    const unreachable =
      st.samples.length > 0 && st.samples.every((s) => s.status === 0) ? redact(run.unreachable || 'no response') : undefined;
    return unreachable ? { report, unreachable } : { report };
  }
}
