/**
 * What this machine sustains against the embedded reference server, measured for a moment before a run's rate-limit
 * scenarios — after its conformance specs (src/cli/certify-run.ts), so with the code the requests run compiled and the
 * machine as busy as the scenarios will find it: a throwaway reference server in this process (the embedded one runs
 * here too, so the client and the server share the CPU as they will), requests on an unlimited key with the suite's own
 * transport, a few in flight, for `ms` in a few samples — the median of their responses a second (the README says what
 * it measured on a quiet and on a busy machine). src/target/world.ts sizes the short world's window (and day) from it.
 *
 * Measured at the start of a fresh process instead, it measured the cold code: beside 8 CPU-bound processes (load
 * average 12), 60 a second there, then 98, 142, 234 and up to 460 in the same process a few seconds later. A warm-up
 * counted in responses, not in time, starts the samples once the code is compiled, or nearly (a run with no conformance
 * specs: --only load).
 */
import { send } from '../http/transport.ts';
import type { MachineRate } from '../target/world.ts';
import { throwawayServer } from '../target/throwaway.ts';

/** Requests in flight while measuring: about what the scenarios hold on a busy machine (the ceiling up to 64), not a flood. */
export const MEASURE_IN_FLIGHT = 32;
/** How long the measurement lasts by default: long enough to span a busy machine's stalls (a few hundred ms each). */
export const MEASURE_MS = 1000;
/** The measurement's samples, each a share of it: the rate is their median, so that one stall or one lucky slice does not decide the world. */
export const MEASURE_SAMPLES = 4;
/**
 * The warm-up, not counted: until this many responses (by then the requests' code is compiled: the cost of a request fell
 * threefold over the first 100–200 beside 8 CPU-bound processes), or at most WARM_UP_MAX_MS on a machine too busy for them.
 */
export const WARM_UP_RESPONSES = 200;
export const WARM_UP_MAX_MS = 2000;

export interface Measure {
  ms: number;
  inFlight: number;
  samples: number;
  /** The warm-up: until this many responses, or at most `maxMs`. */
  warmUp: { responses: number; maxMs: number };
}

const DEFAULT: Measure = {
  ms: MEASURE_MS,
  inFlight: MEASURE_IN_FLIGHT,
  samples: MEASURE_SAMPLES,
  warmUp: { responses: WARM_UP_RESPONSES, maxMs: WARM_UP_MAX_MS },
};

/** The median of the samples' rates (the mean of the middle two of an even count). */
export function medianRate(rates: readonly number[]): number {
  const r = [...rates].sort((a, b) => a - b);
  const m = r.length >> 1;
  return r.length % 2 ? r[m] : (r[m - 1] + r[m]) / 2;
}

export async function measureMachineRate(given: Partial<Measure> = {}): Promise<MachineRate> {
  const { ms, inFlight, samples, warmUp } = { ...DEFAULT, ...given };
  const server = await throwawayServer();
  const req = {
    method: 'GET' as const,
    url: `${server.url}/pets?limit=1`,
    headers: { authorization: `Bearer ${server.key}`, accept: 'application/json' },
  };
  const n = Math.max(1, Math.floor(samples));
  // The responses of each sample: the lanes run on through the whole measurement, each answer counted in the slice it came in.
  const answered: number[] = Array.from({ length: n }, () => 0);
  let warm = 0;
  let from = 0;
  let until = Date.now() + warmUp.maxMs;
  const counted = (ex: { response?: unknown }) => {
    const at = Date.now();
    if (!from) warm += ex.response ? 1 : 0;
    else if (ex.response && at <= until) answered[Math.min(n - 1, Math.floor(((at - from) * n) / ms))]++;
  };
  // One request a turn of the timers, as the paced scenarios send theirs (load/lib/scenario-phases.ts PacedPhase: the
  // next one after a timer), never more than `inFlight` at once: bound by the CPU, and by how late the timers fire.
  const pacer = async () => {
    const pending = new Set<Promise<void>>();
    while (Date.now() < until && (from || warm < warmUp.responses)) {
      if (pending.size < inFlight) {
        const p: Promise<void> = send(req, { timeoutMs: 10_000, maxBodyBytes: 65_536 })
          .then(counted)
          .finally(() => pending.delete(p));
        pending.add(p);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(pending);
  };
  try {
    // A fresh process's first requests compile undici's and the server's code: not counted.
    await pacer();
    from = Date.now();
    until = from + ms;
    await pacer();
  } finally {
    await server.close();
  }
  const took = Math.max(1, Math.min(Date.now(), until) - from);
  return { perS: medianRate(answered.map((a) => (a * 1000 * n) / took)), ms: took, inFlight };
}
