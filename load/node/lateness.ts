/**
 * How late the client itself runs: while a request is out, a tick on the run's clock every TICK_MS, and
 * each tick that fires late by STALL_MS or more is a stall of the client — its
 * process off the CPU, or its event loop busy with other work — from the moment
 * the tick was due to the moment it ran. On a busy machine the client's timers,
 * the responses it reads and (for the embedded reference server, which runs in
 * the same process) the server's answers are all that late, so a judgement that
 * reads time (a timeout above all) must know how much of a span was the client's
 * own lateness. On the simulated clock of the self-tests a busy machine's stalls
 * (bench/support/virtual.ts: BusyClock) are seen the same way.
 */
import type { Clock } from './clock.ts';
import type { Exchange } from '../../src/http/transport.ts';

/** How often the client looks at the clock: often enough to place a stall, rarely enough to cost nothing. */
export const TICK_MS = 50;
/** A tick later than this is a stall (timer jitter and a burst of responses handled at once are not). */
export const STALL_MS = 20;

interface Stall {
  from: number;
  to: number;
}

export class Lateness {
  private readonly stalls: Stall[] = [];
  private held = 0;
  private ticking = false;
  private cancel: () => void = () => undefined;

  constructor(private readonly clock: Clock) {}

  /**
   * A request went out: tick while any is out (what a judgement asks is the lateness within a request's span; with
   * none out there is nothing to measure, and a long wait on simulated time would cost a tick every TICK_MS).
   */
  hold(): void {
    if (this.held++ === 0 && !this.ticking) {
      this.ticking = true;
      this.tick(this.clock.now() + TICK_MS);
    }
  }

  /** A request came back (or failed). */
  release(): void {
    if (--this.held > 0) return;
    this.held = 0;
    this.stop();
  }

  /** Stop ticking (a run's monitor must be stopped, or its clock never idles). */
  stop(): void {
    this.ticking = false;
    this.cancel();
  }

  /** A transport whose requests this monitor holds while they are out. */
  around<R>(send: (req: R) => Promise<Exchange>): (req: R) => Promise<Exchange> {
    return (req) => {
      this.hold();
      return send(req).finally(() => this.release());
    };
  }

  private tick(due: number): void {
    const w = this.clock.wait(Math.max(0, due - this.clock.now()));
    let live = true;
    this.cancel = () => {
      live = false;
      w.wake();
    };
    void w.done.then(() => {
      if (!live || !this.ticking) return;
      const now = this.clock.now();
      if (now - due >= STALL_MS) this.stalls.push({ from: due, to: now });
      this.tick(now + TICK_MS);
    });
  }

  /** The client's stalls within [from, to], in ms: how much of that span it was late. */
  within(from: number, to: number): number {
    let ms = 0;
    for (let i = this.stalls.length - 1; i >= 0; i--) {
      const s = this.stalls[i];
      if (s.to <= from) break;
      ms += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
    }
    return ms;
  }
}
