/**
 * The step-driven scenario runner both engines execute: ask `next(now)` for an
 * action (send | wait ms | done), report each send with `sent(now)` and each
 * response with `observe(...)`. All decisions live here and in the phases, so
 * k6 (sleep) and Node (setTimeout + undici) run exactly the same logic.
 *
 * Safety is global, not per phase: after any 429 the KeyGuard blocks every send
 * until the wait it asked for has elapsed. Every run is capped in requests and
 * in time (and ends by the run's overall deadline).
 */
import type { Judgement } from '../../src/core/sections/define.ts';
import type { KeyState } from '../../src/core/load-report.ts';
import { concurrencyOf } from '../../src/core/sections/rate-limit-load/in-flight.ts';
import { isSuccess, isThrottled, isUnixReset, refTime, signals, startsWindow } from '../../src/core/sections/rate-limit-load/signals.ts';
import { isOtherThrottle } from '../../src/core/sections/rate-limit-load/other-throttle.ts';
import type { Action, PhaseName, Sample, ScenarioName, ScenarioOptions } from './types.ts';
import { DEFAULT_REQUEST, OperationMix, type LoadRequest, type RequestKind } from './operations.ts';
import type { PageFacts } from '../../src/core/sample.ts';

/**
 * The key's safety within a scenario: after any 429 no request goes out until
 * the wait it asked for has passed — its Retry-After plus a little jitter; or,
 * without a usable Retry-After, its X-RateLimit-Reset (else one whole window),
 * doubled on each 429 in a row (exponential backoff with a sane base, never a
 * burst of probes inside one window). A wait longer than maxWaitMs stops the
 * scenario at once: the run never hangs on an hour-long Retry-After.
 */
export class KeyGuard {
  /** No request may be sent before this epoch ms. */
  blockedUntil = 0;
  backoffAttempt = 0;
  /** Why the scenario must stop (a wait too long or backoff exhausted), if it must. */
  stop?: string;
  /** The wait that was refused (ms), when `stop` says a wait was too long. */
  refusedWaitMs?: number;

  constructor(private readonly o: ScenarioOptions) {}

  observe(s: Sample): void {
    if (isSuccess(s)) this.backoffAttempt = 0;
    // Other instances share the key (a distributed run, several VUs): they cannot see this one's 429s, so the
    // window's last slot (Remaining 0) is a stop until its Reset for this one — at most one 429 per window, never
    // a retry before the Retry-After another instance was given.
    // (Only when X-RateLimit-Reset names that moment: without it, a guess of a whole window would distort the pace.)
    const resetIn = this.resetIn(s);
    if (this.o.partialView && isSuccess(s) && signals(s).remaining === 0 && resetIn !== undefined) {
      const until = s.t + resetIn + this.jitter();
      if (until > this.blockedUntil) this.blockedUntil = until;
      return;
    }
    // A throttle answered with another status (a 503 with Retry-After: RL-CEILING-429 fails it) is waited out all the same.
    if (!isThrottled(s) && !(isOtherThrottle(s) && signals(s).waitMs !== undefined)) return;
    const retryAfter = signals(s).waitMs;
    let wait: number;
    if (retryAfter !== undefined) wait = retryAfter;
    else {
      this.backoffAttempt++;
      if (this.backoffAttempt > this.o.backoffAttempts && !this.stop)
        this.stop = `no usable Retry-After on ${this.backoffAttempt} 429s in a row; backoff exhausted`;
      wait = this.resetWait(s) * Math.pow(2, this.backoffAttempt - 1);
    }
    if (wait > this.o.maxWaitMs && !this.stop) {
      this.stop = `${retryAfter !== undefined ? 'Retry-After' : 'the backoff'} asks to wait ${Math.round(wait / 1000)} s, more than the ${Math.round(this.o.maxWaitMs / 1000)} s this run waits (--max-wait-ms)`;
      this.refusedWaitMs = wait;
    }
    const until = s.t + wait + this.jitter();
    if (until > this.blockedUntil) this.blockedUntil = until;
  }

