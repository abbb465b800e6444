/**
 * The exploration phase's engine: sends probes through the run's own client
 * (its budget, deadline, pacing on the rate-limit headers and Retry-After), so
 * every response also goes through the check registry; judges each with the
 * oracle; and decides what reaches the run's result stream — every failure
 * once, as a replayable counterexample, and passes and observations deduplicated
 * (a phase of hundreds of requests must not bury the specs' findings).
 */
import type { Judgement } from '../core/spec/define.ts';
import { RunAborted, type ApiExchange, type ApiRequest } from '../http/client.ts';
import { exactInteger } from '../harness/ops.ts';
import type { Session } from '../harness/session.ts';
import type { Finding, Replay, ReplayProbe, ReplayStep } from '../results/types.ts';
import { judgeProbe } from './oracle.ts';
import { isPageProblem, listKey, type Attribution } from './reproduction.ts';
import type { Created } from './readback.ts';
import { petAt } from '../core/spec/pets.ts';
import { dependsOnEarlierRequests } from '../core/catalogue.ts';
import { describeProbe, materialize, requestOf, type Draft, type Naming, type Probe } from './probe.ts';

export interface ExploreSettings {
  /** Requests the phase may send (0: off). */
  budget: number;
  seed: number;
  writes: boolean;
  prefix: string;
  /** The target is the suite's own embedded server: names without the prefix may be tried too. */
  embedded: boolean;
}

/** One probe sent and judged. */
export interface Shot {
  probe: Probe;
  ex: ApiExchange;
  /** Every finding of the exchange: the registry's and the oracle's. */
  findings: Finding[];
  /** The failures among them (fail or warn). */
  failures: Finding[];
  requests: number;
}

/** Where the phase's findings come from (a finding's source). */
export const SOURCES = {
  replay: 'explore: replayed',
  coverage: 'explore: coverage',
  generated: 'explore: generated',
  stateful: 'explore: stateful',
} as const;

export const signature = (f: Pick<Finding, 'requirement' | 'title'>): string => `${f.requirement} · ${f.title}`;
export const isProblem = (f: Pick<Finding, 'outcome'>) => f.outcome === 'fail' || f.outcome === 'warn';

/** One exchange the phase sent: what it was, how it was judged, and its place in the phase's order. */
export interface Sent {
  req: ApiRequest;
  probe?: Probe;
  judge: (ex: ApiExchange) => Judgement[];
  /** 0-based, in the order the phase sent its exchanges. */
  index: number;
}

/** How long the phase may take, whatever its budget: a slow server costs it seconds, not minutes. */
export const EXPLORE_TIME_MS = 45_000;

/** The most requests the phase keeps in flight, and the rate its width aims at (Little's law: width = rate × latency). */
const MAX_WIDTH = 16;
const TARGET_RATE_PER_S = 20;

/** A 32-bit seed from any integer. */
export const seed32 = (n: number): number => n >>> 0;

export class Explorer {
  spent = 0;
  private counter = 0;
  /** Failure signatures already reported by this phase (or its replays). */
  readonly known = new Set<string>();
  /** Invalid createPet requests the server refused, to check that it stored none of them. */
  readonly refused: Probe[] = [];
  /** Pets the phase created (201 with an id), to read them back. */
  readonly created: Created[] = [];
  /** Per phase, what each part of the phase did (for the summary observation). */
  readonly tally: Record<string, { requests: number; cases: number; counterexamples: number }> = {};
  private readonly shown = new Set<string>();
  /** A rate-limit finding: how many requests the run had sent before the one it judges. */
  private readonly sentBefore = new WeakMap<Finding, number>();
  /** The exchange each finding judged. */
  private readonly sent = new WeakMap<Finding, Sent>();
  /** The last exchanges sent, in order (what a failure may depend on). */
  private readonly recent: Sent[] = [];
  /** How long the last exchanges took (ms): the phase sends as many at once as that latency needs. */
  private readonly latency: number[] = [];
  private exchanges = 0;
  /** Every createPet the phase sent, in order (what a page of the list may show since). */
  readonly writes: { probe: Probe; index: number }[] = [];
  /** Every page of the list that passed (no problem of the page as a whole): its filter ('' none), limit and place. */
  readonly listPasses: { filter: string; limit: number; index: number }[] = [];
  readonly token: string;
  readonly naming: Naming;

  constructor(
    readonly session: Session,
    readonly settings: ExploreSettings,
  ) {
    this.startedAt = session.client.now();
    this.waitedAtStart = session.client.waitedMs;
    // Short, so the names stay of the length the specs already send: three characters of the seed and a counter.
    this.token = (seed32(settings.seed) % 46656).toString(36).padStart(3, '0');
    const prefix = settings.prefix;
    this.naming = {
      prefix,
      token: () => `${this.token}.${(this.counter++).toString(36)}`,
      // The specs already require names of the prefix and about 21 more characters.
      plainLength: prefix.length + 24,
    };
  }

