/**
 * The phases scenarios are made of. Each decides only "send now, wait, or I am
 * complete" from what has been recorded; the runner adds the global safety
 * (Retry-After guard, caps). Pure and clock-free: `now` is always passed in.
 */
import { budget, RESPONSE_WAIT_MS, type Phase, type PhaseAction, type RunState } from './runner.ts';
import {
  isRelease,
  isRollover,
  isSuccess,
  isThrottled,
  refillAllowance,
  signals,
  unorderable,
} from '../../src/core/sections/rate-limit-load/signals.ts';
import { isDailyThrottle } from '../../src/core/sections/rate-limit-load/window.ts';
import type { PhaseName, Sample } from './types.ts';

const SEND: PhaseAction = { kind: 'send' };
const COMPLETE: PhaseAction = { kind: 'complete' };
/** The request Remaining says is beyond the limit (a POST where writes are allowed: load/lib/operations.ts). */
const AT_LIMIT: PhaseAction = { kind: 'send', as: 'limit' };
const PROBE: PhaseAction = { kind: 'send', as: 'probe' };
const awaitResponse = (why: string): PhaseAction => ({ kind: 'wait', ms: RESPONSE_WAIT_MS, why });

/** A status that makes measuring pointless (wrong key, server error): stop, the verdicts say why. */
const fatal = (s: Sample) => s.status !== 0 && s.status !== 429 && !isSuccess(s);

/**
 * Ceiling: requests on one key until the first 429, predicted from Remaining.
 * As many requests in flight as reach the limit within half a window at the
 * latency observed (Little's law: in flight = rate × latency; one at a time on
 * a fast server), up to the run's cap (maxInFlight) — never more than
 * Remaining proves allowed, so the request after the budget is the only one
 * that may be refused, sent alone: at most Limit + 1 requests in the window,
 * one 429. Stops once the prediction is settled: the 429 came, a success came
 * after Remaining 0, or more successes than the limit came in one window. A
 * 429 on the very first request (a key left at its limit, or refused before
 * any use) is not the ceiling: nothing is sent for a full window after it,
 * then the measurement starts again — any window, fixed or sliding, is fresh by then.
 */
export class CeilingPhase implements Phase {
  readonly name: PhaseName = 'ceiling';
  private finished = false;
  private prev?: Sample;
  private zero?: Sample;
  private inWindow = 0;
  /** In the current window: slots a refilling limiter freed (see isRelease / refillAllowance). */
  private releases = 0;
  /** In the current window, before Remaining 0: the first Reset announced, and whether another one came (a refilling limiter). */
  private firstReset?: number;
  private moving = false;
  private afterZero = 0;
  /** Successes after Remaining 0 that said slots were free again. */
  private refilledAfter = 0;
  private rollovers = 0;
  private rtt = 0;
  private answered = 0;
  /** After a 429 on the first request: when a full window without sending has passed. */
  private idleUntil?: number;

  /**
   * Requests in flight that reach the limit within half a window at the latency
   * observed: 2 × limit × latency / window (1 on a fast server), at most the
   * run's cap. One at a time when the headers cannot order requests counted
   * out of send order (`unorderable`: no Remaining, a Limit that is not the
   * plan's — the day's cannot say how many more the window takes —, or no Unix
   * X-RateLimit-Reset to tell which window each was counted in).
   */
  concurrency(run: RunState): number {
    if (!run.latest || unorderable(run.latest, run.o)) return 1;
    return Math.max(1, Math.min(run.o.maxInFlight, Math.ceil((2 * run.o.limit * this.rtt) / run.o.windowMs)));
  }

  next(run: RunState, now: number): PhaseAction {
    if (this.finished) return run.inFlight > 0 ? awaitResponse('waiting for the last responses') : COMPLETE;
    if (this.idleUntil !== undefined && now < this.idleUntil)
      return { kind: 'wait', ms: this.idleUntil - now, why: 'the first request was refused: a full window without sending' };
    const left = budget(run);
    if (this.answered === 0 || left === undefined || left <= 0 || this.byCount(run))
      return run.inFlight > 0 ? awaitResponse('one request at a time at the limit') : this.atLimit(run, left) ? AT_LIMIT : SEND;
    return run.inFlight < this.concurrency(run) ? SEND : awaitResponse('budget in flight'); // `left` already counts requests in flight
  }

