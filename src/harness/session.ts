/**
 * A conformance session: one target, one paced client, one check session, one
 * redactor and the sink that receives every finding. The same session type
 * serves the Vitest run and the in-process runner of the self-tests.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../config/command-config.ts';
import { ApiClient, RunAborted, type ApiExchange, type ApiRequest, type ClientOptions } from '../http/client.ts';
import { EMBEDDED_TARGET_RATE_PER_S } from '../http/flight.ts';
import { runChecks, type CheckSession } from '../checks/registry.ts';
import { excerpt } from '../checks/evidence.ts';
import { makeRedactor, type Redactor } from '../core/redact.ts';
import { networkSecrets } from '../settings/network.ts';
import type { Judgement } from '../core/sections/define.ts';
import type { Finding } from '../results/types.ts';
import { DAY_MS, MINUTE_MS } from '../core/plans.ts';
import { DEFAULT_LIMIT } from '../core/sections/list-pets/rules.ts';
import { setNamePrefix } from './names.ts';
import { TrafficRecorder, type TrafficOptions, type TrafficPage } from './traffic.ts';

export interface SessionOptions {
  config: Config;
  baseUrl: string;
  /** The target is the suite's own embedded reference server. */
  embedded?: boolean;
  /** The target's quota day (a Reset may lie up to a day ahead); default the spec's day. */
  dayMs?: number;
  /** The target's per-minute window; default --window-ms, else a minute. */
  windowMs?: number;
  /** The run's deadline (epoch ms) when it started before the session (npm start); default --deadline-ms from now. */
  deadlineAt?: number;
  /** Called when the client waits on a window or a Retry-After (what for, how long). */
  onWait?: (what: string, ms: number) => void;
  /** Test hooks: a fake sleep for pacing, a clock and a transport (simulated time). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  send?: ClientOptions['send'];
  /** Record the run's traffic (the HAR of the run): where its lines go. */
  traffic?: TrafficOptions;
}

/**
 * What one spec test owns while it runs (tests run in flight together): where its findings go, its page of the HAR,
 * and how many requests it sent. Carried by the test's async context, so every request and judgement it makes finds it.
 */
export interface TestScope {
  findings: Finding[];
  page?: TrafficPage;
  requests: number;
}

/**
 * The spec test each session is running in this async context. One storage for every session, not one each: Node 20
 * keeps every AsyncLocalStorage ever entered and copies each into every promise created afterwards, so a storage per
 * session made every promise of the process dearer with each session it had run — the self-tests, hundreds of runs in
 * one worker, ran their last files 3 to 4 times slower (the load tests' CPU time after test/explore/faults.test.ts).
 */
const SCOPES = new AsyncLocalStorage<ReadonlyMap<Session, TestScope>>();

export class Session {
  readonly client: ApiClient;
  readonly checks: CheckSession;
  readonly redact: Redactor;
  readonly startedAt: number;
  /** The run's traffic, when recorded: every exchange, each spec test a page, each judgement a tag of its exchange. */
  readonly traffic?: TrafficRecorder;
  /** Where findings go outside any spec test. */
  private outside: Finding[] = [];
  /** Findings about the exchanges of these requests go to their own list instead (requests in flight together). */
  private readonly captures = new Map<ApiRequest, Finding[]>();
  aborted?: RunAborted;
  /** Notes for the report, keyed (the exploration phase's summary). */
  readonly notes = new Map<string, string>();
  /** Per limit sent (the default page: 20), the most animals one listPets page of this server held in the run. */
  private readonly largestPages = new Map<number, number>();
  private shared = new Map<string, Promise<unknown>>();
  private passEvidence = new Set<string>();

