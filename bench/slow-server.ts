/**
 * The conformance run against a correct server answering every request in 1.5 s, with an unlimited rate (an enterprise
 * key of a million a minute): wall time (issue 37: goal under 90 s), requests, and the requests in flight on average
 * and at most, read from the run's traffic.har (mean in flight = the entries' summed time / the span they cover).
 * The run is latency-bound: the requests the server's latency lets go together decide its time, not the CPU.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../reference/app.ts';
import { DEMO_KEYS } from '../reference/keys.ts';
import { listen } from '../reference/server.ts';
import { run, type BenchLine } from './conformance.ts';
import { tempDir } from './support/temp.ts';

const LATENCY_MS = 1500;
const GOAL_MS = 90_000;

interface Har {
  log: { entries: { startedDateTime: string; time: number }[] };
}

/** The entries' span, their mean in flight (Little's law) and the most at once. */
export function inFlight(har: Har): { spanMs: number; mean: number; peak: number } {
  const spans = har.log.entries.map((e) => [Date.parse(e.startedDateTime), Date.parse(e.startedDateTime) + e.time] as const);
  if (!spans.length) return { spanMs: 0, mean: 0, peak: 0 };
  const t0 = Math.min(...spans.map((s) => s[0]));
  const spanMs = Math.max(...spans.map((s) => s[1])) - t0;
  const busy = spans.reduce((n, [a, b]) => n + (b - a), 0);
  const events = spans.flatMap(([a, b]) => [[a, 1] as const, [b, -1] as const]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return { spanMs, mean: spanMs ? busy / spanMs : 0, peak };
}

export async function benchSlowServer(): Promise<BenchLine[]> {
  const enterprise = { perMinute: 1_000_000, perDay: 100_000_000 };
  const server = await listen(buildApp({ variants: { latencyMs: LATENCY_MS }, enterprise }), { host: '127.0.0.1', port: 0 });
  const reports = tempDir('bench-slow-server');
  try {
    const r = await run(['src/cli/conformance.ts', '--seed', '42'], {
      ANIMAL_STORE_BASE_URL: server.url,
      ANIMAL_STORE_API_KEY: DEMO_KEYS.enterprise,
      ANIMAL_STORE_PLAN: 'enterprise',
      ANIMAL_STORE_RPM: String(enterprise.perMinute),
      ANIMAL_STORE_RPD: String(enterprise.perDay),
      ANIMAL_STORE_REPORTS_DIR: reports,
    });
    const dir = join(reports, 'conformance', readdirSync(join(reports, 'conformance'))[0]);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requestsSent: number; outcome: string };
    const flight = inFlight(JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8')) as Har);
    return [
      {
        name: `conformance run against a ${LATENCY_MS / 1000} s server, unlimited rate: wall time`,
        value: Math.round(r.ms),
        unit: 'ms',
        goal: `< ${GOAL_MS} ms`,
        met: r.ms < GOAL_MS,
        detail: `exit ${r.code}, outcome ${report.outcome}, ${report.requestsSent} requests, seed 42`,
      },
      {
        name: `conformance run against a ${LATENCY_MS / 1000} s server: requests in flight`,
        value: Math.round(flight.mean * 10) / 10,
        unit: 'on average',
        goal: 'reported',
        met: true,
        detail: `at most ${flight.peak}, over ${Math.round(flight.spanMs / 1000)} s of traffic`,
      },
    ];
  } finally {
    rmSync(reports, { recursive: true, force: true });
    await server.close();
  }
}