  /** Remaining cannot say where the window ends (absent, or counting the day): the limit's successes in the window say it. */
  private byCount(run: RunState): boolean {
    const latest = run.latest && signals(run.latest);
    return !!latest && (latest.remaining === undefined || latest.limit !== run.o.limit) && this.inWindow >= run.o.limit;
  }

  /** The request about to go is the one beyond the limit: Remaining said 0 (or, where it cannot, the limit's successes came). */
  private atLimit(run: RunState, left: number | undefined): boolean {
    return this.answered > 0 && ((left !== undefined && left <= 0) || this.byCount(run));
  }

  observe(run: RunState, s: Sample): void {
    this.answered++;
    this.rtt = this.rtt === 0 ? s.t - s.sentAt : 0.8 * this.rtt + 0.2 * (s.t - s.sentAt);
    if (!isSuccess(s)) {
      if (this.answered === 1 && isThrottled(s) && !isDailyThrottle(s, run.o))
        this.idleUntil = s.t + run.o.windowMs + run.o.jitterMs; // refused at once: try again once, after a full idle window
      else this.finished = true; // the 429, a transport failure or an unexpected status
      return;
    }
    const prev = this.prev;
    const reset = signals(s).reset;
    const current = prev ? signals(prev).reset : undefined;
    if (reset !== undefined && current !== undefined && reset < current) return; // a straggler counted in the previous window
    if (prev && s.seq > prev.seq && isRollover(prev, s)) {
      this.rollovers++;
      this.inWindow = 0;
      this.releases = 0;
      this.afterZero = 0;
      this.zero = undefined;
      this.firstReset = undefined;
      this.moving = false;
      this.refilledAfter = 0;
    } else if (this.zero && s.seq > this.zero.seq && s.sentAt >= this.zero.t && (signals(s).remaining ?? 0) > 0) {
      // After Remaining 0, a success that says slots are free again: a refilling limiter, within the limit by its own count.
      this.moving = true;
      this.refilledAfter++;
    } else if (this.zero && s.seq > this.zero.seq && s.sentAt >= this.zero.t) {
      // A success although Remaining 0 was known: settled, unless a refilling limiter explains it.
      if (reset !== undefined && this.firstReset !== undefined && reset !== this.firstReset) this.moving = true;
      const evidence = { refilling: this.releases > 0 || this.moving, before: this.inWindow - this.afterZero - this.refilledAfter };
      // The latest Remaining 0 before this one, as the judgement takes it (src/core/sections/rate-limit-load/ceiling-facts.ts).
      const lastZero = prev && signals(prev).remaining === 0 && prev.seq > this.zero.seq && prev.sentAt >= this.zero.t ? prev : this.zero;
      if (++this.afterZero > refillAllowance(evidence, { zero: this.zero, later: s, lastZero }, run.o)) this.finished = true;
    } else if (prev && isRelease(prev, s)) this.releases++;
    if (!this.zero && reset !== undefined) {
      if (this.firstReset === undefined) this.firstReset = reset;
      else if (reset !== this.firstReset) this.moving = true;
    }
    if (signals(s).remaining === 0 && !this.zero) this.zero = s;
    this.inWindow++;
    // Headers that do not describe the plan's window show no rollover: allow a window boundary (up to twice the limit) before concluding.
    const cap = signals(s).limit === run.o.limit ? run.o.limit : 2 * run.o.limit;
    if (this.inWindow - this.releases - this.refilledAfter - this.afterZero > cap || this.rollovers > 2 || this.inWindow > 2 * cap)
      this.finished = true;
    if (!prev || s.seq > prev.seq) this.prev = s;
  }

  etaMs(run: RunState): number | undefined {
    if (!this.answered) return undefined;
    const left = budget(run);
    return Math.round(((left === undefined ? run.o.limit : left + 1) * (this.rtt + 1)) / this.concurrency(run));
  }
}

