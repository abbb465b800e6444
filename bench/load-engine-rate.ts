/**
 * The request rate one Node engine and one k6 instance sustain here: each runs
 * the sustained scenario as `npm run load` makes the job, on an enterprise key
 * whose limit is far above what either can send (the scenario offers 90 % of
 * it per window), against the embedded reference server in a child process of
 * its own (the client measured keeps a core; loopback only). The offered rate
 * is out of reach, so each engine sends as fast as it keeps up its pacing: the
 * Node engine with its in-flight cap (64), k6 with its constant-arrival-rate
 * executor on 1 VU (the suite's default, ANIMAL_STORE_LOAD_MAX_VUS) and on 8.
 * The server's metered clock counts the requests, first to last. Bounded: the
 * scenario's time cap (two 2 s windows and its slack), the run deadline, and a
 * request budget the scenario's request cap must fit in.
 */
import { NodeEngine, type LoadEngine } from '../load/node/engine.ts';
import { K6Engine } from '../load/node/k6.ts';
import { jobsFor } from '../load/node/run.ts';
import { closeTransport } from '../src/http/transport.ts';
import { freshBundles, k6Binary, skippedLine } from './load-k6.ts';
import { childTarget, windowStart, type BenchLine, type ChildTarget } from './load-common.ts';

/** Limit per window of the key: 90 % of it is offered, far beyond either engine on this machine. */
const OFFERED_LIMIT = 200_000;
/** The scenario's request cap (90 % of the limit for two windows, and 3) must fit in this, as in `npm run load`. */
const BUDGET = 400_000;

interface Rate {
  perSecond: number;
  count: number;
  seconds: number;
  reported: number;
}

/**
 * One run of the sustained scenario on `engine` against the shared server, from
 * the start of a window: no request of an earlier run counts in it, so the
 * key is fresh and the scenario's preflight goes straight on.
 */
async function sustainedRate(server: ChildTarget, engine: LoadEngine, vus: number): Promise<Rate> {
  const job = { ...jobsFor(server.target, ['sustained'], BUDGET)[0], maxVus: vus };
  await windowStart(job.windowMs);
  await server.stats();
  const r = await engine.run(job);
  await closeTransport();
  const s = await server.stats();
  const seconds = s.first !== undefined && s.last !== undefined ? Math.max(0.001, (s.last - s.first) / 1000) : 0;
  return { perSecond: seconds ? s.count / seconds : 0, count: s.count, seconds, reported: r.report.requestsSent };
}

const best = (a: Rate | undefined, b: Rate) => (a && a.perSecond >= b.perSecond ? a : b);
const describe = (r: Rate, rounds: number) =>
  `best of ${rounds}: ${r.count} requests in ${r.seconds.toFixed(2)} s at the server (engine reported ${r.reported})`;

/**
 * Node engine, then k6 on each VU count, in `rounds` alternating rounds after a
 * warm-up run (the machine is shared: the best round of each is reported).
 */
export async function benchEngineRate(windowMs = 2000, k6Vus: readonly number[] = [1, 8], rounds = 2): Promise<BenchLine[]> {
  const k6 = await k6Binary();
  const bundles = 'skipped' in k6 ? undefined : await freshBundles();
  const server = await childTarget({
    plan: 'enterprise',
    rpm: String(OFFERED_LIMIT),
    rpd: '1000000000000',
    'window-ms': String(windowMs),
    'deadline-ms': String(60 * windowMs),
  });
  const node = new NodeEngine({}, () => undefined);
  let nodeRate: Rate | undefined;
  const k6Rates: (Rate | undefined)[] = k6Vus.map(() => undefined);
  try {
    await sustainedRate(server, node, 1);
    for (let round = 0; round < rounds; round++) {
      nodeRate = best(nodeRate, await sustainedRate(server, node, 1));
      if (!bundles || 'skipped' in k6) continue;
      for (let i = 0; i < k6Vus.length; i++)
        k6Rates[i] = best(k6Rates[i], await sustainedRate(server, new K6Engine(k6.bin, bundles.dist, () => undefined), k6Vus[i]));
    }
  } finally {
    await server.close();
    bundles?.done();
  }
  const goal = 'reported (load/README)';
  const lines: BenchLine[] = [];
  if (nodeRate)
    lines.push({
      name: 'sustained request rate, one Node engine (64 in flight)',
      value: Math.round(nodeRate.perSecond),
      unit: 'req/s',
      goal,
      met: true,
      detail: describe(nodeRate, rounds),
    });
  if ('skipped' in k6) return [...lines, skippedLine('sustained request rate, one k6 instance', goal, k6.skipped)];
  k6Vus.forEach((vus, i) => {
    const r = k6Rates[i];
    if (!r) return;
    lines.push({
      name: `sustained request rate, one k6 instance, ${vus} VU${vus > 1 ? 's' : ' (the default)'}`,
      value: Math.round(r.perSecond),
      unit: 'req/s',
      goal,
      met: true,
      detail: `${describe(r, rounds)}; k6 ${k6.version}`,
    });
  });
  return lines;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) for (const l of await benchEngineRate()) console.log(JSON.stringify(l));