  constructor(readonly opts: SessionOptions) {
    const { config } = opts;
    this.startedAt = (opts.now ?? Date.now)();
    this.redact = makeRedactor([config.apiKey, ...networkSecrets(config.network)]);
    if (opts.traffic) this.traffic = new TrafficRecorder(opts.traffic, this.redact, opts.now);
    setNamePrefix(config.namePrefix);
    this.checks = { limits: config.limits, dayMs: opts.dayMs ?? DAY_MS, windowMs: opts.windowMs || config.load.windowMs || MINUTE_MS };
    this.client = new ApiClient({
      baseUrl: opts.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      maxBodyBytes: config.maxBodyBytes,
      network: config.network,
      maxRequests: config.maxRequests,
      deadlineAt: opts.deadlineAt ?? this.startedAt + config.deadlineMs,
      maxWaitMs: config.maxWaitMs,
      allowWrites: config.allowWrites,
      ...(opts.embedded ? { targetRatePerS: EMBEDDED_TARGET_RATE_PER_S } : {}),
      sleep: opts.sleep,
      now: opts.now,
      send: opts.send,
      onWait: opts.onWait,
      onSend: () => {
        const scope = this.scope();
        if (scope) scope.requests++;
      },
      onExchange: (ex) => {
        if (ex.api.operation === 'listPets' && ex.response?.status === 200 && Array.isArray(ex.json)) this.notePage(ex);
        this.traffic?.exchange(ex, this.scope()?.page);
        runChecks(ex, this.checks, (check, j) => this.record(j, { source: check, ex }));
      },
    });
  }

  /** Run `f` as the spec test `scope`: its findings, requests and traffic are the scope's, whatever else is in flight. */
  inScope<T>(scope: TestScope, f: () => Promise<T>): Promise<T> {
    return SCOPES.run(new Map(SCOPES.getStore()).set(this, scope), f);
  }

  /** The spec test of this session whose async context this is, if any. */
  private scope(): TestScope | undefined {
    return SCOPES.getStore()?.get(this);
  }

  /** Where findings go: the current spec test's list (a part may point it elsewhere for a while: Reporter.capture). */
  get sink(): Finding[] {
    return this.scope()?.findings ?? this.outside;
  }

  set sink(into: Finding[]) {
    const scope = this.scope();
    if (scope) scope.findings = into;
    else this.outside = into;
  }

  get config(): Config {
    return this.opts.config;
  }

  /**
   * Record a judgement as a finding of `source` (a check, a spec test, the exploration phase), redacted. The
   * exchange it is about is its evidence — with the judgement's own expected and actual — for a failure or a
   * warning, and for the first pass of each requirement.
   */
  record(j: Judgement, from: { source: string; ex?: ApiExchange }): void {
    const { requirement, outcome } = j;
    if (from.ex) this.traffic?.judged(from.ex, requirement, outcome);
    const f: Finding = {
      requirement,
      outcome,
      title: this.redact(j.title),
      message: this.redact(j.message),
      source: from.source,
      at: new Date().toISOString(),
    };
    if (j.remedy) f.remedy = j.remedy;
    const problem = outcome === 'fail' || outcome === 'warn';
    const ev = j.evidence;
    if (from.ex && (problem || (outcome === 'pass' && !this.passEvidence.has(requirement)))) {
      f.evidence = excerpt(from.ex, this.redact, ev);
      if (outcome === 'pass') this.passEvidence.add(requirement);
    } else if (ev && problem)
      f.evidence = { expected: ev.expected && this.redact(ev.expected), actual: ev.actual && this.redact(ev.actual) };
    const into = from.ex ? this.captures.get(from.ex.api) : undefined;
    (into ?? this.sink).push(f);
  }

  /** Until `release(req)`, the findings about `req`'s exchanges (the registry's and the judge's) go to `into`. */
  captureFor(req: ApiRequest, into: Finding[]): void {
    this.captures.set(req, into);
  }

  release(req: ApiRequest): void {
    this.captures.delete(req);
  }

  /**
   * The most animals a page asked with `limit` held in the run: the server fills such pages at least that far (a page
   * may be shorter than its limit: a server may cap pages, or serve one less than asked, LIST-LIMIT-FILLS-PAGE's concern).
   */
  largestPage(limit: number): number {
    return this.largestPages.get(limit) ?? 0;
  }

  private notePage(ex: ApiExchange): void {
    const raw = ex.api.query?.limit;
    const limit = raw === undefined ? DEFAULT_LIMIT : /^[1-9]\d{0,2}$/.test(raw) ? Number(raw) : undefined;
    const n = (ex.json as unknown[]).length;
    if (limit !== undefined) this.largestPages.set(limit, Math.max(n, this.largestPage(limit)));
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
