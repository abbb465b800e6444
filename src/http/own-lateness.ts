/**
 * How late this process itself runs while requests are out, on the real clock — what the transport's timeout must
 * know (issue 37): on a busy machine the client's timers, the responses it reads and, for a server in the same process
 * (the embedded reference server, the self-tests' library servers), the server's answers are all late by the time the
 * process spends off the CPU. A tick every TICK_MS while any request is out; a tick that runs STALL_MS or more after it
 * was due is a stall of the client, from the moment it was due to the moment it ran (the same measure as the load
 * engine's, load/node/lateness.ts, which runs on the engine's clock).
 *
 * `atDeadline` decides what a request's timeout means: the server is given the whole timeout of the client's attention
 * (the time elapsed less the client's own stalls), within a bound of LATE_CAP_FACTOR timeouts; a request still
 * unanswered with less attention than that timed out on the client's machine, not on the server.
 */

/** How often the client looks at the clock while a request is out. */
const TICK_MS = 50;
/** A tick later than this is a stall (timer jitter and a burst of responses handled at once are not). */
const STALL_MS = 20;
/** A request waits at most this many timeouts of wall time, whatever the client's lateness (a hang stays bounded). */
export const LATE_CAP_FACTOR = 3;
/** The shortest re-arm of a deadline (a timer's granularity). */
const MIN_WAIT_MS = 10;

interface Span {
  from: number;
  to: number;
}

let held = 0;
let due = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let stalls: Span[] = [];
/** The starts of the requests out (a stall before the earliest is of no use to any of them). */
const starts = new Map<number, number>();
let nextHold = 0;

function tick(): void {
  const now = Date.now();
  if (now - due >= STALL_MS) stalls.push({ from: due, to: now });
  if (stalls.length > 1000) {
    const earliest = Math.min(...starts.values());
    stalls = stalls.filter((s) => s.to > earliest);
  }
  due = now + TICK_MS;
  arm();
}

function arm(): void {
  timer = setTimeout(tick, Math.max(0, due - Date.now()));
  timer.unref();
}

/** A request went out at `startedAt`: the monitor ticks until every request out has been released. */
export function holdOwnLateness(startedAt: number): () => void {
  const id = nextHold++;
  starts.set(id, startedAt);
  if (held++ === 0) {
    due = Date.now() + TICK_MS;
    arm();
  }
  return () => {
    if (!starts.delete(id)) return;
    if (--held > 0) return;
    clearTimeout(timer);
    timer = undefined;
    stalls = [];
  };
}

/** The client's own stalls within [from, to] in ms, a stall still under way (its tick overdue) included. */
export function lateWithin(from: number, to = Date.now()): number {
  const open = held > 0 && to - due >= STALL_MS ? [{ from: due, to }] : [];
  let ms = 0;
  for (const s of [...stalls, ...open]) ms += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
  return ms;
}

/** What a request's deadline says when its timer fires: wait `ms` more, or give up (whose time ran out). */
export type Deadline = { wait: number } | { over: 'server' | 'client-late' };

/**
 * At `elapsedMs` since a request left, `lateMs` of it the client's own stalls: the server has had `elapsedMs - lateMs`
 * of the client's attention. It times out once that reaches `timeoutMs`; a client so late that it cannot give that
 * much within LATE_CAP_FACTOR timeouts gives up on its own account ('client-late': the machine, not the server). Pure.
 */
export function atDeadline({ elapsedMs, lateMs, timeoutMs }: { elapsedMs: number; lateMs: number; timeoutMs: number }): Deadline {
  const attention = elapsedMs - lateMs;
  if (attention >= timeoutMs) return { over: 'server' };
  const cap = timeoutMs * LATE_CAP_FACTOR;
  if (elapsedMs >= cap) return { over: 'client-late' };
  return { wait: Math.max(MIN_WAIT_MS, Math.min(timeoutMs - attention, cap - elapsedMs)) };
}
