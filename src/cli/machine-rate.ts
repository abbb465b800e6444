/**
 * What this machine sustains against the embedded reference server, measured for a moment before a run's rate-limit
 * scenarios: a throwaway reference server in this process (the embedded one runs here too, so the client and the
 * server share the CPU as they will), requests on an unlimited key with the suite's own transport, a few in flight,
 * for `ms` in a few samples — the median of their responses a second (the README says what it measured on a quiet and
 * on a busy machine).
 * src/target/world.ts sizes the short world's window (and day) from it.
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
/** The requests before the measurement, not counted: the code they run is compiled by then. */
export const WARM_UP_MS = 500;

/** The median of the samples' rates (the mean of the middle two of an even count). */
export function medianRate(rates: readonly number[]): number {
  const r = [...rates].sort((a, b) => a - b);
  const m = r.length >> 1;
  return r.length % 2 ? r[m] : (r[m - 1] + r[m]) / 2;
}

export async function measureMachineRate(ms = MEASURE_MS, inFlight = MEASURE_IN_FLIGHT, samples = MEASURE_SAMPLES): Promise<MachineRate> {
  const server = await throwawayServer();
  const req = {
    method: 'GET' as const,
    url: `${server.url}/pets?limit=1`,
    headers: { authorization: `Bearer ${server.key}`, accept: 'application/json' },
  };
  const n = Math.max(1, Math.floor(samples));
  // The responses of each sample: the lanes run on through the whole measurement, each answer counted in the slice it came in.
  const answered: number[] = Array.from({ length: n }, () => 0);
  let from = 0;
  let until = Date.now() + WARM_UP_MS;
  const lane = async () => {
    while (Date.now() < until) {
      const ex = await send(req, { timeoutMs: 10_000, maxBodyBytes: 65_536 });
      const at = Date.now();
      if (from && ex.response && at <= until) answered[Math.min(n - 1, Math.floor(((at - from) * n) / ms))]++;
    }
  };
  try {
    // A fresh process's first requests compile undici's and the server's code (a third of the rate, measured): not counted.
    await Promise.all(Array.from({ length: inFlight }, lane));
    from = Date.now();
    until = from + ms;
    await Promise.all(Array.from({ length: inFlight }, lane));
  } finally {
    await server.close();
  }
  const took = Math.max(1, Math.min(Date.now(), until) - from);
  return { perS: medianRate(answered.map((a) => (a * 1000 * n) / took)), ms: took, inFlight };
}