  /** Without a usable Retry-After: until X-RateLimit-Reset if it names a moment within a window, else one whole window. */
  resetWait(s: Sample): number {
    return this.resetIn(s) ?? this.o.windowMs;
  }

  /** How long until the X-RateLimit-Reset of a response, when it names a moment within a window. */
  resetIn(s: Sample): number | undefined {
    const reset = signals(s).reset;
    const ms = reset !== undefined && reset > 1e9 && reset < 1e11 ? reset * 1000 - refTime(s) : undefined;
    return ms !== undefined && ms > 0 && ms <= this.o.windowMs + this.o.toleranceMs ? ms : undefined;
  }

  /** A little random extra wait so that clients do not retry in lockstep (never negative). */
  jitter(): number {
    return Math.round(this.o.jitterMs * (0.2 + 0.8 * this.o.random()));
  }

  waitMs(now: number): number {
    return Math.max(0, this.blockedUntil - now);
  }
}

/** What a phase wants next. */
export type PhaseAction =
  { kind: 'send'; as?: RequestKind } | { kind: 'wait'; ms: number; why: string } | { kind: 'complete' } | { kind: 'stop'; why: string };

export interface Phase {
  readonly name: PhaseName;
  next(run: RunState, now: number): PhaseAction;
  /** A request the phase asked for was sent (advance slots here, not in next). */
  sent?(run: RunState, now: number, seq: number): void;
  observe?(run: RunState, s: Sample): void;
  /** Estimated ms until the phase is complete, for the progress line. */
  etaMs?(run: RunState, now: number): number | undefined;
}

export interface Caps {
  maxRequests: number;
  maxDurationMs: number;
}

/** The state phases read: options, guard, everything recorded so far. */
export interface RunState {
  readonly o: ScenarioOptions;
  readonly guard: KeyGuard;
  /** What each request is (the operations interleaved, the POST at the limit, the read-back). */
  readonly mix: OperationMix;
  readonly samples: Sample[];
  inFlight: number;
  sentCount: number;
  startedAt: number;
  /** The response with the highest seq seen (its Remaining and Reset detect a new window). */
  latest?: Sample;
  /**
   * The lowest Remaining among the responses of the current window. Every request counted after
   * the one that said it is still unanswered (an answered one would say less), so the server
   * allows at least `floor - inFlight` more — whatever order it counted requests in flight together.
   */
  floor?: number;
  /** Responses of the current window that said no Remaining (a transport failure…): the server may have counted them after `floor`. */
  unknown: number;
  /** The Remaining values the current window's responses said (a response with another one may be a straggler of it: startsWindow). */
  said: Set<number>;
  notes: string[];
}

/**
 * Requests still certainly allowed: the lowest Remaining of the window minus the requests in
 * flight (which may all have been counted since). Exact when the server counts in send order,
 * never above what it allows when it counts requests sent together in another order.
 */
export function budget(run: RunState): number | undefined {
  return run.floor === undefined ? undefined : run.floor - run.inFlight - run.unknown;
}

function track(run: RunState, s: Sample): void {
  const r = signals(s).remaining;
  if (s.status === 0 || r === undefined) {
    run.unknown++;
    return;
  }
  const l = run.latest;
  // A straggler counted in an earlier window (its Reset a window before the latest, beyond a rounding second) spends none of this one.
  const reset = signals(s).reset;
  const latestReset = l ? signals(l).reset : undefined;
  if (isUnixReset(reset) && isUnixReset(latestReset) && reset < latestReset - 1) return;
  if (l && s.seq > l.seq && startsWindow(l, s, run.said)) {
    run.floor = r;
    run.unknown = 0;
    run.said = new Set();
  } else run.floor = run.floor === undefined ? r : Math.min(run.floor, r);
  run.said.add(r);
  if (!l || s.seq > l.seq) run.latest = s;
}

/** The prefix of the names of the pets a scenario creates (the configuration's namePrefix, by default). */
const NAME_PREFIX = 'animal-store-conformance-';