/**
 * Recovery probe: after the ceiling's 429, exactly one request, once the guard
 * allows it — Retry-After plus a little jitter; without a usable Retry-After,
 * X-RateLimit-Reset (or one whole window). One probe is all RL-RECOVERY needs,
 * and all a key that bans early retries should see. Where a POST at the limit
 * was refused with 429, the probe is its read-back (the page of its status); a
 * ceiling alone (`readBackOnly`) sends that probe only then.
 */
export class ProbePhase implements Phase {
  readonly name: PhaseName = 'probe';
  private probes = 0;

  constructor(private readonly o: { readBackOnly?: boolean } = {}) {}

  next(run: RunState): PhaseAction {
    if (!run.samples.some((s) => s.phase === 'ceiling' && isThrottled(s))) return COMPLETE;
    if (this.o.readBackOnly && !run.mix.refused.length) return COMPLETE;
    if (run.inFlight > 0) return awaitResponse('waiting for the probe');
    return this.probes > 0 ? COMPLETE : PROBE;
  }

  sent(): void {
    this.probes++;
  }

  etaMs(run: RunState, now: number): number | undefined {
    return run.guard.waitMs(now) + 100;
  }
}

/**
 * Preflight: one request to learn the key's state. A fresh key (Remaining =
 * Limit - 1) starts the measured phase at once; otherwise it waits one full
 * window without sending, after which any window — fixed or sliding — is fresh.
 */
export class PreflightPhase implements Phase {
  readonly name: PhaseName = 'preflight';
  private sample?: Sample;
  private asked = false;
  private readyAt?: number;

  next(run: RunState, now: number): PhaseAction {
    const s = this.sample;
    if (!s) return this.asked ? awaitResponse('waiting for the preflight response') : SEND;
    if (s.status === 0) return { kind: 'stop', why: `target unreachable: ${s.error || 'no response'}` };
    if (fatal(s)) return { kind: 'stop', why: `the preflight request was answered ${s.status}` };
    if (this.readyAt === undefined) {
      const sig = signals(s);
      // Other instances of a distributed run send their own preflight at the same moment: a few of theirs still leave the window fresh.
      const others = run.o.partialView ? Math.max(1, Math.ceil(run.o.limit * 0.05)) : 0;
      const fresh = isSuccess(s) && sig.remaining !== undefined && sig.remaining >= run.o.limit - 1 - others;
      // Distributed: every instance's preflight would count in the first measured window: start a whole window later.
      this.readyAt = fresh && !run.o.distributed ? now : s.t + run.o.windowMs + run.guard.jitter();
      if (run.o.distributed)
        run.notes.push(
          "One instance of a distributed run: the measured phase started a whole window after the preflight, so that no instance's preflight counts in it.",
        );
      else if (!fresh)
        run.notes.push(
          `The key was not fresh (the preflight got ${s.status} with Remaining ${sig.remaining === undefined ? 'absent' : sig.remaining}): waited one window without sending.`,
        );
    }
    return now < this.readyAt ? { kind: 'wait', ms: this.readyAt - now, why: 'waiting for a fresh window' } : COMPLETE;
  }

  sent(): void {
    this.asked = true;
  }

  observe(_run: RunState, s: Sample): void {
    this.sample = s;
  }

  etaMs(run: RunState, now: number): number | undefined {
    return this.readyAt === undefined ? undefined : Math.max(0, this.readyAt - now);
  }
}

export interface PacedSpec {
  name?: PhaseName;
  /** Requests offered per window. */
  perWindow: number;
  /** Length in windows. */
  windows: number;
  /** Once the latest Remaining is used up by requests in flight, send one at a time (overload). */
  gate: boolean;
  /** Complete at the first 429 refusing the day, or once the day's quota is clearly exceeded (daily). */
  untilDaily?: boolean;
}

/**
 * How much faster than its pace a paced phase catches up the slots it is late for: a burst sent all at once would
 * queue behind the client's own CPU (and, in process, the embedded server's), so that the server counts part of it
 * in a later window than the client sent it — more than perWindow in one window, a false RL-SUSTAINED-BELOW-CEILING.
 */
const CATCH_UP = 3;

