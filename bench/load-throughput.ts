/**
 * The Node engine's maximum request rate against the reference server (in its
 * own process), next to autocannon's against the same server in the same run,
 * with the same number of connections in flight.
 */
import autocannon from 'autocannon';
import { closeTransport } from '../src/http/transport.ts';
import { childTarget, pacedRun, UNLIMITED, type BenchLine } from './load-common.ts';

export async function benchLoadMaxRate(seconds = 3, connections = 64): Promise<BenchLine[]> {
  const server = await childTarget(UNLIMITED);
  try {
    // Warm-up, then two alternating rounds (the machine is shared: the best round of each is reported).
    await pacedRun(server, 500, 500, connections);
    let engineRps = 0;
    let acRps = 0;
    let detail = '';
    let acDetail = '';
    for (let round = 0; round < 2; round++) {
      // The Node engine: a paced phase asking for far more than it can send, capped at `connections` in flight.
      const run = await pacedRun(server, 1_000_000, seconds * 1000, connections);
      const s = run.state.samples;
      const span = (Math.max(...s.map((x) => x.t)) - Math.min(...s.map((x) => x.sentAt))) / 1000;
      if (s.length / span > engineRps) {
        engineRps = s.length / span;
        detail = `${s.length} requests in ${span.toFixed(2)} s, ${connections} in flight, ${s.filter((x) => x.status !== 200).length} non-200`;
      }
      const ac = await autocannon({
        url: `${server.url}/pets?limit=1`,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${server.key}` },
      });
      if (ac.requests.total / (ac.duration || seconds) > acRps) {
        acRps = ac.requests.total / (ac.duration || seconds);
        acDetail = `${ac.requests.total} requests, ${connections} connections, ${ac.non2xx} non-2xx, ${ac.errors} errors`;
      }
    }
    return [
      {
        name: 'Node engine max request rate vs reference server',
        value: Math.round(engineRps),
        unit: 'req/s',
        goal: 'reported (next to autocannon)',
        met: true,
        detail,
      },
      {
        name: 'autocannon max request rate vs the same server',
        value: Math.round(acRps),
        unit: 'req/s',
        goal: 'reference point',
        met: true,
        detail: acDetail,
      },
      { name: 'Node engine / autocannon', value: Math.round((engineRps / acRps) * 100), unit: '%', goal: 'reported', met: true },
    ];
  } finally {
    await closeTransport();
    await server.close();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) for (const l of await benchLoadMaxRate()) console.log(JSON.stringify(l));
