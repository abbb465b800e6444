/**
 * A conformance session: one target, one paced client, one check session, one
 * redactor and the sink that receives every finding. The same session type
 * serves the Vitest run and the in-process runner of the self-tests.
 */
import type { Config } from '../config/config.ts';
import { ApiClient, RunAborted, type ApiExchange, type ClientOptions } from '../http/client.ts';
import { runChecks, type CheckSession } from '../checks/registry.ts';
import { excerpt } from '../checks/evidence.ts';
import { makeRedactor, type Redactor } from '../core/redact.ts';
import type { Finding, Outcome } from '../results/types.ts';
import { DAY_MS } from '../core/config.ts';
import { setNamePrefix } from './names.ts';

export interface SessionOptions {
  config: Config;
  baseUrl: string;
  /** The target is the suite's own embedded reference server. */
  embedded?: boolean;
  /** The target's quota day (a Reset may lie up to a day ahead); default the spec's day. */
  dayMs?: number;
  /** Called when the client waits on a window or a Retry-After (what for, how long). */
  onWait?: (what: string, ms: number) => void;
  /** Test hooks: a fake sleep for pacing, a clock and a transport (simulated time). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  send?: ClientOptions['send'];
}

export class Session {
  readonly client: ApiClient;
  readonly checks: CheckSession;
  readonly redact: Redactor;
  readonly startedAt: number;
  /** Where findings go; the runner points it at the current test's list. */
  sink: Finding[] = [];
  aborted?: RunAborted;
  /** Notes for the report, keyed (the exploration phase's summary). */
  readonly notes = new Map<string, string>();
  private shared = new Map<string, Promise<unknown>>();
  private passEvidence = new Set<string>();

  constructor(readonly opts: SessionOptions) {
    const { config } = opts;
    this.startedAt = (opts.now ?? Date.now)();
    this.redact = makeRedactor([config.apiKey]);
    setNamePrefix(config.namePrefix);
    this.checks = { limits: config.limits, dayMs: opts.dayMs ?? DAY_MS };
    this.client = new ApiClient({
      baseUrl: opts.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      maxBodyBytes: config.maxBodyBytes,
      maxRequests: config.maxRequests,
      deadlineAt: this.startedAt + config.deadlineMs,
      maxWaitMs: config.maxWaitMs,
      allowWrites: config.allowWrites,
      sleep: opts.sleep,
      now: opts.now,
      send: opts.send,
      onWait: opts.onWait,
      onExchange: (ex) =>
        runChecks(ex, this.checks, (check, j, detail) =>
          this.emit(j.requirement, j.outcome, j.title, j.message, check, ex, detail, j.remedy),
        ),
    });
  }

  get config(): Config {
    return this.opts.config;
  }

  /** Record a finding; evidence is attached to problems and to the first pass of each requirement. */
  emit(
    requirement: string,
    outcome: Outcome,
    title: string,
    message: string,
    source: string,
    ex?: ApiExchange,
    detail?: { expected?: string; actual?: string },
    remedy?: string,
  ): void {
    const f: Finding = {
      requirement,
      outcome,
      title: this.redact(title),
      message: this.redact(message),
      source,
      at: new Date().toISOString(),
    };
    if (remedy) f.remedy = remedy;
    const wantEvidence = outcome === 'fail' || outcome === 'warn' || (outcome === 'pass' && !this.passEvidence.has(requirement));
    if (ex && wantEvidence) {
      f.evidence = excerpt(ex, this.redact, detail);
      if (outcome === 'pass') this.passEvidence.add(requirement);
    } else if (detail && (outcome === 'fail' || outcome === 'warn'))
      f.evidence = { expected: detail.expected && this.redact(detail.expected), actual: detail.actual && this.redact(detail.actual) };
    this.sink.push(f);
  }

  /** A value computed once per session (e.g. pets created for several specs). */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.shared.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.shared.set(key, p);
    }
    return p;
  }
}