/** What a sample records of its request, when it is not `GET /pets?limit=1`. */
function describe(s: Sample, req: LoadRequest, page: PageFacts | undefined): void {
  if (req === DEFAULT_REQUEST) return;
  if (req.op !== 'listPets') s.op = req.op;
  s.path = req.path;
  if (req.name !== undefined) s.name = req.name;
  if (req.body !== undefined) s.requestBody = req.body;
  if (page) s.page = page;
}

/** Wait for a response when nothing else is due (engines wake on each response). */
export const RESPONSE_WAIT_MS = 1000;

export type Judge = (samples: readonly Sample[], o: ScenarioOptions, stoppedBecause: string | undefined) => Judgement[];

/** How a scenario runs: its phases in order, its caps, and the judge of its samples. */
export interface ScenarioShape {
  phases: Phase[];
  caps: Caps;
  judge: Judge;
  /** Interleave the operations (load/lib/operations.ts); else every request is `GET /pets?limit=1`. */
  mixed?: boolean;
}

export class ScenarioRun {
  readonly state: RunState;
  readonly caps: Caps;
  private readonly phases: Phase[];
  private readonly judge: Judge;
  private phaseIndex = 0;
  private pending = new Map<number, { phase: PhaseName; sentAt: number; req: LoadRequest }>();
  /** Why the phase asked for the request about to be sent. */
  private asked: RequestKind = 'body';
  private deadline = Infinity;
  stoppedBecause?: string;
  /** Set once a transport failure happened before any response: the target is unreachable. */
  unreachable?: string;

  constructor(
    readonly scenario: ScenarioName,
    o: ScenarioOptions,
    { phases, caps, judge, mixed }: ScenarioShape,
  ) {
    this.phases = phases;
    this.caps = caps;
    this.judge = judge;
    this.state = {
      o,
      guard: new KeyGuard(o),
      mix: new OperationMix({
        mixed: !!mixed,
        writes: !!o.writes,
        postAtLimit: o.postAtLimit !== false,
        namePrefix: o.namePrefix ?? NAME_PREFIX,
        random: o.random,
      }),
      samples: [],
      inFlight: 0,
      sentCount: 0,
      startedAt: 0,
      unknown: 0,
      said: new Set(),
      notes: [],
    };
  }

  get phase(): PhaseName | 'done' {
    return this.phaseIndex < this.phases.length ? this.phases[this.phaseIndex].name : 'done';
  }

  get done(): boolean {
    return this.stoppedBecause !== undefined;
  }

  next(now: number): Action {
    const st = this.state;
    if (st.startedAt === 0) {
      st.startedAt = now;
      this.deadline = Math.min(now + this.caps.maxDurationMs, st.o.deadlineAt !== undefined ? st.o.deadlineAt : Infinity);
    }
    if (this.stoppedBecause !== undefined) return { kind: 'done', why: this.stoppedBecause };
    if (now >= this.deadline)
      return this.stop(
        st.o.deadlineAt !== undefined && this.deadline === st.o.deadlineAt
          ? 'the run deadline was reached (--deadline-ms)'
          : `time cap of ${Math.round(this.caps.maxDurationMs / 1000)} s reached`,
      );
    if (st.guard.stop) return this.stop(st.guard.stop);
    while (this.phaseIndex < this.phases.length) {
      const a = this.phases[this.phaseIndex].next(st, now);
      if (a.kind === 'complete') {
        this.phaseIndex++;
        continue;
      }
      if (a.kind === 'stop') return this.stop(a.why);
      if (a.kind === 'wait') return { kind: 'wait', ms: Math.max(1, Math.min(a.ms, this.deadline - now)), why: a.why };
      if (st.sentCount >= this.caps.maxRequests) return this.stop(`request cap of ${this.caps.maxRequests} reached`);
      const blocked = st.guard.waitMs(now);
      if (blocked > 0) return { kind: 'wait', ms: Math.min(blocked, this.deadline - now), why: 'obeying Retry-After' };
      if (st.inFlight >= st.o.maxInFlight) return { kind: 'wait', ms: RESPONSE_WAIT_MS, why: 'in-flight cap' };
      this.asked = a.as ?? 'body';
      return { kind: 'send' };
    }
    return this.stop('scenario complete');
  }

