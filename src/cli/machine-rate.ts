/**
 * What this machine sustains against the embedded reference server, measured for a moment before a run's rate-limit
 * scenarios: a throwaway reference server in this process (the embedded one runs here too, so the client and the
 * server share the CPU as they will), requests on an unlimited key with the suite's own transport, a few in flight,
 * for `ms` — the responses a second (the README says what it measured on a quiet and on a busy machine).
 * src/target/world.ts sizes the short world's window (and day) from it.
 */
import { send } from '../http/transport.ts';
import type { MachineRate } from '../target/world.ts';
import { throwawayServer } from '../target/throwaway.ts';

/** Requests in flight while measuring: about what the scenarios hold on a busy machine (the ceiling up to 64), not a flood. */
export const MEASURE_IN_FLIGHT = 32;
/** How long the measurement lasts by default: long enough to span a busy machine's stalls (a few hundred ms each). */
export const MEASURE_MS = 1000;

export async function measureMachineRate(ms = MEASURE_MS, inFlight = MEASURE_IN_FLIGHT): Promise<MachineRate> {
  const server = await throwawayServer();
  const req = {
    method: 'GET' as const,
    url: `${server.url}/pets?limit=1`,
    headers: { authorization: `Bearer ${server.key}`, accept: 'application/json' },
  };
  let answered = 0;
  const started = Date.now();
  const until = started + ms;
  const lane = async () => {
    while (Date.now() < until) {
      const ex = await send(req, { timeoutMs: 10_000, maxBodyBytes: 65_536 });
      if (ex.response && Date.now() <= until) answered++;
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, lane));
  } finally {
    await server.close();
  }
  const took = Math.max(1, Math.min(Date.now(), until) - started);
  return { perS: (answered * 1000) / took, ms: took, inFlight };
}
