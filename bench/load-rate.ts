/**
 * Rate accuracy of the Node engine: 60, 300 and 1,000 requests per window
 * (a scaled window stands for the minute), achieved rate within 1% of target.
 * Achieved = (requests - 1) × window / (last send - first send); the count in
 * the window must also be the target. The server runs in a child process.
 */
import { closeTransport } from '../src/http/transport.ts';
import { childTarget, pacedRun, UNLIMITED, type BenchLine } from './load-common.ts';

export async function benchLoadRateAccuracy(windowMs = 5000, targets: readonly number[] = [60, 300, 1000]): Promise<BenchLine[]> {
  const server = await childTarget(UNLIMITED);
  const lines: BenchLine[] = [];
  try {
    for (const target of targets) {
      const run = await pacedRun(server, target, windowMs);
      const sends = run.state.samples.map((s) => s.sentAt).sort((a, b) => a - b);
      const span = sends[sends.length - 1] - sends[0];
      const achieved = ((sends.length - 1) * windowMs) / span;
      const error = Math.abs(achieved - target) / target;
      const ok = run.state.samples.filter((s) => s.status === 200).length;
      lines.push({
        name: `load rate accuracy, ${target} per minute (window scaled to ${windowMs} ms)`,
        value: Math.round(error * 10000) / 100,
        unit: '% error',
        goal: '<= 1 %',
        met: error <= 0.01 && sends.length === target,
        detail: `${sends.length} sent (${ok} × 200), achieved ${achieved.toFixed(2)} per window`,
      });
    }
  } finally {
    await closeTransport();
    await server.close();
  }
  return lines;
}

if (process.argv[1] && import.meta.filename === process.argv[1])
  for (const l of await benchLoadRateAccuracy()) console.log(JSON.stringify(l));