  /** Record that a request was sent now; returns its sequence number. */
  sent(now: number): number {
    const seq = this.state.sentCount++;
    this.state.inFlight++;
    const ph = this.phases[this.phaseIndex];
    this.pending.set(seq, { phase: ph ? ph.name : 'paced', sentAt: now, req: this.state.mix.next(this.asked) });
    this.asked = 'body';
    if (ph && ph.sent) ph.sent(this.state, now, seq);
    return seq;
  }

  /** The request `seq` is (its operation, path and body), once sent. */
  requestOf(seq: number): LoadRequest {
    const p = this.pending.get(seq);
    return p ? p.req : DEFAULT_REQUEST;
  }

  /** Record the response (or transport failure) of request `seq`. */
  observe(r: { seq: number; t: number; status: number; headers: Sample['headers']; body?: string; error?: string }): Sample {
    const st = this.state;
    const p = this.pending.get(r.seq);
    this.pending.delete(r.seq);
    st.inFlight = Math.max(0, st.inFlight - 1);
    const s: Sample = {
      seq: r.seq,
      phase: p ? p.phase : 'paced',
      sentAt: p ? p.sentAt : r.t,
      t: r.t,
      status: r.status,
      headers: r.headers,
    };
    if (p) describe(s, p.req, st.mix.observe(p.req, s.status, r.body));
    if (r.body !== undefined) s.body = r.body.length > 2048 ? r.body.slice(0, 2048) : r.body;
    if (r.error !== undefined) s.error = r.error;
    st.samples.push(s);
    if (s.status === 0 && !st.samples.some((x) => x.status !== 0)) this.unreachable = s.error || 'no response';
    track(st, s);
    st.guard.observe(s);
    const ph = this.phases.find((x) => x.name === s.phase);
    if (ph && ph.observe) ph.observe(st, s);
    return s;
  }

  /**
   * Start from samples recorded elsewhere (k6: the preflight ran in setup()):
   * they count for the verdicts, the guard and the budget; numbering goes on.
   */
  seed(samples: readonly Sample[]): void {
    const st = this.state;
    for (const s of samples) {
      st.samples.push(s);
      st.sentCount = Math.max(st.sentCount, s.seq + 1);
      track(st, s);
      st.guard.observe(s);
    }
  }

  /** Stop now (engine interrupt, Ctrl-C); idempotent. */
  stop(why: string): Action {
    if (this.stoppedBecause === undefined) this.stoppedBecause = why;
    return { kind: 'done', why: this.stoppedBecause };
  }

  etaMs(now: number): number | undefined {
    if (this.done) return 0;
    const ph = this.phases[this.phaseIndex];
    const e = ph && ph.etaMs ? ph.etaMs(this.state, now) : undefined;
    const cap = this.deadline - now;
    // A wait the key is under (a Retry-After) is time left too, whatever the phase planned.
    return e === undefined ? undefined : Math.min(Math.max(e, this.state.guard.waitMs(now)), cap);
  }

  judgements(): Judgement[] {
    return this.judge(this.state.samples, this.state.o, this.stoppedBecause);
  }

  /** What the key went through, for whatever is sent on it next. */
  keyState(): KeyState {
    const st = this.state;
    const last = st.samples.reduce((m, s) => Math.max(m, s.t), 0);
    const k: KeyState = {};
    if (st.guard.blockedUntil) k.blockedUntil = st.guard.blockedUntil;
    if (last) k.lastResponseAt = last;
    if (st.guard.refusedWaitMs !== undefined) k.waitRefusedMs = st.guard.refusedWaitMs;
    const c = concurrencyOf(st.samples);
    if (c) k.latencyMs = Math.round(c.meanLatencyMs);
    return k;
  }
}
