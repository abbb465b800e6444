/**
 * The exploration phase's pace: what it may still send (its budget and the run's), how long it may still take (of the
 * server's time: waits on the key's rate limit are the key's, not the server's), and how many requests it keeps in
 * flight (as many as the latency it measures needs: src/http/flight.ts, never more than X-RateLimit-Remaining
 * allows). It counts what each part of the phase sent, for the summary.
 */
import type { ApiClient } from '../http/client.ts';
import { Latencies, widthFor } from '../http/flight.ts';

/** How long the phase may take, whatever its budget: a slow server costs it seconds, not minutes. */
export const EXPLORE_TIME_MS = 45_000;

/** What one part of the phase did. */
export interface Tally {
  requests: number;
  cases: number;
  counterexamples: number;
}

export class Pace {
  /** Requests the phase sent. */
  spent = 0;
  /** The most requests the phase had in flight at once. */
  widest = 1;
  /** Per part of the phase, what it did (for the summary). */
  readonly tally: Record<string, Tally> = {};
  /** How long the last exchanges took. */
  private readonly latency = new Latencies();
  private readonly startedAt: number;
  private readonly waitedAtStart: number;

  constructor(
    private readonly client: ApiClient,
    readonly budget: number,
  ) {
    this.startedAt = client.now();
    this.waitedAtStart = client.waitedMs;
  }

  /** Requests the phase may still send: its own budget and the run's — none once its time is up. */
  left(): number {
    if (this.timeLeft() <= 0) return 0;
    return Math.max(0, Math.min(this.budget - this.spent, this.client.opts.maxRequests - this.client.requestsSent));
  }

  /** What is left of the phase's time (its waits on the key's rate limit not counted). */
  timeLeft(): number {
    const c = this.client;
    return this.startedAt + EXPLORE_TIME_MS + (c.waitedMs - this.waitedAtStart) - c.now();
  }

  /** The server's time the phase took so far. */
  elapsedMs(): number {
    return EXPLORE_TIME_MS - this.timeLeft();
  }

  /** Has the phase stopped for its time limit (its summary says so)? */
  outOfTime(): boolean {
    return this.timeLeft() <= 0;
  }

  /** How many requests to send at once: one on a fast server, at most MAX_IN_FLIGHT, never more than Remaining nor than is left. */
  width(): number {
    // Before the phase's own exchanges: the latency the run measured so far (the specs').
    const want = widthFor(this.latency.median() || this.client.latency.median(), this.client.opts.targetRatePerS);
    const w = Math.max(1, Math.min(want, this.client.remainingOnKey() ?? want, this.left()));
    this.widest = Math.max(this.widest, w);
    return w;
  }

  /** An exchange took `ms`. */
  took(ms: number): void {
    this.latency.took(ms);
  }

  /** `n` requests of `source` were sent. */
  count(source: string, n: number): void {
    this.spent += n;
    this.of(source).requests += n;
  }

  of(source: string): Tally {
    return (this.tally[source] ??= { requests: 0, cases: 0, counterexamples: 0 });
  }
}