  /** When the phase started (the client's clock), and how long the client had waited on the rate limit by then. */
  private readonly startedAt: number;
  private readonly waitedAtStart: number;

  /** Requests the phase may still send: its own budget and the run's — none once its time is up. */
  left(): number {
    const c = this.session.client;
    if (this.timeLeft() <= 0) return 0;
    return Math.max(0, Math.min(this.settings.budget - this.spent, c.opts.maxRequests - c.requestsSent));
  }

  /**
   * What is left of the phase's time: EXPLORE_TIME_MS of the server's time — the waits on the key's rate limit (a
   * Free key's pace) are not counted: they are the key's, not the server's slowness.
   */
  timeLeft(): number {
    const c = this.session.client;
    return this.startedAt + EXPLORE_TIME_MS + (c.waitedMs - this.waitedAtStart) - c.now();
  }

  /** The server's time the phase took so far (its waits on the rate limit left out). */
  elapsedMs(): number {
    return EXPLORE_TIME_MS - this.timeLeft();
  }

  /** The most requests the phase had in flight at once. */
  widest = 1;

  /** Has the phase stopped for its time limit (what it did is said in its summary)? */
  outOfTime(): boolean {
    return this.timeLeft() <= 0;
  }

  /**
   * How many requests to send at once: as many as the latency measured needs for about TARGET_RATE_PER_S a second
   * (one on a fast server), at most MAX_WIDTH, never more than X-RateLimit-Remaining said, nor than is left.
   */
  width(): number {
    const ms = this.latency.length ? [...this.latency].sort((a, b) => a - b)[Math.floor(this.latency.length / 2)] : 0;
    const want = Math.min(MAX_WIDTH, Math.max(1, Math.ceil((ms / 1000) * TARGET_RATE_PER_S)));
    const w = Math.max(1, Math.min(want, this.session.client.remainingOnKey() ?? want, this.left()));
    this.widest = Math.max(this.widest, w);
    return w;
  }

  /**
   * Send probes, `width()` at a time, each judged; their shots in order (undefined for those not sent: the budget or
   * the time ran out). A run abort ends it after the requests in flight, and is rethrown.
   */
  async sendAll(probes: readonly Probe[], source: string): Promise<(Shot | undefined)[]> {
    const out: (Shot | undefined)[] = [];
    for (let i = 0; i < probes.length;) {
      const n = Math.min(this.width(), probes.length - i);
      if (this.left() <= 0) break;
      const settled = await Promise.allSettled(probes.slice(i, i + n).map((p) => this.send(p, source)));
      for (const r of settled) out.push(r.status === 'fulfilled' ? r.value : undefined);
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      i += n;
    }
    return out;
  }

  materialize(d: Draft): Probe {
    return materialize(d, this.naming);
  }

  /** Send one probe and judge it; RunAborted (budget, deadline, an unresponsive server) propagates. */
  async send(probe: Probe, source: string): Promise<Shot> {
    if (probe.op === 'createPet') this.writes.push({ probe, index: this.exchanges });
    const shot = await this.exchange(requestOf(probe), source, (ex) => judgeProbe(probe, ex), probe);
    const status = shot.ex.response?.status ?? 0;
    if (probe.op === 'createPet' && probe.cls === 'invalid' && probe.name !== undefined && status >= 400 && status < 500)
      this.refused.push(probe);
    const id = probe.op === 'createPet' && status === 201 ? exactInteger(shot.ex, '/id') : undefined;
    if (id !== undefined) this.created.push({ probe, id, created: petAt(shot.ex.json) ?? {} });
    return { probe, ...shot };
  }

  /** Send one request through the run's client; the registry's findings and `judge`'s verdicts are captured, not yet reported. */
  async exchange(
    req: ApiRequest,
    source: string,
    judge: (ex: ApiExchange) => Judgement[],
    probe?: Probe,
  ): Promise<Omit<Shot, 'probe'> & { ex: ApiExchange }> {
    const s = this.session;
    const before = s.client.requestsSent;
    const findings: Finding[] = [];
    const sent: Sent = { req, judge, index: this.exchanges++, ...(probe ? { probe } : {}) };
    this.recent.push(sent);
    if (this.recent.length > 32) this.recent.shift();
    // Captured by request, not by swapping the session's sink: requests of the phase may be in flight together.
    s.captureFor(req, findings);
    let sends: number | undefined;
    try {
      const ex = await s.client.request(req);
      sends = ex.sends ?? 1;
      this.latency.push(ex.durationMs);
      if (this.latency.length > 16) this.latency.shift();
      for (const v of judge(ex)) s.record(v, { source, ex });
      // The response judged is the last request sent (a 429 waited out and retried included).
      for (const f of findings) if (dependsOnEarlierRequests(f.requirement)) this.sentBefore.set(f, s.client.requestsSent - 1);
      for (const f of findings) this.sent.set(f, sent);
      if (req.operation === 'listPets' && ex.response?.status === 200 && !findings.some(isPageProblem))
        this.listPasses.push({ ...listKey(req), index: sent.index });
      return { ex, findings, failures: findings.filter(isProblem), requests: sends };
    } finally {
      s.release(req);
      // What this call sent (others may be in flight together); after an abort, what the client counted since.
      const n = sends ?? s.client.requestsSent - before;
      this.spent += n;
      this.tallyOf(source).requests += n;
    }
  }

