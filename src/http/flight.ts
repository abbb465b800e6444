/**
 * The requests a client keeps in flight: as many at once as the server's latency needs for TARGET_RATE_PER_S
 * (Little's law: width = rate × latency; one at a time on a fast server, whose run is bound by the CPU, not by waiting),
 * at most a cap polite to a real server (MAX_IN_FLIGHT), and on each rate-limit bucket never more than its last
 * X-RateLimit-Remaining allows (one may always go when none is in flight on it: its answer tells the new count, or the
 * client waits for the window). Requests are let go in the order they asked (first come, first served), as soon as
 * they fit. No clock: a slot is freed when a request comes back.
 */

/** The most requests a conformance run keeps in flight at once (the specs and the exploration alike). */
export const MAX_IN_FLIGHT = 16;
/** The rate the width aims at, in requests per second: polite to a real server, whose key is someone's. */
export const TARGET_RATE_PER_S = 20;
/**
 * The rate the width aims at on the embedded reference server, whose key is the suite's own and which runs in this
 * process: on a quiet machine its answers come in a millisecond or two, one at a time still (the run is bound by the
 * CPU); on a busy one they wait for the process to get the CPU back, and MAX_IN_FLIGHT go at once instead of
 * TARGET_RATE_PER_S a second (issue 37: the conformance run took 25 s beside 8 CPU-bound processes, paced at 20 a second).
 */
export const EMBEDDED_TARGET_RATE_PER_S = 200;

/** How many requests to keep in flight at a latency of `ms` (none measured yet: one), for a rate of `ratePerS`. */
export function widthFor(ms: number, ratePerS = TARGET_RATE_PER_S): number {
  return Math.min(MAX_IN_FLIGHT, Math.max(1, Math.ceil((ms / 1000) * ratePerS)));
}

/** The latency of the last exchanges: their median. */
export class Latencies {
  private readonly last: number[] = [];

  took(ms: number): void {
    this.last.push(ms);
    if (this.last.length > 16) this.last.shift();
  }

  /** The median of the last 16 (0 before any). */
  median(): number {
    return this.last.length ? [...this.last].sort((a, b) => a - b)[Math.floor(this.last.length / 2)] : 0;
  }
}

interface Waiter {
  bucket: string;
  /** The width this request may go at whatever the latency (requests that must be in flight together). */
  atLeast: number;
  go: () => void;
}

export class Flight {
  private total = 0;
  private readonly perBucket = new Map<string, number>();
  private readonly queue: Waiter[] = [];
  /** The most requests that were in flight at once. */
  widest = 0;
  /** Called each time a request came back (its latency may have widened the flight). */
  onBack?: () => void;

  /**
   * @param remaining what the last response on a bucket said remains of its window (undefined: not said)
   * @param cap the most requests in flight at once, on every bucket together (asked again each time a slot may go)
   */
  constructor(
    private readonly remaining: (bucket: string) => number | undefined,
    private readonly cap: () => number = () => MAX_IN_FLIGHT,
  ) {}

  /** How many requests may be in flight at once now (the cap, at the latency measured so far). */
  width(): number {
    return this.cap();
  }

  /** Requests in flight now (on `bucket`, or on all). */
  inFlight(bucket?: string): number {
    return bucket === undefined ? this.total : (this.perBucket.get(bucket) ?? 0);
  }

  /** Wait for a slot on `bucket`; call the function returned when the request came back (once). */
  async acquire(bucket: string, atLeast = 0): Promise<() => void> {
    await new Promise<void>((go) => {
      this.queue.push({ bucket, atLeast: Math.min(atLeast, MAX_IN_FLIGHT), go: () => (this.take(bucket), go()) });
      this.admit();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      this.perBucket.set(bucket, this.inFlight(bucket) - 1);
      this.admit();
      this.onBack?.();
    };
  }

  private fits(bucket: string, atLeast = 0): boolean {
    if (this.total >= Math.max(this.cap(), atLeast)) return false;
    const n = this.inFlight(bucket);
    const left = this.remaining(bucket);
    return n === 0 || left === undefined || left - n > 0;
  }

  private take(bucket: string): void {
    this.total++;
    this.perBucket.set(bucket, this.inFlight(bucket) + 1);
    this.widest = Math.max(this.widest, this.total);
  }

  /** Let go, in order, every waiting request that fits now (a later one on another bucket may pass one that waits). */
  private admit(): void {
    for (let i = 0; i < this.queue.length;) {
      const w = this.queue[i];
      if (!this.fits(w.bucket, w.atLeast)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      w.go();
    }
  }
}