/**
 * A constant arrival rate: slot i is due at t0 + i × window / perWindow. A slot
 * the client is late for (a busy machine: timers fire late, requests cost CPU)
 * is sent late rather than dropped — at most three times the pace — but never so that a span of one window holds
 * more than perWindow sends: the pace a server sees never exceeds the one offered
 * (a sustained 90% of the limit stays below it, whatever the client's hiccups).
 * Slots due while a Retry-After pause holds the key are skipped, never sent in a
 * burst after it. The pace runs late by at most one window; slots left then are
 * dropped (and the achieved rate says so). Under k6 (externalPacing) the executor
 * provides the slots.
 */
export class PacedPhase implements Phase {
  readonly name: PhaseName;
  private t0?: number;
  private slot = 0;
  private finished = false;
  private successes = 0;
  /** When each of the last perWindow requests was sent (by send count, modulo perWindow). */
  private readonly sentAt: number[] = [];
  private sends = 0;
  private lastSentAt = -Infinity;
  skipped = 0;

  constructor(private readonly spec: PacedSpec) {
    this.name = spec.name || 'paced';
  }

  interval(run: RunState): number {
    return run.o.windowMs / this.spec.perWindow;
  }

  durationMs(run: RunState): number {
    return run.o.windowMs * this.spec.windows;
  }

  /** Slots this phase offers (external pacing: unbounded, the executor decides). */
  slots(): number {
    return Math.round(this.spec.perWindow * this.spec.windows);
  }

  /** How late the pace may run behind its schedule: one window, after which the slots left are dropped. */
  lateMs(run: RunState): number {
    return run.o.windowMs;
  }

  /** The earliest a request may go without a span of one window holding more than perWindow sends. */
  private shareAt(run: RunState): number {
    const p = this.spec.perWindow;
    return this.sends < p ? -Infinity : this.sentAt[this.sends % p] + run.o.windowMs;
  }

  next(run: RunState, now: number): PhaseAction {
    if (this.t0 === undefined) this.t0 = now;
    if (this.finished) return COMPLETE;
    const external = run.o.externalPacing;
    const last = this.t0 + this.durationMs(run) + (external ? 0 : this.lateMs(run));
    if (external ? now >= last : this.skipTo(now >= last ? this.slots() : this.pausedUntilSlot(run)) >= this.slots()) return COMPLETE;
    const blocked = run.guard.waitMs(now);
    if (blocked > 0) return { kind: 'wait', ms: Math.min(blocked, last - now), why: 'obeying Retry-After' };
    if (this.spec.gate && run.inFlight > 0) {
      const left = budget(run);
      if (left !== undefined && left <= 0) return awaitResponse('limit reached: one request at a time');
    }
    if (external) return SEND;
    const interval = this.interval(run);
    const at = Math.max(this.t0 + this.slot * interval, this.shareAt(run), this.lastSentAt + interval / CATCH_UP);
    if (now < at) return { kind: 'wait', ms: Math.max(1, Math.ceil(at - now)), why: 'pacing' };
    return SEND;
  }

  /** The first slot not due before the key's last Retry-After pause ended: those before it fell in the pause. */
  private pausedUntilSlot(run: RunState): number {
    return Math.ceil((run.guard.blockedUntil - (this.t0 as number)) / this.interval(run));
  }

  /** Skip the slots before `slot` (in a pause, or left when the pace ran a window late); returns the next slot. */
  private skipTo(slot: number): number {
    const to = Math.min(this.slots(), slot);
    if (to > this.slot) {
      this.skipped += to - this.slot;
      this.slot = to;
    }
    return this.slot;
  }

  sent(_run: RunState, now: number): void {
    this.slot++;
    this.sentAt[this.sends++ % this.spec.perWindow] = now;
    this.lastSentAt = now;
  }

  observe(run: RunState, s: Sample): void {
    if (!this.spec.untilDaily) return;
    if (isSuccess(s)) this.successes++;
    if (isDailyThrottle(s, run.o)) this.finished = true;
    if (run.o.perDay !== undefined && this.successes > run.o.perDay + run.o.limit) this.finished = true;
  }

  etaMs(run: RunState, now: number): number | undefined {
    return this.t0 === undefined ? this.durationMs(run) : Math.max(0, this.t0 + this.durationMs(run) - now);
  }
}