  /** The exchange a finding of the phase judged. */
  sentOf(f: Finding): Sent | undefined {
    return this.sent.get(f);
  }

  /** The exchange the phase sent just before `s`, if it is still remembered. */
  previousOf(s: Sent): Sent | undefined {
    return this.recent.find((r) => r.index === s.index - 1);
  }

  tallyOf(source: string): { requests: number; cases: number; counterexamples: number } {
    return (this.tally[source] ??= { requests: 0, cases: 0, counterexamples: 0 });
  }

  /** The findings `record` emits, captured instead of reported. */
  capture(record: () => void): Finding[] {
    const saved = this.session.sink;
    const out: Finding[] = [];
    this.session.sink = out;
    try {
      record();
    } finally {
      this.session.sink = saved;
    }
    return out;
  }

  /** Forward what is not a problem: a pass, skip or error once per requirement and title, each distinct observation once. */
  forward(findings: readonly Finding[]): void {
    for (const f of findings) {
      if (isProblem(f)) continue;
      const key = f.outcome === 'observe' ? `${f.requirement} ${f.message}` : `${f.requirement} ${f.outcome} ${f.title}`;
      if (this.shown.has(key)) continue;
      this.shown.add(key);
      this.session.sink.push(f);
    }
  }

  /**
   * Report the failures of a counterexample (one per signature), each with how to replay it; `attribution` (see
   * attribution.ts) says whether the minimal request reproduces it alone, or which stored pets it depends on.
   */
  reportFailures(failures: readonly Finding[], replay: Replay, attribution?: Attribution, only?: string): number {
    let n = 0;
    for (const f of failures) {
      const sig = signature(f);
      if ((only && sig !== only) || this.known.has(sig)) continue;
      this.known.add(sig);
      const before = this.sentBefore.get(f);
      this.session.sink.push({
        ...f,
        // A rate-limit finding is not attributed: its answer depends on the key's window (requestsBefore says so).
        replay: {
          ...(before === undefined ? this.attributed(replay, attribution) : replay),
          requests: this.spent,
          ...(before !== undefined ? { requestsBefore: before } : {}),
        },
      });
      n++;
    }
    return n;
  }

  /** A replay record as `attribution` establishes it: the stored pets first, or whether the request alone reproduces it. */
  private attributed(replay: Replay, a: Attribution | undefined): Replay {
    if (!a || a.kind === 'unchecked') return replay;
    if (a.kind !== 'stored' && a.kind !== 'after-previous') return { ...replay, reproduced: a.kind };
    const { shrinks: _s, shrinkPath: _p, path: _f, ...rest } = replay;
    const failing = this.replayOf(a.failing, { ...rest, reproduced: a.kind === 'stored' ? 'after-stored' : 'after-previous' });
    return { ...failing, before: a.before.map((p) => this.stepOf(p)) };
  }

  /** One request of a sequence, as a replay step (URL redacted, the body exact). */
  stepOf(p: Probe): ReplayStep {
    const req = requestOf(p);
    return {
      method: req.method,
      url: this.session.redact(this.session.client.url(req.path, req.query, req.rawQuery)),
      request: this.session.redact(describeProbe(p)),
      probe: wireOf(p, 'single'),
    };
  }

  /** The replay record of a probe. */
  replayOf(probe: Probe, extra: Omit<Replay, 'request' | 'probe'>, kind: ReplayProbe['kind'] = 'single', limit?: number): Replay {
    const req = requestOf(probe);
    return {
      ...extra,
      request: this.session.redact(describeProbe(probe)),
      method: req.method,
      url: this.session.redact(this.session.client.url(req.path, req.query, req.rawQuery)),
      probe: wireOf(probe, kind, limit),
    };
  }
}

/** A probe as data: what a counterexample keeps to be sent again, its surface variant included. */
export function wireOf(p: Probe, kind: ReplayProbe['kind'], limit?: number): ReplayProbe {
  return {
    kind,
    op: p.op,
    ...(p.query ? { query: p.query } : {}),
    ...(p.rawQuery !== undefined ? { rawQuery: p.rawQuery } : {}),
    ...(p.petId !== undefined ? { petId: p.petId } : {}),
    ...(p.body !== undefined ? { body: p.body } : {}),
    ...(p.readings ? { readings: p.readings } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
    ...(p.spelled ? { spelled: p.spelled } : {}),
    ...(p.variant ? { variant: p.variant.id } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/** Run `f`, turning a run abort into a flag the phase can end on (it is rethrown once the phase has reported). */
export async function guarded<T>(f: () => Promise<T>, onAbort: (e: RunAborted) => void): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof RunAborted) {
      onAbort(e);
      return undefined;
    }
    throw e;
  }
}
